/** The records Stepwise keeps, as the stores hand them to the rest of the server. */

export const RUN_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The kinds of a log name: what its series holds. */
export const LOG_NAME_TYPES = [
  'METRIC',
  'IMAGE',
  'VIDEO',
  'AUDIO',
  'FILE',
  'TEXT',
  'ARTIFACT',
  'HISTOGRAM',
  'TABLE',
  'DATA',
  'GRAPH',
] as const;
export type LogNameType = (typeof LOG_NAME_TYPES)[number];

/** The console-log types (levels), in their stored (upper-case) form. */
export const CONSOLE_LOG_TYPES = ['INFO', 'ERROR', 'WARNING', 'DEBUG', 'PRINT'] as const;
export type ConsoleLogType = (typeof CONSOLE_LOG_TYPES)[number];

export type StatusSource = 'api' | 'resume' | 'system';

/** Who a request acts as: resolved from its API key. */
export interface Principal {
  orgId: number;
  orgSlug: string;
  userId: number;
  keyId: number;
}

export interface LogNameEntry {
  logName: string;
  logType: string;
  logGroup: string;
}

/** A run as stored. Times are epoch milliseconds; JSON fields are parsed values or null. */
export interface Run {
  id: number;
  orgId: number;
  projectId: number;
  projectName: string;
  number: number;
  displayId: string;
  name: string;
  externalId: string | null;
  status: RunStatus;
  tags: string[];
  config: unknown;
  systemMetadata: unknown;
  loggerSettings: unknown;
  statusMetadata: unknown;
  notes: string | null;
  forkedFromRunId: number | null;
  forkStep: number | null;
  createdAt: number;
  updatedAt: number;
  statusUpdated: number;
}

export interface StatusEvent {
  id: number;
  runId: number;
  fromStatus: RunStatus | null;
  toStatus: RunStatus;
  source: StatusSource;
  metadata: unknown;
  createdAt: number;
}

export interface Project {
  id: number;
  name: string;
  prefix: string;
  createdAt: number;
  updatedAt: number;
  runCount: number;
}

export interface ApiKeyRecord {
  id: number;
  orgId: number;
  orgSlug: string;
  userId: number;
  userName: string;
  name: string;
  prefix: string;
  keyHash: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** A dashboard sign-in session as stored: the hash of its token, never the token. */
export interface SessionRecord {
  tokenHash: string;
  apiKeyId: number;
  /** The SHA-256 of the API key that signed in, to check that key like a Bearer key. */
  keyHash: string;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
}

/** One link of a fork lineage: a run's own points are visible up to maxStep (inclusive). */
export interface LineageLink {
  runId: number;
  maxStep: number;
}
