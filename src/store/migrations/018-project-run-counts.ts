/**
 * The projects list without reading runs (issue: it grew with the number of runs):
 * - `projects.run_count`: the project's live runs, kept by the transactions that create,
 *   trash and restore runs (sql/runs/project-run-count.ts), backfilled here.
 * - two partial indexes over live runs, so a project's latest `updated_at` and
 *   `last_seen_at` are each one index probe instead of a pass over its runs' rows.
 */
export const projectRunCountsMigration = `
ALTER TABLE projects ADD COLUMN run_count BIGINT NOT NULL DEFAULT 0;
UPDATE projects SET run_count = (SELECT COUNT(*) FROM runs r WHERE r.project_id = projects.id AND r.deleted_at IS NULL);
CREATE INDEX runs_live_updated ON runs (project_id, updated_at) WHERE deleted_at IS NULL;
CREATE INDEX runs_live_seen ON runs (project_id, last_seen_at) WHERE deleted_at IS NULL
`;
