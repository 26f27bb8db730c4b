import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_COST, PASSWORD_COST_MIN } from './auth/passwords.js';
import { isRole, type Role } from './domain/roles.js';

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
  /** Ingest requests admitted at once (more are answered 503 with Retry-After). */
  ingestMaxInFlight: number;
  /** Declared body bytes of the admitted ingest requests (a lone request is always admitted). */
  ingestMaxInFlightBytes: number;
  /** Ingest requests and uploads one organization may have admitted at once (fairness between tenants). */
  ingestOrgMaxInFlight: number;
  /** Body bytes one organization may have admitted at once (a lone request of an idle organization passes). */
  ingestOrgMaxInFlightBytes: number;
  /** A request body must arrive within this many ms, plus 1 s per `bodyMinRate` bytes received; 0 = no deadline. */
  bodyTimeoutMs: number;
  /** Bytes per second that extend a body's deadline by one second (the slowest sustained upload allowed). */
  bodyMinRate: number;
  /** The largest `fileSize` POST /files accepts (413 above); an upload must send exactly its declared size. */
  uploadMaxBytes: number;
  /** Browser origins allowed by CORS; empty = closed, `*` = any. */
  corsOrigins: string[];
  /** A RUNNING run silent this long (ms) is marked FAILED by the server; 0 = never. */
  staleAfterMs: number;
  /** A run in the trash this long (ms) is purged for good by the server; 0 = never (only on request). */
  trashTtlMs: number;
  logLevel: string;
  /** A dashboard session ends after this many ms without use (each use extends it). */
  sessionTtlMs: number;
  /** log2 of scrypt's N for new password hashes: 15 (STEPWISE_PASSWORD_COST, 10 to 20; below 15 for tests only). */
  passwordCost: number;
  /** Live sessions one API key may have; signing in past it ends the key's oldest session. */
  maxSessionsPerKey: number;
  /** Open connections the process keeps over all its ports; more are closed at once. */
  maxConnections: number;
  /** Open connections one client address may have (a proxy's address is every client's); more are closed at once. */
  maxConnectionsPerAddress: number;
  /** A request's line and headers must arrive within this many ms of its first byte (or of the connection); 408 after. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many ms (Node adds a 1 s margin). */
  keepAliveTimeoutMs: number;
  /** The built dashboard (index.html, assets/) served at every non-API path. */
  uiDir: string;
  /** Most metrics GET /api/runs/statistics answers (400 above). */
  readMaxItems: number;
  /** A run search (any read whose cost the client's filter sets) is stopped after this many ms (400 QUERY_TIMEOUT); 0 = never. */
  queryTimeoutMs: number;
  /** Most bytes one answer of runs/list, runs/details or runs/files may hold (400 RESULT_TOO_LARGE above). */
  readMaxBytes: number;
  /** Most bytes of the JSON of one MCP tool answer; longer lists are cut there (`hasMore`, docs/api.md §17). */
  mcpMaxBytes: number;
  /** Most log names (metric, data and file names) one run may have; registering more is a 400. */
  runMaxLogNames: number;
  /** Most points GET /api/runs/metrics answers, counted before it streams them (400 above). */
  readMaxPoints: number;
  /** `postgres://…` (or `sqlite:<file>`); undefined = the embedded SQLite file in dataDir. */
  databaseUrl: string | undefined;
  /** `s3://bucket/prefix?endpoint=…&region=…&forcePathStyle=true`; undefined = `<dataDir>/blobs`. */
  blobUrl: string | undefined;
  /** Credentials for the S3 blob store from AWS_* variables; undefined = the AWS SDK's default chain. */
  s3Credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
  /** AWS_REGION (or AWS_DEFAULT_REGION), used when the blob URL names no region. */
  s3Region: string | undefined;
  /** Webhook targets in loopback, private, link-local or metadata ranges are allowed (STEPWISE_WEBHOOK_ALLOW_PRIVATE=1). */
  webhookAllowPrivate: boolean;
  /** The waits before each retry of a failed webhook delivery, in ms; a delivery is tried once more than its length. */
  webhookRetryDelaysMs: number[];
  /** A webhook delivery attempt is given up after this many ms. */
  webhookTimeoutMs: number;
  /** How often each server looks for due webhook deliveries, in ms. */
  webhookPollMs: number;
  /** OpenID Connect sign-in (STEPWISE_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET); undefined = off. */
  oidc: OidcConfig | undefined;
  /** Invitations are mailed through this server (STEPWISE_SMTP_URL, smtp:// or smtps://); undefined = off. */
  smtpUrl: string | undefined;
  /** The From of invitation mails (STEPWISE_SMTP_FROM). */
  smtpFrom: string;
}

