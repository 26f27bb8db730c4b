/**
 * Step-bucket rollups of metric series, maintained on write so sampled
 * reads of huge series touch O(limit) rows. series.rollup_level is the top level kept for
 * the series; -1 marks series written before rollups existed (read without rollups).
 * The moments may be NULL: SQLite stores a NaN (e.g. the mean of ±1.7e308) as NULL.
 * Chunks (migration 008) replaced rollups: the table is emptied there and no longer read.
 */
export const rollupMigration = `
CREATE TABLE metric_rollups (
  series_id BIGINT NOT NULL,
  level SMALLINT NOT NULL,
  bucket BIGINT NOT NULL,
  points BIGINT NOT NULL,
  first_step BIGINT NOT NULL,
  last_step BIGINT NOT NULL,
  count BIGINT NOT NULL,
  mean DOUBLE PRECISION,
  mean_lo DOUBLE PRECISION,
  m2 DOUBLE PRECISION,
  min_value DOUBLE PRECISION,
  min_step BIGINT,
  min_time BIGINT,
  max_value DOUBLE PRECISION,
  max_step BIGINT,
  max_time BIGINT,
  PRIMARY KEY (series_id, level, bucket)
) {{clustered}};
ALTER TABLE series ADD COLUMN rollup_level BIGINT NOT NULL DEFAULT -1;
`;
