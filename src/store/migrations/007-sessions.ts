/**
 * Dashboard sign-in sessions: keyed by the SHA-256 (hex) of a random token that only the
 * browser's cookie holds, tied to the API key that signed in (its revocation or expiry ends
 * them). A session ends `expires_at`, pushed forward by use; expired rows are deleted when a
 * session is created, through the index on `expires_at`.
 */
export const sessionsMigration = `
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  api_key_id BIGINT NOT NULL REFERENCES api_keys(id),
  created_at BIGINT NOT NULL,
  last_used_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
) {{clustered}};
CREATE INDEX sessions_expires ON sessions (expires_at)
`;
