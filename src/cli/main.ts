import { ConfigError } from '../config.js';

const USAGE = `usage: stepwise <command>
  serve [--port P] [--host H] [--data DIR] [--public-url URL] [--pluto-ports]
        [--database-url postgres://...] [--blob-url s3://bucket/prefix?endpoint=...]
  keys create --data DIR --org SLUG [--user NAME] [--name LABEL] [--expires ISO] [--admin] [--role R] [--key-role R]
  keys list --data DIR [--org SLUG]   (keys commands take --database-url URL instead of --data)
  keys revoke --data DIR <id-or-key>
  backup --data DIR --out FILE        (a consistent snapshot while the server runs)
  restore --in FILE --data NEWDIR     (into a new or empty directory)
  copy --data DIR --to-database-url postgres://... [--to-blob-url s3://bucket/prefix?endpoint=...]
                                      (into an empty deployment; run it again to resume)`;

type Command = (args: readonly string[], out: (line: string) => void) => Promise<number>;

/**
 * The commands that write lines to stdout and return an exit code, each loaded only when run
 * (`serve` then never loads tar and the copy machinery).
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  keys: async () => (await import('./keys.js')).keys,
  backup: async () => (await import('./backup.js')).backup,
  restore: async () => (await import('./restore.js')).restore,
  copy: async () => (await import('./copy.js')).copy,
};

/** Runs the CLI with argv (without node and script); sets the exit code. */
export async function main(argv: readonly string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  try {
    // Asking for help never starts a server or touches data, whatever the command.
    if (['help', '--help', '-h'].includes(command) || rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    if (command === 'serve') return await (await import('./serve.js')).serve(rest);
    const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (load) {
      const run = await load();
      process.exitCode = await run(rest, (line) => process.stdout.write(`${line}\n`));
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
