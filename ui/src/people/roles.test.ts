import { describe, expect, it } from 'vitest';
import { isAdminRole, rolesToGrant } from './roles';

describe('roles', () => {
  it('lets admins and owners manage members', () => {
    expect(['owner', 'admin', 'member', 'viewer'].map((r) => isAdminRole(r as never))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('lets an owner grant any role and an admin only members and viewers', () => {
    expect(rolesToGrant('owner')).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(rolesToGrant('admin')).toEqual(['member', 'viewer']);
    expect(rolesToGrant('member')).toEqual([]);
    expect(rolesToGrant('viewer')).toEqual([]);
  });
});
