/**
 * Roles (issue 29): a membership gives a user a role in an organization (viewer, member,
 * admin, owner); a user without one can no longer use its keys. Users of older
 * installations keep what they could do: the organization's admin (migration 9) becomes
 * its owner, everyone else a member. A key may carry a narrower role than its user's
 * (`role`; NULL: its user's).
 */
export const rolesMigration = `
CREATE TABLE memberships (
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  user_id BIGINT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, user_id)
) {{clustered}};
CREATE INDEX memberships_user ON memberships (user_id);
INSERT INTO memberships (org_id, user_id, role, created_at)
  SELECT org_id, id, CASE WHEN admin = 1 THEN 'owner' ELSE 'member' END, created_at FROM users;
ALTER TABLE api_keys ADD COLUMN role TEXT
`;
