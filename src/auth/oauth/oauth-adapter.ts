import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { OAuthStore } from '../../store/oauth-store.js';

/**
 * How long a registered client is kept while no grant names it: open registration must not
 * pile up clients that were never used. The grant's transaction clears the end
 * (createOAuthGrant); the sweep of OAuthServer (every ten minutes) deletes the rest.
 */
export const UNGRANTED_CLIENT_MS = 24 * 3600_000;

/**
 * The oidc-provider Adapter of one model over the OAuth store (the metadata database), so
 * every server on one database shares clients, codes, grants, sessions and tokens. Expired
 * rows read as missing; `consumed` (seconds) comes back from the consumption mark. A new
 * client ends after UNGRANTED_CLIENT_MS unless a grant is made for it.
 */
export class OAuthAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly store: OAuthStore,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
    await this.store.saveOAuthRecord({
      model: this.model,
      id,
      payload: JSON.stringify(payload),
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
      expiresAt: this.endOf(expiresIn),
    });
  }

  private endOf(expiresIn: number | undefined): number | null {
    if (expiresIn !== undefined) return Date.now() + expiresIn * 1000;
    return this.model === 'Client' ? Date.now() + UNGRANTED_CLIENT_MS : null;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return parsed(await this.store.findOAuthRecord(this.model, id, Date.now()));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return parsed(await this.store.findOAuthRecordByUid(this.model, uid, Date.now()));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return parsed(await this.store.findOAuthRecordByUserCode(this.model, userCode, Date.now()));
  }

  async consume(id: string): Promise<void> {
    await this.store.consumeOAuthRecord(this.model, id, Date.now());
  }

  async destroy(id: string): Promise<void> {
    await this.store.deleteOAuthRecord(this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.store.deleteOAuthGrantRecords(this.model, grantId);
  }
}

function parsed(record: { payload: string; consumedAt: number | null } | undefined): AdapterPayload | undefined {
  if (!record) return undefined;
  const payload = JSON.parse(record.payload) as AdapterPayload;
  return record.consumedAt === null ? payload : { ...payload, consumed: Math.floor(record.consumedAt / 1000) };
}
