import { loadConfig } from '../config.js';
import { startServer } from '../server.js';

/** `stepwise serve`: runs the server until SIGINT/SIGTERM, then shuts down cleanly and exits 0. */
export async function serve(args: readonly string[]): Promise<void> {
  const config = loadConfig(args);
  // Nothing logs request headers today; redaction keeps a key out of the log if that changes.
  const redact = {
    paths: ['req.headers.authorization', 'headers.authorization', '*.headers.authorization'],
    censor: '[redacted]',
  };
  const server = await startServer(config, { level: config.logLevel, redact });
  if (server.bootstrapKey !== undefined) {
    process.stdout.write(
      `\nCreated the default organization and API key (shown once, also in ${config.dataDir}/bootstrap-key):\n\n  ${server.bootstrapKey}\n\n`,
    );
    process.stdout.write(
      `Set the owner's email and password within 7 days (the link works once):\n\n  ${server.ownerLink}\n\n`,
    );
  }
  process.stdout.write(`Stepwise listening on ${config.publicUrl} (data: ${config.dataDir})\n`);
  const stop = (signal: string) => {
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
