import { describe, expect, it } from 'vitest';
import { principalOf, type PrincipalParts } from '../../src/domain/principal.js';

const parts: PrincipalParts = {
  orgId: 1,
  orgSlug: 'acme',
  userId: 7,
  keyId: 3,
  keyExpiresAt: null,
  memberRole: 'admin',
  keyRole: 'member',
};

describe('principalOf', () => {
  it('acts as the member’s role narrowed by the key’s cap, with no scopes for a key or a session', () => {
    expect(principalOf(parts)).toEqual({
      orgId: 1,
      orgSlug: 'acme',
      userId: 7,
      keyId: 3,
      keyExpiresAt: null,
      role: 'member',
      keyRole: 'member',
      scopes: null,
    });
    expect(principalOf({ ...parts, keyId: null, keyRole: null }).role).toBe('admin');
  });

  it('narrows an access token without runs:write to viewer and keeps one with it as the key allows', () => {
    expect(principalOf(parts, ['runs:read']).role).toBe('viewer');
    expect(principalOf(parts, []).role).toBe('viewer');
    expect(principalOf(parts, ['runs:read', 'runs:write'])).toMatchObject({
      role: 'member',
      scopes: ['runs:read', 'runs:write'],
    });
  });

  it('copies only the principal’s fields from a wider record', () => {
    const wide = { ...parts, keyHash: 'secret', revokedAt: null };
    expect(Object.keys(principalOf(wide)).sort()).toEqual([
      'keyExpiresAt',
      'keyId',
      'keyRole',
      'orgId',
      'orgSlug',
      'role',
      'scopes',
      'userId',
    ]);
  });
});
