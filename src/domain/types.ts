/** The records Stepwise keeps, as the stores hand them to the rest of the server. */
import type { Role } from './roles.js';

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

/** Who changed a status: the client (`api`), a resume, the server (`system`), a person's Stop (`user`). */
export type StatusSource = 'api' | 'resume' | 'system' | 'user';

/** Who a request acts as: resolved from its API key. */
export interface Principal {
  orgId: number;
  orgSlug: string;
  userId: number;
  /** The request's key (or its session's); null for a user's session (signed in with a password). */
  keyId: number | null;
  /** When the request's key expires (a session acts as its key); null for never. */
  keyExpiresAt: number | null;
  /** What the request may do: its user's role, narrowed by its key's (domain/roles.ts). */
  role: Role;
  /** The key's own cap (a key it makes is capped the same unless asked narrower); null for none. */
  keyRole: Role | null;
  /**
   * The OAuth scopes of an access token (docs/api.md §18); null for a key or a session,
   * which may do all its role allows.
   */
  scopes: readonly string[] | null;
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
  /** The user who created it (its display name, else its user name); null for runs made before roles. */
  createdBy: { id: number; name: string } | null;
}

/**
 * What writing to a run needs of it (ingest, uploads, liveness): its ids, project and status,
 * without the JSON fields a full Run parses (a pluto run's system metadata can be many KB).
 */
export type RunTarget = Pick<Run, 'id' | 'orgId' | 'projectId' | 'projectName' | 'status'>;

/** The JSON fields of a run: read as stored JSON text by answers that may be large. */
export type RunJsonField = 'config' | 'systemMetadata' | 'loggerSettings' | 'statusMetadata';

/**
 * A run without its JSON fields, as bounded answers read it first: `configBytes` is the byte
 * length of its stored config text (0 when unset), `jsonBytes` that of all four JSON fields.
 */
export type RunHead = Omit<Run, RunJsonField> & { configBytes: number; jsonBytes: number };

/** A run's JSON fields as their stored JSON texts (valid JSON), null when unset. */
export type RunJsonTexts = Record<RunJsonField, string | null>;

export interface StatusEvent {
  id: number;
  runId: number;
  fromStatus: RunStatus | null;
  toStatus: RunStatus;
  source: StatusSource;
  metadata: unknown;
  createdAt: number;
  /** Who wrote it (user and key; keyId null for a password session); null for the server or older events. */
  actor: Actor | null;
}

/** Who made a change: the user and the key (null for a password session). */
export interface Actor {
  userId: number;
  keyId: number | null;
}

export interface Project {
  id: number;
  name: string;
  prefix: string;
  createdAt: number;
  updatedAt: number;
  runCount: number;
}

