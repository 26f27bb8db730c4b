/** Organizations, users, keys, projects, runs, status events, log names, graphs, alerts. */
export const metadataMigration = `
CREATE TABLE organizations (
  id {{autoId}},
  slug TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL
);
CREATE TABLE users (
  id {{autoId}},
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (org_id, name)
);
CREATE TABLE api_keys (
  id {{autoId}},
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  user_id BIGINT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  revoked_at BIGINT,
  last_used_at BIGINT
);
CREATE TABLE projects (
  id {{autoId}},
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  next_number BIGINT NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (org_id, name),
  UNIQUE (org_id, prefix)
);
CREATE TABLE runs (
  id {{autoId}},
  org_id BIGINT NOT NULL REFERENCES organizations(id),
  project_id BIGINT NOT NULL REFERENCES projects(id),
  number BIGINT NOT NULL,
  name TEXT NOT NULL,
  external_id TEXT,
  status TEXT NOT NULL,
  tags TEXT NOT NULL,
  config TEXT,
  system_metadata TEXT,
  logger_settings TEXT,
  status_metadata TEXT,
  notes TEXT,
  forked_from_run_id BIGINT REFERENCES runs(id),
  fork_step BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  status_updated BIGINT NOT NULL,
  last_seen_at BIGINT,
  UNIQUE (project_id, number),
  UNIQUE (project_id, external_id)
);
CREATE INDEX runs_org_project ON runs (org_id, project_id, id);
CREATE TABLE status_events (
  id {{autoId}},
  run_id BIGINT NOT NULL REFERENCES runs(id),
  from_status TEXT,
  to_status TEXT NOT NULL,
  source TEXT NOT NULL,
  metadata TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX status_events_run ON status_events (run_id, id);
CREATE TABLE log_names (
  run_id BIGINT NOT NULL REFERENCES runs(id),
  log_name TEXT NOT NULL,
  log_type TEXT NOT NULL,
  log_group TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (run_id, log_name)
) {{clustered}};
CREATE TABLE model_graphs (
  run_id BIGINT PRIMARY KEY REFERENCES runs(id),
  format TEXT NOT NULL,
  nodes TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE alerts (
  id {{autoId}},
  run_id BIGINT NOT NULL REFERENCES runs(id),
  level TEXT,
  title TEXT,
  body TEXT,
  payload TEXT NOT NULL,
  alert_time BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX alerts_run ON alerts (run_id, id);
CREATE TABLE settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;
