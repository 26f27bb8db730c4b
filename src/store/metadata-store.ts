import type { Role } from '../domain/roles.js';
import type {
  Alert,
  AlertInput,
  Actor,
  ApiKeyRecord,
  AuditEvent,
  Invitation,
  Member,
  Membership,
  NewAuditEvent,
  NewInvitation,
  SessionSummary,
  UserAccount,
  ModelGraph,
  NewApiKey,
  NewSession,
  NewSavedView,
  SavedViewChange,
  SavedViewRecord,
  LineageLink,
  LogNameEntry,
  MovedRun,
  PurgeJob,
  SessionRecord,
  TrashedRun,
  TrashKey,
  Project,
  Run,
  RunHead,
  RunJsonTexts,
  RunTarget,
  RunStatus,
  StatusEvent,
  StatusSource,
} from '../domain/types.js';
import type { FilterNode, SearchSort } from '../domain/run-search.js';

/** A JSON path into a run's config or system metadata. */
export interface JsonPick {
  field: 'config' | 'systemMetadata';
  path: readonly string[];
}

/** A run's values to group by (MetadataStore.listGroupValues). */
export interface GroupValueRow {
  runId: number;
  status: string;
  tags: string[];
  forkedFromRunId: number | null;
  /** The JSON text at each pick's path, null when missing. */
  texts: (string | null)[];
}

export interface CreateRunInput {
  orgId: number;
  projectName: string;
  name: string;
  externalId: string | null;
  tags: string[];
  /** Config of a new run (already merged with a fork parent's when inherited). */
  config: unknown;
  /** Config deep-merged into an existing run when externalId resumes it. */
  configPatch: unknown;
  systemMetadata: unknown;
  loggerSettings: unknown;
  createdAt: number;
  updatedAt: number;
  fork: { parentId: number; forkStep: number } | null;
  /** Who creates it (recorded on a new run and its first status event). */
  actor?: Actor;
}

/** A run by id, or by display id prefix and number. */
export type RunHeadRef = { runId: number } | { prefix: string; number: number };

export interface StatusWrite {
  status: RunStatus;
  /** undefined keeps, null clears, a value replaces. */
  statusMetadata: unknown;
  /** undefined or null keeps; an object is deep-merged into the stored settings. */
  loggerSettings: unknown;
  source: StatusSource;
  at: number;
  /** Who writes it; absent for the server itself. */
  actor?: Actor;
}

/** A run search as the metadata store runs it: metric conditions already resolved to run ids. */
export interface RunSearchQuery {
  orgId: number;
  projectId: number;
  filter: FilterNode | undefined;
  /** A substring of the name, ASCII letters already lower case (matched ASCII case-insensitively). */
  nameContains: string | undefined;
  /** A page in this order; undefined asks for every matching id in ascending id order. */
  page: { sort: SearchSort; limit: number; offset: number } | undefined;
}

/** One limited kind of attempt (sign-in-account, sign-in-address, registration) and its key's sha256. */
export interface AttemptKey {
  kind: string;
  key: string;
}

/** How countAttempts counts: at `now`, new windows of `windowMs`, counts capped, rows of a kind bounded. */
export interface AttemptCounting {
  now: number;
  windowMs: number;
  cap: number;
  maxKeys: number;
}

/** A key's attempts in its current window, which ends at `windowEnd` (ms). */
export interface AttemptCount extends AttemptKey {
  windowEnd: number;
  count: number;
}

/**
 * Organizations, users, keys, projects, runs and what hangs off a run. Every run-level
 * method takes the caller's orgId and treats another organization's run as missing:
 * `getRun*` throws NOT_FOUND, `find*` returns undefined, `list*` returns [].
 */