/** A saved view of a project's workspace; `state` is the JSON text the client stored. */
export interface SavedViewRecord {
  id: number;
  projectId: number;
  projectName: string;
  name: string;
  state: string;
  isDefault: boolean;
  /** The name of the user whose key created it; null when that user is gone. */
  createdBy: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A saved view to store: `state` is JSON text, already checked by the service. */
export interface NewSavedView {
  projectId: number;
  name: string;
  state: string;
  isDefault: boolean;
  createdBy: number;
  at: number;
}

/** The fields of a saved view to change; the rest stay. */
export interface SavedViewChange {
  name?: string;
  state?: string;
  isDefault?: boolean;
  at: number;
}

export interface ApiKeyRecord {
  id: number;
  orgId: number;
  orgSlug: string;
  userId: number;
  userName: string;
  /** True when the key's user is its organization's admin or owner. */
  userAdmin: boolean;
  /** The user's role in the key's organization; null when the user is no longer a member. */
  userRole: Role | null;
  /** The key's cap on its user's role; null: its user's role. */
  role: Role | null;
  name: string;
  prefix: string;
  keyHash: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/**
 * A dashboard sign-in session as stored: the hash of its token, never the token. A session
 * is a key's (signed in with an API key) or a user's in one organization (signed in with a
 * password, or switched there).
 */
export interface SessionRecord {
  tokenHash: string;
  /** The key that signed in; null for a user's session. */
  apiKeyId: number | null;
  /** The SHA-256 of the API key that signed in, to check that key like a Bearer key; null for a user's session. */
  keyHash: string | null;
  /** A user's session: the user, its organization and its role there now (null: no longer a member). */
  user: { userId: number; orgId: number; orgSlug: string; role: Role | null } | null;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
}

/** A user's account: who signs in by password (the hash only; never the password). */
export interface UserAccount {
  id: number;
  /** The organization the user was made in (a user may be a member of others too). */
  homeOrgId: number;
  name: string;
  email: string | null;
  displayName: string | null;
  passwordHash: string | null;
}

/** A user's membership: an organization and the role there. */
export interface Membership {
  orgId: number;
  orgSlug: string;
  role: Role;
}

/** A session as its user sees it in a list: never its token or whole hash. */
export interface SessionSummary {
  /** A short public id of the session (the first 16 hex digits of its token's hash). */
  id: string;
  /** The key that signed in (its name), or null for a password sign-in. */
  keyName: string | null;
  orgSlug: string;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
}

/** One link of a fork lineage: a run's own points are visible up to maxStep (inclusive). */
export interface LineageLink {
  runId: number;
  maxStep: number;
}

/** A key to store: its hash and display prefix, never the key. */
export interface NewApiKey {
  orgId: number;
  userId: number;
  name: string;
  prefix: string;
  keyHash: string;
  createdAt: number;
  expiresAt: number | null;
  /** A cap on the user's role; null or absent: none. */
  role?: Role | null;
}

/** A session to store: the hash of its token, never the token. */
export interface NewSession {
  tokenHash: string;
  /** The key that signs in; absent for a user's session. */
  apiKeyId?: number;
  /** A user's session: the user and the organization it acts in. */
  user?: { userId: number; orgId: number };
  createdAt: number;
  expiresAt: number;
}

/** An alert a run raises (POST /api/runs/alert). */
export interface AlertInput {
  level: string | null;
  title: string | null;
  body: string | null;
  payload: unknown;
  alertTime: number;
}

/** A stored alert of a run. */
export interface Alert extends AlertInput {
  id: number;
  runId: number;
  createdAt: number;
}

/** A run's model graph: its format and its nodes as sent. */
export interface ModelGraph {
  format: string;
  nodes: unknown;
}

/** One metric value to store; value may be NaN or ±Infinity. */
export interface MetricPointInput {
  logName: string;
  step: number;
  time: number;
  value: number;
}

/** A stored point. value is null for non-finite values, whose kind `flag` tells. */
export interface MetricPoint {
  step: number;
  time: number;
  value: number | null;
  flag: 'NaN' | 'Infinity' | '-Infinity' | null;
}

/** How far a series reaches: its point count, step and time bounds, and its last finite value. */
export interface SeriesExtent {
  lastStep: number | null;
  lastValue: number | null;
  points: number;
  firstStep: number | null;
  maxStep: number | null;
  firstTime: number | null;
  lastTime: number | null;
}

/** Summary of a run's (effective) series of one metric; finite values only in the moments. */
export interface SeriesSummary extends SeriesExtent {
  runId: number;
  logName: string;
  logGroup: string;
  count: number;
  mean: number;
  m2: number;
  min: number | null;
  max: number | null;
}

/** A console line of a run (logType: its level). */
export interface ConsoleLine {
  time: number;
  logType: string;
  lineNumber: number;
  message: string;
  step: number;
}

/** A data line of a run: a histogram, table or other structured value at a step. */
export interface DataLine {
  time: number;
  step: number;
  logName: string;
  dataType: string;
  data: string;
}

/** A file record to create, before its bytes arrive. */
export interface FileInput {
  logName: string;
  fileName: string;
  fileType: string;
  fileSize: number;
  step: number;
  sampleIndex: number;
  time: number;
  caption: string | null;
  /** Where the file's bytes go in the blob store. */
  blobKey: string;
}

/** A stored file record; uploadedAt is null until its bytes arrive. */
export interface FileRecord extends FileInput {
  id: number;
  runId: number;
  logGroup: string;
  uploadedAt: number | null;
}

/** A run in the trash: its head (no JSON fields) and when it was trashed. */
export type TrashedRun = Omit<Run, RunJsonField> & { deletedAt: number };

/** A run a trash write moved: its id and project (the series store hides or shows its series). */
export interface MovedRun {
  runId: number;
  projectId: number;
}

/** A purged run whose series-store rows and blobs are still to delete (keepSeries: a fork reads its series). */
export interface PurgeJob {
  runId: number;
  keepSeries: boolean;
}

/** A position in the trash's (deletedAt, id) order, for paging through it. */
export interface TrashKey {
  deletedAt: number;
  id: number;
}

/** A member of an organization as listed. */
export interface Member {
  userId: number;
  /** The display name (the user name for users made by the CLI). */
  name: string;
  email: string | null;
  role: Role;
  joinedAt: number;
}

/** An invitation to store: the hash of its token, never the token. */
export interface NewInvitation {
  tokenHash: string;
  orgId: number;
  email: string | null;
  role: Role;
  /** Set for a link that gives an existing user (the first owner) a password. */
  userId: number | null;
  invitedBy: number | null;
  createdAt: number;
  expiresAt: number;
}

/** An invitation as it is used up. */
export interface Invitation {
  orgId: number;
  email: string | null;
  role: Role;
  userId: number | null;
}

/** What an audit event records: who (user, key) did what to whom. */
export interface NewAuditEvent {
  orgId: number;
  at: number;
  actorUserId: number | null;
  actorKeyId: number | null;
  /** e.g. member.remove, member.role, run.delete. */
  action: string;
  /** What it was done to, e.g. user:12. */
  subject: string;
  detail: string | null;
}

/** An audit event as listed. */
export interface AuditEvent {
  id: number;
  at: number;
  actor: { userId: number | null; name: string | null; keyId: number | null };
  action: string;
  subject: string;
  detail: string | null;
}
