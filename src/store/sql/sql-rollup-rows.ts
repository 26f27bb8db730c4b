/**
 * metric_rollups rows: reading them as RollupNodes and writing nodes back.
 */
import type { RollupNode } from '../../domain/rollup.js';
import type { SqlExecutor, SqlValue } from './sql-db.js';

/** A metric_rollups row as SELECT gives it (BIGINTs may be strings on some engines). */
export interface RollupRow {
  level: number | string;
  bucket: number | string;
  points: number | string;
  first_step: number | string;
  last_step: number | string;
  count: number | string;
  mean: number | null;
  mean_lo: number | null;
  m2: number | null;
  min_value: number | null;
  min_step: number | string | null;
  min_time: number | string | null;
  max_value: number | null;
  max_step: number | string | null;
  max_time: number | string | null;
}

export const ROLLUP_COLUMNS =
  'level, bucket, points, first_step, last_step, count, mean, mean_lo, m2, min_value, min_step, min_time, max_value, max_step, max_time';

const UPSERT_ROLLUP =
  `INSERT INTO metric_rollups (series_id, ${ROLLUP_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
  'ON CONFLICT (series_id, level, bucket) DO UPDATE SET points = excluded.points, first_step = excluded.first_step, ' +
  'last_step = excluded.last_step, count = excluded.count, mean = excluded.mean, mean_lo = excluded.mean_lo, ' +
  'm2 = excluded.m2, min_value = excluded.min_value, min_step = excluded.min_step, min_time = excluded.min_time, ' +
  'max_value = excluded.max_value, max_step = excluded.max_step, max_time = excluded.max_time';

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** The node stored in a row. */
export function rowNode(r: RollupRow): RollupNode {
  const count = Number(r.count);
  return {
    points: Number(r.points),
    firstStep: Number(r.first_step),
    lastStep: Number(r.last_step),
    moments: {
      count,
      mean: r.mean === null ? NaN : Number(r.mean),
      meanLo: r.mean_lo === null ? NaN : Number(r.mean_lo),
      m2: r.m2 === null ? NaN : Number(r.m2),
      min: count > 0 && r.min_value !== null ? Number(r.min_value) : Infinity,
      max: count > 0 && r.max_value !== null ? Number(r.max_value) : -Infinity,
    },
    minStep: num(r.min_step),
    maxStep: num(r.max_step),
    minTime: num(r.min_time),
    maxTime: num(r.max_time),
  };
}

/** Rows of one level of a series with bucket in [from, to], as bucket → node. */
export async function readLevel(
  tx: SqlExecutor,
  seriesId: number,
  level: number,
  from: number,
  to: number,
): Promise<Map<number, RollupNode>> {
  const rows = await tx.all<RollupRow>(
    `SELECT ${ROLLUP_COLUMNS} FROM metric_rollups WHERE series_id = ? AND level = ? AND bucket >= ? AND bucket <= ?`,
    [seriesId, level, from, to],
  );
  return new Map(rows.map((r) => [Number(r.bucket), rowNode(r)]));
}

/** Writes nodes (level, bucket, node) of a series, replacing what was there. */
export async function writeNodes(
  tx: SqlExecutor,
  seriesId: number,
  nodes: readonly { level: number; bucket: number; node: RollupNode }[],
): Promise<void> {
  const rows: SqlValue[][] = nodes.map(({ level, bucket, node }) => {
    const m = node.moments;
    const some = m.count > 0;
    return [
      seriesId,
      level,
      bucket,
      node.points,
      node.firstStep,
      node.lastStep,
      m.count,
      some ? m.mean : 0,
      some ? (m.meanLo ?? 0) : 0,
      some ? m.m2 : 0,
      some ? m.min : null,
      node.minStep,
      node.minTime,
      some ? m.max : null,
      node.maxStep,
      node.maxTime,
    ];
  });
  if (rows.length > 0) await tx.runMany(UPSERT_ROLLUP, rows);
}
