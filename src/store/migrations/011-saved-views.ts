/**
 * Saved views of the project workspace: a named JSON state (filters, sort, columns, visible
 * runs, panels) per project, shared with the organization; at most one per project is its
 * default (kept by the store, in the transaction that sets it).
 */
export const savedViewsMigration = `
CREATE TABLE saved_views (
  id {{autoId}},
  project_id BIGINT NOT NULL REFERENCES projects(id),
  name TEXT NOT NULL,
  state TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0,
  created_by BIGINT REFERENCES users(id),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (project_id, name)
)
`;
