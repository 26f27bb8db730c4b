/**
 * The OAuth 2.1 authorization server for tool clients (issue 32, docs/api.md §18).
 *
 * `oauth_records` is the provider library's storage (its Adapter): one row per stored object
 * of a model (Client, Grant, AuthorizationCode, AccessToken, RefreshToken, Session,
 * Interaction, ...), its JSON payload, the grant it belongs to (so a grant's tokens are
 * revoked together), and its end in ms (NULL: never; expired rows are swept).
 * `oauth_grants` says who a grant acts as: the user, the organization and the sign-in key of
 * the dashboard session that allowed it (NULL for a password session), with its scopes and
 * when it was last used (the API keys page lists these as connected apps).
 */
export const oauthMigration = `
CREATE TABLE oauth_records (
  model TEXT NOT NULL,
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  uid TEXT,
  user_code TEXT,
  expires_at BIGINT,
  consumed_at BIGINT,
  PRIMARY KEY (model, id)
) {{clustered}};
CREATE INDEX oauth_records_grant ON oauth_records (grant_id);
CREATE INDEX oauth_records_uid ON oauth_records (uid);
CREATE INDEX oauth_records_expires ON oauth_records (expires_at);
CREATE TABLE oauth_grants (
  grant_id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users(id),
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  key_id BIGINT REFERENCES api_keys(id),
  scopes TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  expires_at BIGINT NOT NULL
) {{clustered}};
CREATE INDEX oauth_grants_user ON oauth_grants (user_id, org_id);
CREATE INDEX oauth_grants_expires ON oauth_grants (expires_at)
`;
