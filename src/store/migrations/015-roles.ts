/**
 * People and roles (issue 29).
 *
 * A membership gives a user a role in an organization (viewer, member, admin, owner); a
 * user without one can no longer use its keys or sessions there. Users of older
 * installations keep what they could do: the organization's admin (migration 9) becomes
 * its owner, everyone else a member. A key may carry a narrower role than its user's
 * (`role`; NULL: its user's).
 *
 * Accounts: a user may have an email (stored lower case, unique), a display name and a
 * password hash (services/ never store a password). Sessions are rebuilt so that one can
 * be a user's (`user_id`, `org_id`: signed in with a password) instead of a key's.
 *
 * Invitations: single-use links (only their token's SHA-256 is stored) to join an
 * organization with a role, or (`user_id`) to set an existing user's password. The audit
 * log keeps who removed whom, changed whose role, or deleted what. Runs record the user who
 * created them and status events the user and key that wrote them (NULL: before roles, or
 * the server itself).
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
ALTER TABLE api_keys ADD COLUMN role TEXT;
ALTER TABLE users ADD COLUMN email TEXT;
ALTER TABLE users ADD COLUMN display_name TEXT;
ALTER TABLE users ADD COLUMN password_hash TEXT;
CREATE UNIQUE INDEX users_email ON users (email);
CREATE TABLE user_sessions_new (
  token_hash TEXT PRIMARY KEY,
  api_key_id BIGINT REFERENCES api_keys(id),
  user_id BIGINT REFERENCES users(id),
  org_id BIGINT REFERENCES organizations(id),
  created_at BIGINT NOT NULL,
  last_used_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
) {{clustered}};
INSERT INTO user_sessions_new (token_hash, api_key_id, created_at, last_used_at, expires_at)
  SELECT token_hash, api_key_id, created_at, last_used_at, expires_at FROM sessions;
DROP TABLE sessions;
ALTER TABLE user_sessions_new RENAME TO sessions;
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX sessions_key_created ON sessions (api_key_id, created_at);
CREATE INDEX sessions_user_created ON sessions (user_id, created_at);
CREATE TABLE invitations (
  token_hash TEXT PRIMARY KEY,
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  email TEXT,
  role TEXT NOT NULL,
  user_id BIGINT REFERENCES users(id),
  invited_by BIGINT REFERENCES users(id),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
) {{clustered}};
CREATE TABLE audit_events (
  id {{autoId}},
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  at BIGINT NOT NULL,
  actor_user_id BIGINT,
  actor_key_id BIGINT,
  action TEXT NOT NULL,
  subject TEXT NOT NULL,
  detail TEXT
);
CREATE INDEX audit_events_org ON audit_events (org_id, id);
ALTER TABLE runs ADD COLUMN created_by BIGINT;
ALTER TABLE status_events ADD COLUMN actor_user_id BIGINT;
ALTER TABLE status_events ADD COLUMN actor_key_id BIGINT
`;
