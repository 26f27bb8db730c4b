import type { MetadataStore } from '../metadata-store.js';
import { findRunHead, findRunJsonTexts, listConfigTexts, listRunHeads } from './runs/run-texts.js';
import { bindStore, storeClass } from './bind-store.js';
import { listGroupValues } from './runs/run-group-values.js';
import type { SqlDb } from './db.js';
import {
  ensureOrganization,
  ensureUser,
  setUserAdmin,
  setMemberRole,
  countOrganizations,
  createApiKey,
  findApiKeyByHash,
  listApiKeys,
  findApiKey,
  revokeApiKey,
  touchApiKey,
  getSecret,
} from './auth/keys.js';
import {
  createSession,
  findSession,
  touchSession,
  deleteSession,
  listUserSessions,
  deleteUserSessions,
} from './auth/sessions.js';
import {
  findUserByEmail,
  findUser,
  createAccount,
  updateAccount,
  listMemberships,
  findMemberRole,
} from './auth/users.js';
import {
  listMembers,
  countOwners,
  removeMember,
  createInvitation,
  findInvitation,
  useInvitation,
  addAuditEvent,
  listAuditEvents,
} from './auth/members.js';
import { findProject, findProjectId, listProjects } from './runs/projects.js';
import { createRun, findRunInTx } from './runs/run-create.js';
import {
  findRunByDisplayId,
  findRunByExternalId,
  getRun,
  getRunTarget,
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
import {
  listTrash,
  listRunCreators,
  listTrashedIds,
  listTrashedSince,
  listExpiredTrash,
  restoreRuns,
  trashProject,
  trashRuns,
} from './trash/run-trash.js';
import { finishPurgeJob, listPurgeQueue, purgeRun } from './trash/run-purge.js';
import {
  findRenamedProject,
  getProjectRetention,
  listRetentionExpired,
  renameProject,
  renameRun,
  setProjectRetention,
} from './trash/project-admin.js';
import { failStaleRun, listStaleRuns, resumeStaleRun } from './runs/stale-runs.js';

import {
  listSavedViews,
  findSavedView,
  countSavedViews,
  createSavedView,
  updateSavedView,
  deleteSavedView,
} from './views/saved-views.js';

/**
 * MetadataStore over any SqlDb: one implementation for every SQL engine. Each method is the
 * function of the same name (README.md maps the folders), called with the database first;
 * its rules are documented on the MetadataStore interface and its workings on the function.
 */
export const SqlMetadataStore = storeClass((db: SqlDb): MetadataStore =>
  bindStore<MetadataStore>(db, {
    ensureOrganization,
    ensureUser,
    setUserAdmin,
    setMemberRole,
    countOrganizations,
    createApiKey,
    findApiKeyByHash,
    listApiKeys,
    findApiKey,
    revokeApiKey,
    touchApiKey,
    getSecret,
    createSession,
    findSession,
    touchSession,
    deleteSession,
    listUserSessions,
    deleteUserSessions,
    findUserByEmail,
    findUser,
    createAccount,
    updateAccount,
    listMemberships,
    findMemberRole,
    listMembers,
    countOwners,
    removeMember,
    createInvitation,
    findInvitation,
    useInvitation,
    addAuditEvent,
    listAuditEvents,
    listProjects,
    findProject,
    findProjectId,
    createRun,
    findRun: findRunInTx,
    getRun,
    getRunTarget,
    listRunsByIds,
    listRunHeads,
    findRunHead,
    listConfigTexts,
    listGroupValues,
    findRunJsonTexts,
    listProjectRuns,
    listForkedRunIds,
    searchRuns,
    findRunByDisplayId,
    findRunByExternalId,
    updateStatus,
    listStatusEvents,
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
    listSavedViews,
    findSavedView,
    countSavedViews,
    createSavedView,
    updateSavedView,
    deleteSavedView,
    listStaleRuns,
    failStaleRun,
    resumeStaleRun,
    trashRuns,
    restoreRuns,
    trashProject,
    listTrash,
    listExpiredTrash,
    listRunCreators,
    listTrashedIds,
    listTrashedSince,
    purgeRun,
    listPurgeQueue,
    finishPurgeJob,
    renameProject,
    findRenamedProject,
    renameRun,
    setProjectRetention,
    getProjectRetention,
    listRetentionExpired,
    reclaimSpace: (db) => db.reclaimSpace(),
    close: (db) => db.close(),
  }),
);
export type SqlMetadataStore = MetadataStore;
