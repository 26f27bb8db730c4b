/**
 * Metric series with their running summaries, metric points, console lines, data lines
 * and file records. A series row holds the summary of its own points only (mean_lo is the
 * low-order part of the mean, see domain/summary.ts); forks combine their lineage when read.
 * The moments may be NULL: SQLite stores NaN (an overflowed mean of ±1.7e308 values) as NULL.
 */
export const seriesMigration = `
CREATE TABLE series (
  id {{autoId}},
  run_id BIGINT NOT NULL,
  project_id BIGINT NOT NULL,
  log_name TEXT NOT NULL,
  log_group TEXT NOT NULL,
  count BIGINT NOT NULL DEFAULT 0,
  mean DOUBLE PRECISION DEFAULT 0,
  mean_lo DOUBLE PRECISION DEFAULT 0,
  m2 DOUBLE PRECISION DEFAULT 0,
  min_value DOUBLE PRECISION,
  max_value DOUBLE PRECISION,
  last_step BIGINT,
  last_value DOUBLE PRECISION,
  points BIGINT NOT NULL DEFAULT 0,
  first_step BIGINT,
  max_step BIGINT,
  first_time BIGINT,
  last_time BIGINT,
  UNIQUE (run_id, log_name)
);
CREATE INDEX series_project_name ON series (project_id, log_name);
CREATE TABLE metric_points (
  series_id BIGINT NOT NULL,
  step BIGINT NOT NULL,
  time BIGINT NOT NULL,
  value DOUBLE PRECISION,
  flag SMALLINT NOT NULL DEFAULT 0,
  PRIMARY KEY (series_id, step)
) {{clustered}};
CREATE TABLE console_lines (
  id {{autoId}},
  run_id BIGINT NOT NULL,
  time BIGINT NOT NULL,
  log_type TEXT NOT NULL,
  line_number BIGINT NOT NULL,
  message TEXT NOT NULL,
  step BIGINT NOT NULL,
  UNIQUE (run_id, log_type, line_number, time)
);
CREATE INDEX console_lines_order ON console_lines (run_id, time, id);
CREATE INDEX console_lines_type ON console_lines (run_id, log_type, time, id);
CREATE TABLE data_lines (
  id {{autoId}},
  run_id BIGINT NOT NULL,
  log_name TEXT NOT NULL,
  data_type TEXT NOT NULL,
  step BIGINT NOT NULL,
  time BIGINT NOT NULL,
  data TEXT NOT NULL,
  UNIQUE (run_id, log_name, step, time)
);
CREATE INDEX data_lines_order ON data_lines (run_id, step, time, id);
CREATE TABLE files (
  id {{autoId}},
  run_id BIGINT NOT NULL,
  log_name TEXT NOT NULL,
  log_group TEXT NOT NULL,
  file_name TEXT NOT NULL,
  file_type TEXT NOT NULL,
  file_size BIGINT NOT NULL,
  step BIGINT NOT NULL,
  sample_index BIGINT NOT NULL DEFAULT 0,
  time BIGINT NOT NULL,
  caption TEXT,
  blob_key TEXT NOT NULL,
  uploaded_at BIGINT,
  created_at BIGINT NOT NULL,
  UNIQUE (run_id, log_name, file_name, step)
);
CREATE INDEX files_run ON files (run_id, step, sample_index, file_name);
CREATE INDEX files_blob ON files (blob_key);
`;
