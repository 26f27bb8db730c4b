import { ConfigError } from '../config.js';
import { keys } from './keys.js';
import { serve } from './serve.js';

const USAGE = `usage: stepwise <command>
  serve [--port P] [--host H] [--data DIR] [--public-url URL] [--pluto-ports]
        [--database-url postgres://...] [--blob-url s3://bucket/prefix?endpoint=...]
  keys create --data DIR --org SLUG [--user NAME] [--name LABEL] [--expires ISO] [--admin]
  keys list --data DIR [--org SLUG]   (keys commands take --database-url URL instead of --data)
  keys revoke --data DIR <id-or-key>`;

/** Runs the CLI with argv (without node and script); sets the exit code. */
export async function main(argv: readonly string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  try {
    if (command === 'serve') return await serve(rest);
    if (command === 'keys') {
      process.exitCode = await keys(rest, (line) => process.stdout.write(`${line}\n`));
      return;
    }
    if (command === 'help' || command === '--help') {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    throw new ConfigError(`unknown command ${command}\n${USAGE}`);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`stepwise: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
