import type { OAuthStore } from '../oauth-store.js';
import { bindStore, storeClass } from './bind-store.js';
import type { SqlDb } from './db.js';
import {
  createOAuthGrant,
  deleteOAuthApp,
  findOAuthGrant,
  listOAuthApps,
  touchOAuthGrant,
} from './oauth/oauth-grants.js';
import {
  consumeOAuthRecord,
  deleteOAuthGrantRecords,
  deleteOAuthRecord,
  findOAuthRecord,
  findOAuthRecordByUid,
  findOAuthRecordByUserCode,
  saveOAuthRecord,
  sweepOAuth,
} from './oauth/oauth-records.js';

/** OAuthStore over any SqlDb (the metadata database), one implementation for every engine. */
export const SqlOAuthStore = storeClass((db: SqlDb): OAuthStore =>
  bindStore<OAuthStore>(db, {
    saveOAuthRecord,
    findOAuthRecord,
    findOAuthRecordByUid,
    findOAuthRecordByUserCode,
    consumeOAuthRecord,
    deleteOAuthRecord,
    deleteOAuthGrantRecords,
    createOAuthGrant,
    findOAuthGrant,
    touchOAuthGrant,
    listOAuthApps,
    deleteOAuthApp,
    sweepOAuth,
  }),
);
export type SqlOAuthStore = OAuthStore;
