import type {
  ApiKeyRecord,
  LineageLink,
  LogNameEntry,
  Project,
  Run,
  RunHead,
  RunJsonTexts,
  RunTarget,
  SessionRecord,
  StatusEvent,
  Alert,
  AlertInput,
  ModelGraph,
  NewApiKey,
  NewSession,
} from '../../domain/types.js';
import { notFound } from '../../errors.js';
import type { CreateRunInput, MetadataStore, RunHeadRef, RunSearchQuery, StatusWrite } from '../metadata-store.js';
import { findRunHead, findRunJsonTexts, listConfigTexts, listRunHeads } from './runs/run-texts.js';
import type { SqlDb } from './db.js';
import {
  ensureOrganization,
  ensureUser,
  setUserAdmin,
  countOrganizations,
  createApiKey,
  findApiKeyByHash,
  listApiKeys,
  findApiKey,
  revokeApiKey,
  touchApiKey,
  getSecret,
} from './auth/keys.js';
import { createSession, findSession, touchSession, deleteSession } from './auth/sessions.js';
import { listProjects } from './runs/projects.js';
import { createRunInTx, findRunInTx } from './runs/run-create.js';
import {
  findRunByDisplayId,
  findRunByExternalId,
  findRunTarget,
  listForkedRunIds,
  listProjectRuns,
  listRunsByIds,
} from './runs/run-read.js';
import { listStatusEvents, updateStatus } from './runs/run-status.js';
import {
  updateNotes,
  updateConfig,
  updateTags,
  addLogNames,
  listLogNames,
  logNameStats,
  setModelGraph,
  findModelGraph,
  getLineage,
  touchRun,
  createAlert,
  listAlerts,
} from './runs/run-updates.js';
import { searchRuns } from './runs/run-search.js';
import { failStaleRun, listStaleRuns, resumeStaleRun } from './runs/stale-runs.js';

/**
 * MetadataStore over any SqlDb: one implementation for every SQL engine. Each method forwards
 * to one function of a module in this folder (README.md maps them); its rules are documented
 * on the MetadataStore interface and its workings on that function.
 */
export class SqlMetadataStore implements MetadataStore {
  constructor(private readonly sql: SqlDb) {}

  ensureOrganization(slug: string, at: number): Promise<number> {
    return ensureOrganization(this.sql, slug, at);
  }

  ensureUser(orgId: number, name: string, at: number): Promise<number> {
    return ensureUser(this.sql, orgId, name, at);
  }

  setUserAdmin(userId: number, admin: boolean): Promise<void> {
    return setUserAdmin(this.sql, userId, admin);
  }

  countOrganizations(): Promise<number> {
    return countOrganizations(this.sql);
  }

