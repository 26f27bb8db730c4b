/**
 * Console lines get dense positions in production order (time, then arrival = id): `pos`
 * per run and `type_pos` per (run, logType), so a page at any offset is an index range
 * instead of an OFFSET walk. console_runs holds each run's line count and latest time (and
 * is the row an append locks); console_counts holds the count per (run, logType). Existing
 * lines are numbered here; the time-ordered indexes are replaced by the position ones.
 */
export const consoleOrderMigration = `
ALTER TABLE console_lines ADD COLUMN pos BIGINT NOT NULL DEFAULT 0;
ALTER TABLE console_lines ADD COLUMN type_pos BIGINT NOT NULL DEFAULT 0;
UPDATE console_lines SET pos = r.p, type_pos = r.tp
FROM (
  SELECT id,
    ROW_NUMBER() OVER (PARTITION BY run_id ORDER BY time, id) - 1 AS p,
    ROW_NUMBER() OVER (PARTITION BY run_id, log_type ORDER BY time, id) - 1 AS tp
  FROM console_lines
) AS r
WHERE console_lines.id = r.id;
DROP INDEX console_lines_order;
DROP INDEX console_lines_type;
CREATE INDEX console_lines_pos ON console_lines (run_id, pos);
CREATE INDEX console_lines_type_pos ON console_lines (run_id, log_type, type_pos);
CREATE TABLE console_runs (
  run_id BIGINT PRIMARY KEY,
  line_count BIGINT NOT NULL,
  max_time BIGINT
);
CREATE TABLE console_counts (
  run_id BIGINT NOT NULL,
  log_type TEXT NOT NULL,
  line_count BIGINT NOT NULL,
  PRIMARY KEY (run_id, log_type)
);
INSERT INTO console_runs (run_id, line_count, max_time)
SELECT run_id, COUNT(*), MAX(time) FROM console_lines GROUP BY run_id;
INSERT INTO console_counts (run_id, log_type, line_count)
SELECT run_id, log_type, COUNT(*) FROM console_lines GROUP BY run_id, log_type
`;
