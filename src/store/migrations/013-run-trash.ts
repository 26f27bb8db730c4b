/**
 * Run management (issue 30): a trash for runs and projects, purges, project retention and
 * renamed projects' old names.
 * - `runs.deleted_at`: the run is in the trash since then (absent from every read; see
 *   sql/runs/live-runs.ts). `runs.purged_at`: the run was purged while a fork still inherits
 *   its points: only its row and metric series are kept, for the fork's reads.
 * - `projects.deleted_at`: the project was trashed with its runs; `retention_days`: finished
 *   runs older than that go to the trash by themselves.
 * - `purge_queue`: runs whose rows are gone (or hollowed) but whose series rows and blobs
 *   may not be yet: written in the same transaction, worked off until empty (a kill between
 *   the two stores leaves the run gone, its bytes queued).
 * - `project_names`: a renamed project's earlier names, so old links still find it.
 */
export const runTrashMigration = `
ALTER TABLE runs ADD COLUMN deleted_at BIGINT;
ALTER TABLE runs ADD COLUMN purged_at BIGINT;
ALTER TABLE projects ADD COLUMN deleted_at BIGINT;
ALTER TABLE projects ADD COLUMN retention_days BIGINT;
CREATE INDEX runs_trash ON runs (deleted_at) WHERE deleted_at IS NOT NULL;
CREATE INDEX runs_fork_parent ON runs (forked_from_run_id) WHERE forked_from_run_id IS NOT NULL;
CREATE TABLE purge_queue (
  run_id BIGINT PRIMARY KEY,
  keep_series INTEGER NOT NULL,
  queued_at BIGINT NOT NULL
);
CREATE TABLE project_names (
  org_id BIGINT NOT NULL,
  name TEXT NOT NULL,
  project_id BIGINT NOT NULL,
  renamed_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, name)
)
`;
