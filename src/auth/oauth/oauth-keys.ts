import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { MetadataStore } from '../../store/metadata-store.js';

/** The authorization server's keys, the same on every server of one database. */
export interface OAuthKeys {
  /** The private signing keys as JWKs (the provider publishes their public halves). */
  jwks: { keys: Record<string, unknown>[] };
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
}

/**
 * The signing key (an EC P-256 key, ES256) and the cookie key, made by node:crypto on the
 * first start and stored as settings, so every later start and every other server on the
 * database reads the same ones (the first to store wins a race).
 */
export async function loadOAuthKeys(store: MetadataStore): Promise<OAuthKeys> {
  const jwk = await store.getSecret('oauth-signing-jwk', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const kid = randomBytes(8).toString('base64url');
    return JSON.stringify({ ...privateKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' });
  });
  const cookieKey = await store.getSecret('oauth-cookie-key', () => randomBytes(32).toString('base64url'));
  return { jwks: { keys: [JSON.parse(jwk) as Record<string, unknown>] }, cookieKeys: [cookieKey] };
}