/** Where SSO signs in and as whom its new users join (docs/api.md §16). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The role of a user made by a first SSO sign-in (STEPWISE_OIDC_DEFAULT_ROLE, default member). */
  defaultRole: Role;
}

const MB = 1024 * 1024;

/** `<repo>/ui/dist`, found from this file (src/config.ts and dist/config.js are both one level down). */
const DEFAULT_UI_DIR = fileURLToPath(new URL('../ui/dist', import.meta.url));

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

function parseCount(text: string | undefined, fallback: number, what: string): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${what} must be a positive integer`);
  return n;
}

/** STEPWISE_PASSWORD_COST: 10 to 20, else PASSWORD_COST (15). Lower than 15 only makes tests faster. */
function parsePasswordCost(text: string | undefined): number {
  if (text === undefined) return PASSWORD_COST;
  const cost = Number(text);
  if (!Number.isInteger(cost) || cost < PASSWORD_COST_MIN || cost > 20) {
    throw new ConfigError(`STEPWISE_PASSWORD_COST must be an integer from ${PASSWORD_COST_MIN} to 20`);
  }
  return cost;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `10m`, `1h`, `7d`, `500ms`, a bare number of seconds, or `off`/`0` (returns 0). */
function parseDuration(text: string | undefined, fallback: number, what: string): number {
  if (text === undefined) return fallback;
  if (text === 'off') return 0;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new ConfigError(`${what} must be a duration such as 600s, 10m or 1h (or off)`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 's']!);
}

function parseOrigins(text: string | undefined): string[] {
  const origins = (text ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter((o) => o !== '');
  for (const o of origins) {
    if (o !== '*' && !/^https?:\/\/[^/\s?#]+$/.test(o)) {
      throw new ConfigError(`STEPWISE_CORS_ORIGINS: ${JSON.stringify(o)} is not an origin like https://host:port or *`);
    }
  }
  return origins;
}

/** The default retry waits of a webhook delivery: the last try is about 41 h after the first. */
const WEBHOOK_RETRY_DELAYS = '5s,30s,2m,10m,1h,4h,12h,24h';

