/**
 * Sampled reads from rollups: a metric's step range is tiled into rollup buckets (plus raw
 * stretches at the ends), tiles are grouped into at most (limit − 2) / 2 step buckets, and
 * each bucket's minimum and maximum point, with the range's first and last point, are read
 * by primary key. O(limit) rows and tiles whatever the series' size and step span.
 */
import { nodeOfPoints, samplingLevel, tileRange, widthOf } from '../../domain/rollup.js';
import type { SqlExecutor } from './sql-db.js';
import type { RollupRow } from './sql-rollup-rows.js';
import { toStored, type PointRow } from './sql-effective-points.js';
import type { LineageMetric } from './sql-lineage-series.js';
import { chunks, IN_CHUNK } from './sql-util.js';
import type { StoredPoint } from './sql-series-row.js';

/** One series' share of an effective series: its own points in [from, to]. */
interface Segment {
  seriesId: number;
  top: number;
  from: number;
  to: number;
}

/**
 * The segments of a metric's effective series in [stepMin, stepMax], or null when rollups
 * cannot answer it (a series without rollups, or a fork child with its own points at
 * inherited steps).
 */
export function segmentsOf(metric: LineageMetric, stepMin: number, stepMax: number): Segment[] | null {
  const out: Segment[] = [];
  const sources = metric.sources;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    const top = Number(s.row.rollup_level);
    if (top < 0 || s.row.first_step === null || s.row.max_step === null) return null;
    const next = sources[i + 1];
    if (next && Number(s.row.first_step) <= next.maxStep) return null;
    const from = Math.max(stepMin, next ? next.maxStep + 1 : -Infinity, Number(s.row.first_step));
    const to = Math.min(stepMax, s.maxStep, Number(s.row.max_step));
    if (from <= to) out.push({ seriesId: s.seriesId, top, from, to });
  }
  return out.sort((a, b) => a.from - b.from);
}

/** What sampling needs of a tile: where its points are and its extreme finite values. */
interface Piece {
  from: number;
  points: number;
  firstStep: number;
  lastStep: number;
  minValue: number;
  minStep: number | null;
  minTime: number;
  maxValue: number;
  maxStep: number | null;
  maxTime: number;
}

/** The rollup columns sampling reads. */
type ExtremesRow = Pick<
  RollupRow,
  | 'level'
  | 'bucket'
  | 'points'
  | 'first_step'
  | 'last_step'
  | 'min_value'
  | 'min_step'
  | 'min_time'
  | 'max_value'
  | 'max_step'
  | 'max_time'
>;

const pieceOfRow = (from: number, r: ExtremesRow): Piece => ({
  from,
  points: Number(r.points),
  firstStep: Number(r.first_step),
  lastStep: Number(r.last_step),
  minValue: r.min_value ?? Infinity,
  minStep: r.min_step === null ? null : Number(r.min_step),
  minTime: Number(r.min_time),
  maxValue: r.max_value ?? -Infinity,
  maxStep: r.max_step === null ? null : Number(r.max_step),
  maxTime: Number(r.max_time),
});

function pieceOfPoints(from: number, points: readonly StoredPoint[]): Piece {
  const n = nodeOfPoints(points);
  return {
    from,
    points: n.points,
    firstStep: n.firstStep,
    lastStep: n.lastStep,
    minValue: n.moments.min,
    minStep: n.minStep,
    minTime: n.minTime ?? 0,
    maxValue: n.moments.max,
    maxStep: n.maxStep,
    maxTime: n.maxTime ?? 0,
  };
}

/** Folds piece b (later steps) into a; ties of the minimum and maximum keep the lower step. */
function absorb(a: Piece, b: Piece): void {
  a.points += b.points;
  a.lastStep = b.lastStep;
  if (b.minStep !== null && (a.minStep === null || b.minValue < a.minValue)) {
    a.minValue = b.minValue;
    a.minStep = b.minStep;
    a.minTime = b.minTime;
  }
  if (b.maxStep !== null && (a.maxStep === null || b.maxValue > a.maxValue)) {
    a.maxValue = b.maxValue;
    a.maxStep = b.maxStep;
    a.maxTime = b.maxTime;
  }
}

