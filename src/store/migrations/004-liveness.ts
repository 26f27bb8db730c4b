/**
 * Liveness for the stale-run rule: runs from before this version count as last seen at their
 * last status change, and RUNNING runs are indexed by last sign of life so the periodic
 * sweep reads only the runs that are RUNNING and silent (a partial index, tiny on both engines).
 */
export const livenessMigration = `
UPDATE runs SET last_seen_at = status_updated WHERE last_seen_at IS NULL;
CREATE INDEX runs_running_last_seen ON runs (last_seen_at) WHERE status = 'RUNNING'
`;
