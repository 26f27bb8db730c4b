import path from 'node:path';

/** Everything the server is configured by; the only reader of process.env and flags. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  bootstrapKey: string | undefined;
  plutoPorts: boolean;
  jsonBodyLimit: number;
  ingestBodyLimit: number;
  logLevel: string;
}

const MB = 1024 * 1024;

/** Thrown for a bad flag or environment value; the CLI prints it and exits 2. */
export class ConfigError extends Error {}

function flagValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === `--${name}`) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) throw new ConfigError(`--${name} needs a value`);
      return value;
    }
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`${what} must be a port number`);
  return port;
}

function parseSize(text: string | undefined, fallback: number, what: string): number {
  if (text === undefined) return fallback;
  const bytes = Number(text);
  if (!Number.isInteger(bytes) || bytes < 1024) throw new ConfigError(`${what} must be a byte count of at least 1024`);
  return bytes;
}

/**
 * Reads the configuration from command-line flags, then STEPWISE_* variables, then
 * defaults (port 3000, host 127.0.0.1, data dir ./stepwise-data). Throws ConfigError.
 */
export function loadConfig(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(flagValue(args, 'port') ?? env.STEPWISE_PORT ?? '3000', 'port');
  const host = flagValue(args, 'host') ?? env.STEPWISE_HOST ?? '127.0.0.1';
  const dataDir = path.resolve(flagValue(args, 'data') ?? env.STEPWISE_DATA_DIR ?? 'stepwise-data');
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const publicUrl = (flagValue(args, 'public-url') ?? env.STEPWISE_PUBLIC_URL ?? `http://${urlHost}:${port}`).replace(
    /\/+$/,
    '',
  );
  const bootstrapKey = env.STEPWISE_BOOTSTRAP_KEY || undefined;
  if (bootstrapKey !== undefined && !/^[\x21-\x7e]{16,256}$/.test(bootstrapKey)) {
    throw new ConfigError('STEPWISE_BOOTSTRAP_KEY must be 16 to 256 printable ASCII characters without spaces');
  }
  return {
    port,
    host,
    dataDir,
    publicUrl,
    bootstrapKey,
    plutoPorts: args.includes('--pluto-ports') || env.STEPWISE_PLUTO_PORTS === '1',
    jsonBodyLimit: parseSize(env.STEPWISE_JSON_BODY_LIMIT, 10 * MB, 'STEPWISE_JSON_BODY_LIMIT'),
    ingestBodyLimit: parseSize(env.STEPWISE_INGEST_BODY_LIMIT, 64 * MB, 'STEPWISE_INGEST_BODY_LIMIT'),
    logLevel: flagValue(args, 'log-level') ?? env.STEPWISE_LOG_LEVEL ?? 'info',
  };
}