export interface MetadataStore {
  /** Organization by slug, created when missing; returns its id. */
  ensureOrganization(slug: string, at: number): Promise<number>;
  /** User by name in an organization, created when missing (a member of it); returns its id. */
  ensureUser(orgId: number, name: string, at: number): Promise<number>;
  /** Marks a user its organization's admin (role owner), or not (role member). */
  setUserAdmin(userId: number, admin: boolean): Promise<void>;
  /** Gives a user this role in an organization, making it a member when it is not. */
  setMemberRole(orgId: number, userId: number, role: Role, at: number): Promise<void>;
  /** Number of organizations (0 on a fresh store). */
  countOrganizations(): Promise<number>;
  /** Stores a key (its hash only); returns the key's id. */
  createApiKey(key: NewApiKey): Promise<number>;
  /** The key with this SHA-256 hash (hex), revoked or expired ones included. */
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Keys, oldest first, optionally of one organization. */
  listApiKeys(orgSlug?: string): Promise<ApiKeyRecord[]>;
  /** The organization's key with this id (revoked or expired included); undefined for another organization's. */
  findApiKey(orgId: number, id: number): Promise<ApiKeyRecord | undefined>;
  /** Marks a key (by id or hash) revoked; returns false when there is no such key. */
  revokeApiKey(idOrHash: number | string, at: number): Promise<boolean>;
  /** Records that a key was used at `at`. */
  touchApiKey(id: number, at: number): Promise<void>;
  /**
   * Stores a dashboard session (its token's hash only), deletes sessions expired before its
   * creation, and ends the key's oldest sessions (by creation) so that at most `maxPerKey` remain.
   */
  createSession(session: NewSession, maxPerKey: number): Promise<void>;
  /** The session with this token hash with its key's hash, expired ones included (until deleted). */
  findSession(tokenHash: string): Promise<SessionRecord | undefined>;
  /** Records a session's use at `at` and moves its end to `expiresAt`. */
  touchSession(tokenHash: string, at: number, expiresAt: number): Promise<void>;
  /** Deletes a session; returns false when there was none. */
  deleteSession(tokenHash: string): Promise<boolean>;
  /** The unexpired sessions of a user and of its keys, newest first (at most 200). */
  listUserSessions(userId: number, now: number): Promise<SessionSummary[]>;
  /**
   * Ends the user's (or its keys') session with public id `id`, or with no id all the
   * user's password sessions but the one whose token hash is `except`; returns how many ended.
   */
  deleteUserSessions(userId: number, o: { id?: string; except?: string }): Promise<number>;

  /** The user with this email (stored lower case), or undefined. */
  findUserByEmail(email: string): Promise<UserAccount | undefined>;
  /** The user with this id, or undefined. */
  findUser(userId: number): Promise<UserAccount | undefined>;
  /** Creates a user with an account as a member of `orgId` with `role` (no password: SSO only); CONFLICT-free only for a new email. */
  createAccount(a: {
    orgId: number;
    email: string;
    displayName: string;
    passwordHash: string | null;
    role: Role;
    at: number;
  }): Promise<number>;
  /** Changes a user's email, display name or password hash (fields left out stay). */
  updateAccount(userId: number, change: { email?: string; displayName?: string; passwordHash?: string }): Promise<void>;
  /** The user's memberships, by organization slug (at most 1,000). */
  listMemberships(userId: number): Promise<Membership[]>;
  /** The user's role in the organization, or undefined when it is no member. */
  findMemberRole(orgId: number, userId: number): Promise<Role | undefined>;
  /** The organization's members, oldest first (at most 1,000). */
  listMembers(orgId: number): Promise<Member[]>;
  /** How many owners the organization has. */
  countOwners(orgId: number): Promise<number>;
  /**
   * Removes a user from an organization in one transaction: its membership, its keys there
   * (revoked) and its sessions there (deleted). Returns false when it was no member.
   */
  removeMember(orgId: number, userId: number, at: number): Promise<boolean>;
  /** Stores an invitation (its token's hash only). */
  createInvitation(invitation: NewInvitation): Promise<void>;
  /** The invitation with this token hash when it is unused and unexpired at `at`; else undefined. */
  findInvitation(tokenHash: string, at: number): Promise<Invitation | undefined>;
  /**
   * Marks the invitation with this token hash used at `at` and returns it, when it exists,
   * is unused and unexpired at `at` (at most one caller ever gets it); else undefined.
   */
  useInvitation(tokenHash: string, at: number): Promise<Invitation | undefined>;
  /** Appends an event to the organization's audit log. */
  addAuditEvent(event: NewAuditEvent): Promise<void>;
  /** The organization's audit events before id `beforeId` (all when undefined), newest first, at most `limit`. */
  listAuditEvents(orgId: number, o: { beforeId?: number; limit: number }): Promise<AuditEvent[]>;

