/**
 * Sign-in and client-registration limits shared by every server on the database (they were
 * counted in each process's memory), and an end for OAuth clients registered before the
 * 24 h rule.
 *
 * `attempt_counts`: one row per kind of limit and key (the sha256 of an account or an
 * address, never the name itself): the end of its fixed window (ms) and the attempts counted
 * in it, which stop growing one past the limit (sql/auth/attempts.ts). Rows whose window
 * ended are swept (services/run-purge.ts).
 *
 * Clients with no end that no grant names get one 24 h after this migration runs, so the
 * OAuth sweep deletes them like any client registered since (86400000 ms: UNGRANTED_CLIENT_MS
 * of auth/oauth/oauth-adapter.ts, written out as a migration's figures are fixed);
 * `{{nowMs}}` is the time the migration runs (ms), filled in from JavaScript (the dialect
 * has no now-in-ms expression, and none is portable).
 */
export const attemptLimitsMigration = `
CREATE TABLE attempt_counts (
  kind TEXT NOT NULL,
  key_hash TEXT NOT NULL,
  window_end BIGINT NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (kind, key_hash)
) {{clustered}};
CREATE INDEX attempt_counts_end ON attempt_counts (window_end);
UPDATE oauth_records SET expires_at = {{nowMs}} + 86400000
  WHERE model = 'Client' AND expires_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_records.id)
`;
