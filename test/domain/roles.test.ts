import { describe, expect, it } from 'vitest';
import { atLeast, isRole, narrower, ROLES } from '../../src/domain/roles.js';

describe('roles', () => {
  it('are ordered viewer < member < admin < owner, each at least itself and the narrower ones', () => {
    expect(ROLES).toEqual(['viewer', 'member', 'admin', 'owner']);
    for (const [i, role] of ROLES.entries()) {
      for (const [j, needed] of ROLES.entries()) expect(atLeast(role, needed)).toBe(i >= j);
    }
  });

  it('a key’s cap narrows its user’s role and never widens it', () => {
    expect(narrower('owner', 'viewer')).toBe('viewer');
    expect(narrower('member', 'admin')).toBe('member');
    expect(narrower('admin', null)).toBe('admin');
  });

  it('only the four names are roles', () => {
    expect(ROLES.every(isRole)).toBe(true);
    for (const text of ['Owner', 'root', '', ' viewer', null, 3]) expect(isRole(text)).toBe(false);
  });
});
