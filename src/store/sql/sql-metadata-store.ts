import type { Project, Run, StatusEvent } from '../../domain/types.js';
import { notFound } from '../../errors.js';
import type { CreateRunInput, MetadataStore, RunSearchQuery, StatusWrite } from '../metadata-store.js';
import type { SqlDb } from './sql-db.js';
import { SqlKeys } from './sql-keys.js';
import { SqlSessions } from './sql-sessions.js';
import { listProjects } from './sql-projects.js';
import { createRunInTx, findRunInTx } from './sql-run-create.js';
import { listStatusEvents, updateStatus } from './sql-run-status.js';
import { SqlRunUpdates } from './sql-run-updates.js';
import { searchRuns } from './sql-run-search.js';
import { failStaleRun, listStaleRuns, resumeStaleRun } from './sql-stale-runs.js';
import { RUN_COLUMNS, RUN_FROM, type RunRow, toRun } from './run-row.js';

/** MetadataStore over any SqlDb: one implementation for every SQL engine. */
export class SqlMetadataStore extends SqlRunUpdates implements MetadataStore {
  private readonly keys: SqlKeys;
  private readonly sessions: SqlSessions;

  constructor(private readonly sql: SqlDb) {
    super(sql);
    this.keys = new SqlKeys(sql);
    this.sessions = new SqlSessions(sql);
  }

  ensureOrganization = (slug: string, at: number) => this.keys.ensureOrganization(slug, at);
  ensureUser = (orgId: number, name: string, at: number) => this.keys.ensureUser(orgId, name, at);
  countOrganizations = () => this.keys.countOrganizations();
  createApiKey: MetadataStore['createApiKey'] = (k) => this.keys.createApiKey(k);
  findApiKeyByHash = (hash: string) => this.keys.findApiKeyByHash(hash);
  listApiKeys = (orgSlug?: string) => this.keys.listApiKeys(orgSlug);
  findApiKey = (orgId: number, id: number) => this.keys.findApiKey(orgId, id);
  revokeApiKey = (idOrHash: number | string, at: number) => this.keys.revokeApiKey(idOrHash, at);
  touchApiKey = (id: number, at: number) => this.keys.touchApiKey(id, at);
  getSecret = (name: string, make: () => string) => this.keys.getSecret(name, make);
  createSession: MetadataStore['createSession'] = (session) => this.sessions.createSession(session);
  findSession = (tokenHash: string) => this.sessions.findSession(tokenHash);
  touchSession = (tokenHash: string, at: number, expiresAt: number) =>
    this.sessions.touchSession(tokenHash, at, expiresAt);
  deleteSession = (tokenHash: string) => this.sessions.deleteSession(tokenHash);

  listProjects(orgId: number): Promise<Project[]> {
    return listProjects(this.sql, orgId);
  }

  async findProject(orgId: number, name: string): Promise<Project | undefined> {
    return (await listProjects(this.sql, orgId, name))[0];
  }

  async listForkedRunIds(projectId: number): Promise<number[]> {
    const rows = await this.sql.all<{ id: number }>(
      'SELECT id FROM runs WHERE project_id = ? AND forked_from_run_id IS NOT NULL ORDER BY id',
      [projectId],
    );
    return rows.map((r) => Number(r.id));
  }

  createRun(input: CreateRunInput): Promise<{ run: Run; resumed: boolean }> {
    return this.sql.transaction((tx) => createRunInTx(tx, this.sql.dialect.forUpdate, input));
  }

  async getRun(orgId: number, runId: number): Promise<Run> {
    const run = await this.findRun(orgId, runId);
    if (!run) throw notFound(`run ${runId} not found`);
    return run;
  }

  findRun(orgId: number, runId: number): Promise<Run | undefined> {
    return findRunInTx(this.sql, orgId, runId);
  }

  async listRunsByIds(orgId: number, runIds: readonly number[]): Promise<Run[]> {
    if (runIds.length === 0) return [];
    const marks = runIds.map(() => '?').join(', ');
    const rows = await this.sql.all<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE r.org_id = ? AND r.id IN (${marks})`,
      [orgId, ...runIds],
    );
    const byId = new Map(rows.map((r) => [Number(r.id), toRun(r)]));
    return runIds.flatMap((id) => byId.get(id) ?? []);
  }

  async listProjectRuns(orgId: number, projectName: string, limit: number, offset: number): Promise<Run[]> {
    const rows = await this.sql.all<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE p.org_id = ? AND p.name = ? ORDER BY r.id DESC LIMIT ? OFFSET ?`,
      [orgId, projectName, limit, offset],
    );
    return rows.map(toRun);
  }

  searchRuns(q: RunSearchQuery): Promise<{ ids: number[]; total: number }> {
    return searchRuns(this.sql, q);
  }

  async findRunByDisplayId(
    orgId: number,
    prefix: string,
    number: number,
    projectName?: string,
  ): Promise<Run | undefined> {
    const row = await this.sql.get<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE p.org_id = ? AND p.prefix = ? AND r.number = ?`,
      [orgId, prefix, number],
    );
    if (!row || (projectName !== undefined && row.project_name !== projectName)) return undefined;
    return toRun(row);
  }

  async findRunByExternalId(orgId: number, projectName: string, externalId: string): Promise<Run | undefined> {
    const row = await this.sql.get<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE p.org_id = ? AND p.name = ? AND r.external_id = ?`,
      [orgId, projectName, externalId],
    );
    return row && toRun(row);
  }

  updateStatus(orgId: number, runId: number, write: StatusWrite): Promise<Run> {
    return updateStatus(this.sql, orgId, runId, write);
  }

  listStatusEvents(orgId: number, runId: number): Promise<StatusEvent[]> {
    return listStatusEvents(this.sql, orgId, runId);
  }

  listStaleRuns = (before: number, limit: number) => listStaleRuns(this.sql, before, limit);
  failStaleRun = (runId: number, before: number, metadata: unknown, at: number) =>
    failStaleRun(this.sql, runId, before, metadata, at);
  resumeStaleRun = (orgId: number, runId: number, at: number) => resumeStaleRun(this.sql, orgId, runId, at);

  close(): Promise<void> {
    return this.sql.close();
  }
}