  /** Projects of an organization, newest first, with run counts. */
  listProjects(orgId: number): Promise<Project[]>;
  /** The organization's project of this name, or undefined. */
  findProject(orgId: number, name: string): Promise<Project | undefined>;
  /** The id of the organization's project of this name, or undefined (without findProject's run aggregates). */
  findProjectId(orgId: number, name: string): Promise<number | undefined>;
  /** Ids of a project's runs that are forks (their series are not their own summaries). */
  listForkedRunIds(projectId: number): Promise<number[]>;

  /**
   * Creates a run (and its project when missing), or returns the run with the same
   * externalId in that project with resumed true (resuming it when finished). Concurrent
   * calls with one externalId create exactly one run.
   */
  createRun(input: CreateRunInput): Promise<{ run: Run; resumed: boolean }>;
  /** The run, or throws NOT_FOUND. */
  getRun(orgId: number, runId: number): Promise<Run>;
  /** The ids, project and status of a run (RunTarget), or throws NOT_FOUND. */
  getRunTarget(orgId: number, runId: number): Promise<RunTarget>;
  /** The run, or undefined. */
  findRun(orgId: number, runId: number): Promise<Run | undefined>;
  /** Runs by id, in the order asked, skipping unknown ones. */
  listRunsByIds(orgId: number, runIds: readonly number[]): Promise<Run[]>;
  /** Runs by id without their JSON fields (with those fields' byte lengths), in the order asked, skipping unknown ones. */
  listRunHeads(orgId: number, runIds: readonly number[]): Promise<RunHead[]>;
  /** The run by id or display id, without its JSON fields, or undefined. */
  findRunHead(orgId: number, ref: RunHeadRef): Promise<RunHead | undefined>;
  /**
   * The stored config JSON text of each run by id (null when unset; unknown runs left out), or
   * with `paths` only the values at those key paths, extracted by the database: the JSON text
   * of an object holding them nested as in the config (missing ones left out). Paths must not
   * hold `"` or `\` (domain/config-keys.ts refuses them).
   */
  listConfigTexts(
    orgId: number,
    runIds: readonly number[],
    paths?: readonly string[][],
  ): Promise<Map<number, string | null>>;
  /**
   * For each run by id (unknown runs left out, any order): its status, tags, fork parent and
   * the JSON text of the value at each pick's path (null when missing), extracted by the
   * database off the event loop under the query deadline (QUERY_TIMEOUT, OVERLOADED). Paths
   * must not hold `"` or `\\` (domain/group-by.ts refuses them).
   */
  listGroupValues(orgId: number, runIds: readonly number[], picks: readonly JsonPick[]): Promise<GroupValueRow[]>;
  /** The run's four JSON fields as stored JSON texts, or undefined for an unknown run. */
  findRunJsonTexts(orgId: number, runId: number): Promise<RunJsonTexts | undefined>;
  /** Runs of a project, newest (highest id) first, paged. */
  listProjectRuns(orgId: number, projectName: string, limit: number, offset: number): Promise<Run[]>;
  /**
   * Ids of the project's runs (of this organization) matching the search, and how many
   * match: a page in the search's sort order (ties by id), or all of them by id.
   */
  searchRuns(q: RunSearchQuery): Promise<{ ids: number[]; total: number }>;
  /** The run with this display id prefix and number, optionally in a named project. */
  findRunByDisplayId(orgId: number, prefix: string, number: number, projectName?: string): Promise<Run | undefined>;
  /** The run with this externalId in the named project. */
  findRunByExternalId(orgId: number, projectName: string, externalId: string): Promise<Run | undefined>;
  /**
   * Applies a status write under a row lock with the precedence and no-op rules of
   * domain/status-rules; returns the run after it. Throws NOT_FOUND.
   */
  updateStatus(orgId: number, runId: number, write: StatusWrite): Promise<Run>;
  /** The run's status events, oldest first. Throws NOT_FOUND. */
  listStatusEvents(orgId: number, runId: number): Promise<StatusEvent[]>;
  /** Replaces notes (null clears). Throws NOT_FOUND. */
  updateNotes(orgId: number, runId: number, notes: string | null, at: number): Promise<void>;
  /** Deep-merges a config object into the run's. Throws NOT_FOUND. */
  updateConfig(orgId: number, runId: number, patch: Record<string, unknown>, at: number): Promise<void>;
  /** Replaces all tags. Throws NOT_FOUND. */
  updateTags(orgId: number, runId: number, tags: string[], at: number): Promise<void>;
  /**
   * Registers log names; names already present keep their type. Throws NOT_FOUND, and
   * BAD_REQUEST (storing none of them) when the run would have more than `maxNames` (undefined: no cap).
   */
  addLogNames(
    orgId: number,
    runId: number,
    entries: readonly LogNameEntry[],
    at: number,
    maxNames?: number,
  ): Promise<void>;
  /** The run's log names, sorted by name. */
  listLogNames(runId: number): Promise<LogNameEntry[]>;
  /** How many log names the run has, and the bytes of their names, groups and types. */
  logNameStats(runId: number): Promise<{ count: number; bytes: number }>;
  /** Replaces the run's model graph. Throws NOT_FOUND. */
  setModelGraph(orgId: number, runId: number, graph: ModelGraph, at: number): Promise<void>;
  /** The run's model graph or undefined. Throws NOT_FOUND for the run. */
  findModelGraph(orgId: number, runId: number): Promise<ModelGraph | undefined>;
  /**
   * The run's fork lineage, the run itself first: each link's points are visible up to
   * its maxStep (Infinity for the run itself). At most `depth` links.
   */
  getLineage(orgId: number, runId: number, depth: number): Promise<LineageLink[]>;
  /** Records client liveness (heartbeat or ingest) for the stale-run rule. */
  touchRun(runId: number, at: number): Promise<void>;
  /**
   * RUNNING runs of every organization with no liveness, creation or status change since
   * before `before`, the longest silent first, at most `limit`. Reads an index, not all runs.
   */
  listStaleRuns(before: number, limit: number): Promise<{ runId: number; lastSeenAt: number }[]>;
  /**
   * Marks the run FAILED with source `system` and `metadata` as statusMetadata and event
   * metadata, only if it is still RUNNING and silent since before `before` (one conditional
   * write, safe with several servers sweeping at once). Returns whether it did.
   */
  failStaleRun(runId: number, before: number, metadata: unknown, at: number): Promise<boolean>;
  /**
   * Puts a run whose last event is a `system` FAILED back to RUNNING with a `resume` event
   * and clears its statusMetadata; returns whether it did (false for any other run).
   */
  resumeStaleRun(orgId: number, runId: number, at: number): Promise<boolean>;
  /** Stores an alert for a run. Throws NOT_FOUND. */
  createAlert(orgId: number, runId: number, alert: AlertInput, at: number): Promise<void>;
  /** A run's alerts, oldest first. Throws NOT_FOUND for another organization's run. */
  listAlerts(orgId: number, runId: number): Promise<Alert[]>;
  /** A project's saved views, default first then by name, without their state (`state` is ''). */
  listSavedViews(projectId: number): Promise<SavedViewRecord[]>;
  /** A saved view with its state, when it belongs to a project of the organization. */
  findSavedView(orgId: number, viewId: number): Promise<SavedViewRecord | undefined>;
  /** How many saved views a project holds. */
  countSavedViews(projectId: number): Promise<number>;
  /**
   * Stores a saved view (clearing the project's other default when it is one); returns its
   * id. Throws CONFLICT when the project has a view of that name.
   */
  createSavedView(view: NewSavedView): Promise<number>;
  /**
   * Changes a saved view of the organization; false when there is none. Throws CONFLICT when
   * renamed to a name its project already has.
   */
  updateSavedView(orgId: number, viewId: number, change: SavedViewChange): Promise<boolean>;
  /** Deletes a saved view of the organization; false when there is none. */
  deleteSavedView(orgId: number, viewId: number): Promise<boolean>;
  /**
   * Moves live runs of the organization to the trash at `at` in one transaction; NOT_FOUND,
   * changing nothing, when one is unknown, foreign or trashed already. Returns the runs moved.
   */
  trashRuns(orgId: number, runIds: readonly number[], at: number): Promise<MovedRun[]>;
  /**
   * Brings trashed, unpurged runs back as they were (and their projects, when trashed);
   * NOT_FOUND, changing nothing, when one is not in the trash. Returns the runs restored.
   */
  restoreRuns(orgId: number, runIds: readonly number[]): Promise<MovedRun[]>;
  /** Moves a live project and its live runs to the trash; NOT_FOUND when there is none. Returns the runs moved. */
  trashProject(orgId: number, name: string, at: number): Promise<MovedRun[]>;
  /** A page of the project's trashed, unpurged runs, the latest trashed first. */
  listTrash(orgId: number, projectName: string, limit: number, offset: number): Promise<TrashedRun[]>;
  /**
   * Trashed runs (purged ones kept for forks included) of every organization trashed at or
   * after `since`, in (deletedAt, id) order after `after`, at most `limit`.
   */
  listTrashedSince(since: number, after: TrashKey | null, limit: number): Promise<TrashKey[]>;
  /** Those of `runIds` (any organization's) whose runs exist and are not in the trash, ascending. */
  listUntrashedIds(runIds: readonly number[]): Promise<number[]>;
  /** Who created each of the organization's unpurged runs among `runIds`, trashed or not (null: unrecorded). */
  listRunCreators(orgId: number, runIds: readonly number[]): Promise<Map<number, number | null>>;
  /** Those of `runIds` that are the organization's trashed, unpurged runs, ascending. */
  listTrashedIds(orgId: number, runIds: readonly number[]): Promise<number[]>;
  /** Trashed, unpurged runs of every organization trashed before `before`, oldest first, at most `limit`. */
  listExpiredTrash(before: number, limit: number): Promise<{ orgId: number; runId: number }[]>;
  /**
   * Purges one trashed run (of the organization; any when orgId is null) in one transaction,
   * queueing what the series and blob stores still hold (purge_queue): a run with forks is
   * kept, marked purged, for their reads; a parent kept so goes with its last fork. NOT_FOUND
   * when the run is not in the trash. Returns the jobs queued.
   */
  purgeRun(orgId: number | null, runId: number, at: number): Promise<PurgeJob[]>;
  /** Queued purge jobs, oldest first, at most `limit`. */
  listPurgeQueue(limit: number): Promise<PurgeJob[]>;
  /** Removes a purge job once the series and blob stores hold nothing more of its run. */
  finishPurgeJob(job: PurgeJob): Promise<void>;
  /**
   * Renames a live project (id, prefix, runs and views stay; the old name keeps finding it
   * through findRenamedProject). NOT_FOUND; CONFLICT when the new name is taken.
   */
  renameProject(orgId: number, name: string, newName: string, at: number): Promise<void>;
  /** The current name of the live project once named `oldName`, or undefined. */
  findRenamedProject(orgId: number, oldName: string): Promise<string | undefined>;
  /** Renames a live run. Throws NOT_FOUND. */
  renameRun(orgId: number, runId: number, name: string, at: number): Promise<void>;
  /** Sets (null clears) a live project's retention in days. Throws NOT_FOUND. */
  setProjectRetention(orgId: number, name: string, retentionDays: number | null): Promise<void>;
  /** A live project's retention in days, or null. Throws NOT_FOUND. */
  getProjectRetention(orgId: number, name: string): Promise<number | null>;
  /** Finished live runs past their project's retention at `now` (every organization), oldest first, at most `limit`. */
  listRetentionExpired(now: number, limit: number): Promise<{ orgId: number; runId: number }[]>;
  /** Gives the space of deleted rows back to the file system where the engine keeps it (SqlDb.reclaimSpace). */
  reclaimSpace(): Promise<void>;
  /**
   * Counts an attempt of each key in one statement, shared by every server on the database
   * (auth/sign-in-limiter.ts): in the key's window, or a new one when it ended. A count past
   * `cap` stays at cap + 1 (refused attempts cost no growth); a new key is counted only while
   * its kind has fewer than `maxKeys` rows, else left out of the answer. Returns each counted
   * key's count and window end after this attempt.
   */
  countAttempts(keys: readonly AttemptKey[], counting: AttemptCounting): Promise<AttemptCount[]>;
  /** The counts of these keys in windows not ended at `now` (a key without one is absent). */
  findAttempts(keys: readonly AttemptKey[], now: number): Promise<AttemptCount[]>;
  /** Forgets a key's attempts. */
  clearAttempts(key: AttemptKey): Promise<void>;
  /** Deletes the counts whose window ended by `now`; returns how many went. */
  sweepAttempts(now: number): Promise<number>;
  /** A named installation secret, created from `make()` the first time it is asked for. */
  getSecret(name: string, make: () => string): Promise<string>;
  /** Closes the store. */
  close(): Promise<void>;
}