async function piecesOf(tx: SqlExecutor, seg: Segment, level: number): Promise<Piece[]> {
  const tiles = tileRange(seg.from, seg.to, level);
  // Tiles of one level form a few runs of consecutive buckets (the middle, and the edges).
  const runs: { level: number; from: number; to: number }[] = [];
  for (const t of tiles) {
    if (t.level < 0) continue;
    const run = runs.find((r) => r.level === t.level && r.to === t.bucket - 1);
    if (run) run.to = t.bucket;
    else runs.push({ level: t.level, from: t.bucket, to: t.bucket });
  }
  const rows = new Map<string, ExtremesRow>();
  for (const r of runs) {
    const found = await tx.all<ExtremesRow>(
      'SELECT level, bucket, points, first_step, last_step, min_value, min_step, min_time, max_value, max_step, max_time ' +
        'FROM metric_rollups WHERE series_id = ? AND level = ? AND bucket >= ? AND bucket <= ?',
      [seg.seriesId, r.level, r.from, r.to],
    );
    for (const row of found) rows.set(`${r.level}:${row.bucket}`, row);
  }
  const pieces: Piece[] = [];
  for (const t of tiles) {
    let piece: Piece | undefined;
    if (t.level >= 0) {
      const row = rows.get(`${t.level}:${t.bucket}`);
      piece = row && pieceOfRow(t.from, row);
    } else {
      const points = await tx.all<PointRow>(
        'SELECT step, time, value, flag FROM metric_points WHERE series_id = ? AND step >= ? AND step <= ?',
        [seg.seriesId, t.from, t.to],
      );
      piece = pieceOfPoints(t.from, points.map(toStored));
    }
    if (piece && piece.points > 0) pieces.push(piece);
  }
  return pieces;
}

/**
 * At most `limit` effective points of the segments by shape-preserving sampling: the first
 * and last point and each bucket's minimum and maximum (its first point when it holds no
 * finite value). Returns null when the range holds no more than `limit` points (read them all),
 * or when a series' rollups stop below the level its span needs (kept before issue 14).
 */
export async function sampleSegments(
  tx: SqlExecutor,
  segments: readonly Segment[],
  limit: number,
): Promise<StoredPoint[] | null> {
  const groups = Math.floor((limit - 2) / 2);
  const first = segments[0];
  const last = segments[segments.length - 1];
  if (!first || !last || groups < 1) return null;
  const span = last.to - first.from + 1;
  // Finer than the base bucket: the range holds at most ~16 × limit points; read them.
  if (span / widthOf(0) < groups) return null;
  const levels = segments.map((seg) => samplingLevel(seg.from, seg.to, span, groups, seg.top));
  // Rollups too shallow to tile a segment in O(limit) buckets: read the points instead.
  if (levels.some((level) => level === null)) return null;
  const pieces: Piece[] = [];
  for (const [i, seg] of segments.entries()) pieces.push(...(await piecesOf(tx, seg, levels[i]!)));
  const total = pieces.reduce((n, p) => n + p.points, 0);
  if (total <= limit || pieces.length === 0) return null;
  // Segments are disjoint in steps, so a step names its series.
  // Extremes carry their step, value and time; only first/last points and buckets without a
  // finite value need a lookup. Segments are disjoint in steps, so a step names its series.
  const out: StoredPoint[] = [];
  const lookup = new Set<number>([pieces[0]!.firstStep, pieces[pieces.length - 1]!.lastStep]);
  const byGroup = new Map<number, Piece>();
  for (const p of pieces) {
    const index = Math.min(groups - 1, Math.floor(((p.from - first.from) * groups) / span));
    const held = byGroup.get(index);
    if (held) absorb(held, p);
    else byGroup.set(index, { ...p });
  }
  const seen = new Set<number>();
  for (const g of byGroup.values()) {
    if (g.minStep === null || g.maxStep === null) {
      lookup.add(g.firstStep);
      continue;
    }
    for (const [step, value, time] of [
      [g.minStep, g.minValue, g.minTime],
      [g.maxStep, g.maxValue, g.maxTime],
    ] as const) {
      if (seen.has(step) || lookup.has(step)) continue;
      seen.add(step);
      out.push({ step, time, value, flag: 0 });
    }
  }
  for (const seg of segments) {
    const steps = [...lookup].filter((step) => step >= seg.from && step <= seg.to);
    for (const part of chunks(steps, IN_CHUNK)) {
      const rows = await tx.all<PointRow>(
        `SELECT step, time, value, flag FROM metric_points WHERE series_id = ? AND step IN (${part.map(() => '?').join(', ')})`,
        [seg.seriesId, ...part],
      );
      for (const r of rows) if (!seen.has(Number(r.step))) out.push(toStored(r));
    }
  }
  return out.sort((a, b) => a.step - b.step);
}
