/**
 * A project's last activity (the projects list, and every lookup of a project by name) is
 * the latest `updated_at` and `last_seen_at` of its runs: this index answers it without
 * reading the runs' rows, whose config and metadata may be megabytes each.
 */
export const runsActivityIndexMigration = `
CREATE INDEX runs_project_activity ON runs (org_id, project_id, updated_at, last_seen_at)
`;