/** The webhook part of the configuration (issue 31). */
function webhookConfig(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'webhookAllowPrivate' | 'webhookRetryDelaysMs' | 'webhookTimeoutMs' | 'webhookPollMs'> {
  const what = 'STEPWISE_WEBHOOK_RETRY_DELAYS';
  const delays = (env.STEPWISE_WEBHOOK_RETRY_DELAYS || WEBHOOK_RETRY_DELAYS)
    .split(',')
    .map((d) => parseDuration(d.trim(), 0, what));
  if (delays.length > 20 || delays.some((d) => d <= 0)) {
    throw new ConfigError(`${what} must be 1 to 20 durations above zero, such as 5s,30s,2m`);
  }
  const webhookTimeoutMs = parseDuration(env.STEPWISE_WEBHOOK_TIMEOUT, 10_000, 'STEPWISE_WEBHOOK_TIMEOUT');
  const webhookPollMs = parseDuration(env.STEPWISE_WEBHOOK_POLL, 500, 'STEPWISE_WEBHOOK_POLL');
  if (webhookTimeoutMs < 100 || webhookPollMs < 10) {
    throw new ConfigError('STEPWISE_WEBHOOK_TIMEOUT must be at least 100ms and STEPWISE_WEBHOOK_POLL at least 10ms');
  }
  return {
    webhookAllowPrivate: env.STEPWISE_WEBHOOK_ALLOW_PRIVATE === '1',
    webhookRetryDelaysMs: delays,
    webhookTimeoutMs,
    webhookPollMs,
  };
}

/** The storage part of the configuration: database URL, blob URL and S3 credentials. */
export function storageConfig(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Pick<Config, 'databaseUrl' | 'blobUrl' | 's3Credentials' | 's3Region'> {
  const databaseUrl = flagValue(args, 'database-url') ?? (env.STEPWISE_DATABASE_URL || undefined);
  if (databaseUrl !== undefined && !/^(postgres|postgresql):\/\/|^sqlite:/i.test(databaseUrl)) {
    throw new ConfigError('STEPWISE_DATABASE_URL / --database-url must start with postgres:// or sqlite:');
  }
  const blobUrl = flagValue(args, 'blob-url') ?? (env.STEPWISE_BLOB_URL || undefined);
  if (blobUrl !== undefined && !/^s3:\/\/[^/?#]+/i.test(blobUrl)) {
    throw new ConfigError('STEPWISE_BLOB_URL / --blob-url must look like s3://bucket/prefix?endpoint=…');
  }
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
  const sessionToken = env.AWS_SESSION_TOKEN || undefined;
  const s3Credentials =
    accessKeyId && secretAccessKey
      ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }
      : undefined;
  const s3Region = env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined;
  return { databaseUrl, blobUrl, s3Credentials, s3Region };
}

/** The connection limits; the per-address cap is at most the server-wide one. */
function connectionConfig(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'maxConnections' | 'maxConnectionsPerAddress' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'> {
  const maxConnections = parseCount(env.STEPWISE_MAX_CONNECTIONS, 10_000, 'STEPWISE_MAX_CONNECTIONS');
  const perAddress = parseCount(
    env.STEPWISE_MAX_CONNECTIONS_PER_ADDRESS,
    1_000,
    'STEPWISE_MAX_CONNECTIONS_PER_ADDRESS',
  );
  const headersTimeoutMs = parseDuration(env.STEPWISE_HEADERS_TIMEOUT, 10_000, 'STEPWISE_HEADERS_TIMEOUT');
  const keepAliveTimeoutMs = parseDuration(env.STEPWISE_KEEPALIVE_TIMEOUT, 5_000, 'STEPWISE_KEEPALIVE_TIMEOUT');
  if (headersTimeoutMs < 100) throw new ConfigError('STEPWISE_HEADERS_TIMEOUT must be at least 100ms');
  if (keepAliveTimeoutMs < 100) throw new ConfigError('STEPWISE_KEEPALIVE_TIMEOUT must be at least 100ms');
  return {
    maxConnections,
    maxConnectionsPerAddress: Math.min(perAddress, maxConnections),
    headersTimeoutMs,
    keepAliveTimeoutMs,
  };
}

/** STEPWISE_SMTP_URL (smtp://user:pass@host:port or smtps://…) and STEPWISE_SMTP_FROM. */
export function smtpConfig(env: NodeJS.ProcessEnv): { smtpUrl: string | undefined; smtpFrom: string } {
  const smtpUrl = env.STEPWISE_SMTP_URL || undefined;
  if (smtpUrl !== undefined) {
    const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : undefined;
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
      throw new ConfigError('STEPWISE_SMTP_URL must be a URL like smtp://user:pass@host:port or smtps://host');
    }
  }
  return { smtpUrl, smtpFrom: env.STEPWISE_SMTP_FROM || 'Stepwise <stepwise@localhost>' };
}

/** The OIDC settings: all three of issuer, client id and secret, or none (then undefined). */
export function oidcConfig(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const issuer = env.STEPWISE_OIDC_ISSUER || undefined;
  const clientId = env.STEPWISE_OIDC_CLIENT_ID || undefined;
  const clientSecret = env.STEPWISE_OIDC_CLIENT_SECRET || undefined;
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret) {
    throw new ConfigError('STEPWISE_OIDC_ISSUER, STEPWISE_OIDC_CLIENT_ID and STEPWISE_OIDC_CLIENT_SECRET go together');
  }
  if (!URL.canParse(issuer)) throw new ConfigError('STEPWISE_OIDC_ISSUER must be a URL');
  const defaultRole = env.STEPWISE_OIDC_DEFAULT_ROLE || 'member';
  if (!isRole(defaultRole) || defaultRole === 'owner') {
    throw new ConfigError('STEPWISE_OIDC_DEFAULT_ROLE must be viewer, member or admin');
  }
  return { issuer, clientId, clientSecret, defaultRole };
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
  const ingestMaxInFlight = parseCount(env.STEPWISE_INGEST_MAX_INFLIGHT, 64, 'STEPWISE_INGEST_MAX_INFLIGHT');
  const ingestMaxInFlightBytes = parseSize(
    env.STEPWISE_INGEST_MAX_INFLIGHT_BYTES,
    256 * MB,
    'STEPWISE_INGEST_MAX_INFLIGHT_BYTES',
  );
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
    ingestMaxInFlight,
    ingestMaxInFlightBytes,
    // By default one organization may hold half of each budget, so others always find room.
    ingestOrgMaxInFlight: parseCount(
      env.STEPWISE_INGEST_ORG_MAX_INFLIGHT,
      Math.ceil(ingestMaxInFlight / 2),
      'STEPWISE_INGEST_ORG_MAX_INFLIGHT',
    ),
    ingestOrgMaxInFlightBytes: parseSize(
      env.STEPWISE_INGEST_ORG_MAX_INFLIGHT_BYTES,
      Math.floor(ingestMaxInFlightBytes / 2),
      'STEPWISE_INGEST_ORG_MAX_INFLIGHT_BYTES',
    ),
    bodyTimeoutMs: parseDuration(env.STEPWISE_BODY_TIMEOUT, 30_000, 'STEPWISE_BODY_TIMEOUT'),
    bodyMinRate: parseCount(env.STEPWISE_BODY_MIN_RATE, 16 * 1024, 'STEPWISE_BODY_MIN_RATE'),
    uploadMaxBytes: parseCount(env.STEPWISE_UPLOAD_MAX_BYTES, 5 * 1024 * MB, 'STEPWISE_UPLOAD_MAX_BYTES'),
    corsOrigins: parseOrigins(env.STEPWISE_CORS_ORIGINS),
    staleAfterMs: parseDuration(env.STEPWISE_STALE_AFTER, 10 * 60_000, 'STEPWISE_STALE_AFTER'),
    trashTtlMs: parseDuration(env.STEPWISE_TRASH_TTL, 7 * 86_400_000, 'STEPWISE_TRASH_TTL'),
    logLevel: flagValue(args, 'log-level') ?? env.STEPWISE_LOG_LEVEL ?? 'info',
    queryTimeoutMs: parseDuration(env.STEPWISE_QUERY_TIMEOUT, 10_000, 'STEPWISE_QUERY_TIMEOUT'),
    readMaxItems: parseCount(env.STEPWISE_READ_MAX_ITEMS, 100_000, 'STEPWISE_READ_MAX_ITEMS'),
    readMaxBytes: parseSize(env.STEPWISE_READ_MAX_BYTES, 64 * MB, 'STEPWISE_READ_MAX_BYTES'),
    mcpMaxBytes: parseSize(env.STEPWISE_MCP_MAX_BYTES, MB, 'STEPWISE_MCP_MAX_BYTES'),
    runMaxLogNames: parseCount(env.STEPWISE_RUN_MAX_LOG_NAMES, 100_000, 'STEPWISE_RUN_MAX_LOG_NAMES'),
    readMaxPoints: parseCount(env.STEPWISE_READ_MAX_POINTS, 2_000_000, 'STEPWISE_READ_MAX_POINTS'),
    sessionTtlMs: parseCount(env.STEPWISE_SESSION_TTL, 7 * 86_400, 'STEPWISE_SESSION_TTL') * 1000,
    maxSessionsPerKey: parseCount(env.STEPWISE_MAX_SESSIONS_PER_KEY, 100, 'STEPWISE_MAX_SESSIONS_PER_KEY'),
    passwordCost: parsePasswordCost(env.STEPWISE_PASSWORD_COST),
    ...connectionConfig(env),
    uiDir: path.resolve(env.STEPWISE_UI_DIR || DEFAULT_UI_DIR),
    ...storageConfig(args, env),
    ...webhookConfig(env),
    oidc: oidcConfig(env),
    ...smtpConfig(env),
  };
}