  createApiKey(k: NewApiKey): Promise<number> {
    return createApiKey(this.sql, k);
  }

  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return findApiKeyByHash(this.sql, hash);
  }

  listApiKeys(orgSlug?: string): Promise<ApiKeyRecord[]> {
    return listApiKeys(this.sql, orgSlug);
  }

  findApiKey(orgId: number, id: number): Promise<ApiKeyRecord | undefined> {
    return findApiKey(this.sql, orgId, id);
  }

  revokeApiKey(idOrHash: number | string, at: number): Promise<boolean> {
    return revokeApiKey(this.sql, idOrHash, at);
  }

  touchApiKey(id: number, at: number): Promise<void> {
    return touchApiKey(this.sql, id, at);
  }

  getSecret(name: string, make: () => string): Promise<string> {
    return getSecret(this.sql, name, make);
  }

  createSession(s: NewSession, maxPerKey: number): Promise<void> {
    return createSession(this.sql, s, maxPerKey);
  }

  findSession(tokenHash: string): Promise<SessionRecord | undefined> {
    return findSession(this.sql, tokenHash);
  }

  touchSession(tokenHash: string, at: number, expiresAt: number): Promise<void> {
    return touchSession(this.sql, tokenHash, at, expiresAt);
  }

  deleteSession(tokenHash: string): Promise<boolean> {
    return deleteSession(this.sql, tokenHash);
  }

  updateNotes(orgId: number, runId: number, notes: string | null, at: number): Promise<void> {
    return updateNotes(this.sql, orgId, runId, notes, at);
  }

  updateConfig(orgId: number, runId: number, patch: Record<string, unknown>, at: number): Promise<void> {
    return updateConfig(this.sql, orgId, runId, patch, at);
  }

  updateTags(orgId: number, runId: number, tags: string[], at: number): Promise<void> {
    return updateTags(this.sql, orgId, runId, tags, at);
  }

  addLogNames(
    orgId: number,
    runId: number,
    entries: readonly LogNameEntry[],
    at: number,
    maxNames?: number,
  ): Promise<void> {
    return addLogNames(this.sql, orgId, runId, entries, at, maxNames);
  }

  listLogNames(runId: number): Promise<LogNameEntry[]> {
    return listLogNames(this.sql, runId);
  }

  logNameStats(runId: number): Promise<{ count: number; bytes: number }> {
    return logNameStats(this.sql, runId);
  }

  setModelGraph(orgId: number, runId: number, graph: ModelGraph, at: number): Promise<void> {
    return setModelGraph(this.sql, orgId, runId, graph, at);
  }

  findModelGraph(orgId: number, runId: number): Promise<ModelGraph | undefined> {
    return findModelGraph(this.sql, orgId, runId);
  }

  getLineage(orgId: number, runId: number, depth: number): Promise<LineageLink[]> {
    return getLineage(this.sql, orgId, runId, depth);
  }

  touchRun(runId: number, at: number): Promise<void> {
    return touchRun(this.sql, runId, at);
  }

  createAlert(orgId: number, runId: number, a: AlertInput, at: number): Promise<void> {
    return createAlert(this.sql, orgId, runId, a, at);
  }

  listAlerts(orgId: number, runId: number): Promise<Alert[]> {
    return listAlerts(this.sql, orgId, runId);
  }

  listProjects(orgId: number): Promise<Project[]> {
    return listProjects(this.sql, orgId);
  }

  findProject(orgId: number, name: string): Promise<Project | undefined> {
    return listProjects(this.sql, orgId, name).then((found) => found[0]);
  }

  listForkedRunIds(projectId: number): Promise<number[]> {
    return listForkedRunIds(this.sql, projectId);
  }

  createRun(input: CreateRunInput): Promise<{ run: Run; resumed: boolean }> {
    return this.sql.transaction((tx) => createRunInTx(tx, this.sql.dialect.forUpdate, input));
  }

  findRun(orgId: number, runId: number): Promise<Run | undefined> {
    return findRunInTx(this.sql, orgId, runId);
  }

  listRunsByIds(orgId: number, runIds: readonly number[]): Promise<Run[]> {
    return listRunsByIds(this.sql, orgId, runIds);
  }

  listRunHeads(orgId: number, runIds: readonly number[]): Promise<RunHead[]> {
    return listRunHeads(this.sql, orgId, runIds);
  }

  findRunHead(orgId: number, ref: RunHeadRef): Promise<RunHead | undefined> {
    return findRunHead(this.sql, orgId, ref);
  }

  listConfigTexts(
    orgId: number,
    runIds: readonly number[],
    paths?: readonly string[][],
  ): Promise<Map<number, string | null>> {
    return listConfigTexts(this.sql, orgId, runIds, paths);
  }

  findRunJsonTexts(orgId: number, runId: number): Promise<RunJsonTexts | undefined> {
    return findRunJsonTexts(this.sql, orgId, runId);
  }

  listProjectRuns(orgId: number, projectName: string, limit: number, offset: number): Promise<Run[]> {
    return listProjectRuns(this.sql, orgId, projectName, limit, offset);
  }

  searchRuns(q: RunSearchQuery): Promise<{ ids: number[]; total: number }> {
    return searchRuns(this.sql, q);
  }

  findRunByDisplayId(orgId: number, prefix: string, number: number, projectName?: string): Promise<Run | undefined> {
    return findRunByDisplayId(this.sql, orgId, prefix, number, projectName);
  }

  findRunByExternalId(orgId: number, projectName: string, externalId: string): Promise<Run | undefined> {
    return findRunByExternalId(this.sql, orgId, projectName, externalId);
  }

  updateStatus(orgId: number, runId: number, write: StatusWrite): Promise<Run> {
    return updateStatus(this.sql, orgId, runId, write);
  }

  listStatusEvents(orgId: number, runId: number): Promise<StatusEvent[]> {
    return listStatusEvents(this.sql, orgId, runId);
  }

  listStaleRuns(before: number, limit: number): Promise<{ runId: number; lastSeenAt: number }[]> {
    return listStaleRuns(this.sql, before, limit);
  }

  failStaleRun(runId: number, before: number, metadata: unknown, at: number): Promise<boolean> {
    return failStaleRun(this.sql, runId, before, metadata, at);
  }

  resumeStaleRun(orgId: number, runId: number, at: number): Promise<boolean> {
    return resumeStaleRun(this.sql, orgId, runId, at);
  }

  async getRun(orgId: number, runId: number): Promise<Run> {
    const run = await this.findRun(orgId, runId);
    if (!run) throw notFound(`run ${runId} not found`);
    return run;
  }

  async getRunTarget(orgId: number, runId: number): Promise<RunTarget> {
    const target = await findRunTarget(this.sql, orgId, runId);
    if (!target) throw notFound(`run ${runId} not found`);
    return target;
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
