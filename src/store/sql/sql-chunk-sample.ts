/**
 * Sampled reads from chunk statistics: a metric's step range is covered by its chunks, the
 * chunks are grouped into at most (limit − 2) / 2 step buckets, and each bucket's minimum and
 * maximum come from the chunks' stored min/max (with their step and time); only the chunks
 * cut by the range's ends, and those needed for the first and last point, are decoded.
 */
import type { ChunkPoints } from './chunk-codec.js';
import { CHUNK_STAT_COLUMNS, overlapping, readChunk, rowKey, rowPoints, rowStats } from './sql-chunk-rows.js';
import type { ChunkKey, ChunkRow } from './sql-chunk-rows.js';
import type { SqlExecutor } from './sql-db.js';
import { chunkPoints } from './sql-effective-points.js';
import type { LineageMetric } from './sql-lineage-series.js';
import type { StoredPoint } from './sql-series-row.js';

/** One series' share of an effective series: its own points in [from, to]. */
export interface Segment {
  seriesId: number;
  from: number;
  to: number;
}

/**
 * The segments of a metric's effective series in [stepMin, stepMax] by ascending steps, or
 * null when they overlap (a fork child with its own points at inherited steps).
 */
export function segmentsOf(metric: LineageMetric, stepMin: number, stepMax: number): Segment[] | null {
  const out: Segment[] = [];
  const sources = metric.sources;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    if (s.row.first_step === null || s.row.max_step === null) return null;
    const next = sources[i + 1];
    if (next && Number(s.row.first_step) <= next.maxStep) return null;
    const from = Math.max(stepMin, next ? next.maxStep + 1 : -Infinity, Number(s.row.first_step));
    const to = Math.min(stepMax, s.maxStep, Number(s.row.max_step));
    if (from <= to) out.push({ seriesId: s.seriesId, from, to });
  }
  return out.sort((a, b) => a.from - b.from);
}

/** What sampling needs of a chunk's points in range: where they are and their extremes. */
interface Piece {
  seriesId: number;
  key: ChunkKey;
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

function pieceOfRow(seriesId: number, r: ChunkRow): Piece {
  const s = rowStats(r);
  return {
    seriesId,
    key: rowKey(r),
    points: s.points,
    firstStep: s.firstStep,
    lastStep: s.lastStep,
    minValue: s.moments.min,
    minStep: s.minStep,
    minTime: s.minTime ?? 0,
    maxValue: s.moments.max,
    maxStep: s.maxStep,
    maxTime: s.maxTime ?? 0,
  };
}

function pieceOfPoints(seriesId: number, key: ChunkKey, points: readonly StoredPoint[]): Piece {
  const p: Piece = {
    seriesId,
    key,
    points: points.length,
    firstStep: points[0]!.step,
    lastStep: points[points.length - 1]!.step,
    minValue: Infinity,
    minStep: null,
    minTime: 0,
    maxValue: -Infinity,
    maxStep: null,
    maxTime: 0,
  };
  for (const q of points) {
    if (q.value === null) continue;
    if (p.minStep === null || q.value < p.minValue) [p.minValue, p.minStep, p.minTime] = [q.value, q.step, q.time];
    if (p.maxStep === null || q.value > p.maxValue) [p.maxValue, p.maxStep, p.maxTime] = [q.value, q.step, q.time];
  }
  return p;
}

/** Folds piece b (later steps) into a; ties of the minimum and maximum keep the lower step. */
function absorb(a: Piece, b: Piece): void {
  a.points += b.points;
  a.lastStep = b.lastStep;
  if (b.minStep !== null && (a.minStep === null || b.minValue < a.minValue)) {
    [a.minValue, a.minStep, a.minTime] = [b.minValue, b.minStep, b.minTime];
  }
  if (b.maxStep !== null && (a.maxStep === null || b.maxValue > a.maxValue)) {
    [a.maxValue, a.maxStep, a.maxTime] = [b.maxValue, b.maxStep, b.maxTime];
  }
}

/** Decoded chunks of one read, by series and key. */
class Decoded {
  private readonly held = new Map<string, ChunkPoints>();
  constructor(private readonly tx: SqlExecutor) {}
  async get(seriesId: number, key: ChunkKey): Promise<ChunkPoints> {
    const id = `${seriesId}:${key.step}:${key.tie}`;
    let c = this.held.get(id);
    if (!c) {
      const row = await readChunk(this.tx, seriesId, key);
      c = row ? rowPoints(row) : { steps: [], times: [], values: [] };
      this.held.set(id, c);
    }
    return c;
  }
}

/**
 * At most `limit` effective points of the segments by shape-preserving sampling: the first
 * and last point and each bucket's minimum and maximum (its first point when it holds no
 * finite value); a chunk counts in the bucket of its first step. Returns null when the
 * chunks are fewer than the buckets (the range then holds under 2 × CHUNK_POINTS points per
 * bucket: read and sample them) or the range holds no more than `limit` points.
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
  const rowsBySegment: ChunkRow[][] = [];
  let count = 0;
  for (const seg of segments) {
    const range = overlapping(seg.seriesId, seg.from, seg.to);
    const rows = await tx.all<ChunkRow>(
      `SELECT ${CHUNK_STAT_COLUMNS} FROM metric_chunks WHERE ${range.where} ORDER BY first_step, first_tie`,
      range.params,
    );
    rowsBySegment.push(rows);
    count += rows.length;
  }
  if (count < groups) return null;
  const decoded = new Decoded(tx);
  const pieces: Piece[] = [];
  for (const [i, seg] of segments.entries()) {
    for (const r of rowsBySegment[i]!) {
      const key = rowKey(r);
      if (key.step >= seg.from && Number(r.last_step) <= seg.to) pieces.push(pieceOfRow(seg.seriesId, r));
      else {
        const inRange = chunkPoints(await decoded.get(seg.seriesId, key), seg.from, seg.to);
        if (inRange.length > 0) pieces.push(pieceOfPoints(seg.seriesId, key, inRange));
      }
    }
  }
  const total = pieces.reduce((n, p) => n + p.points, 0);
  if (total <= limit || pieces.length === 0) return null;
  const span = last.to - first.from + 1;
  const byGroup = new Map<number, Piece>();
  for (const p of pieces) {
    const index = Math.min(groups - 1, Math.floor(((p.firstStep - first.from) * groups) / span));
    const held = byGroup.get(index);
    if (held) absorb(held, p);
    else byGroup.set(index, { ...p });
  }
  // Keyed by step and time: a sys/ series holds several points at one step.
  const out = new Map<string, StoredPoint>();
  const keep = (p: StoredPoint): void => {
    const id = `${p.step}:${p.time}`;
    if (!out.has(id)) out.set(id, p);
  };
  /** Keeps the first (or last) point of a piece at one of its steps. */
  const pointAt = async (p: Piece, step: number, which: 'first' | 'last'): Promise<void> => {
    const found = chunkPoints(await decoded.get(p.seriesId, p.key), step, step);
    const point = which === 'first' ? found[0] : found[found.length - 1];
    if (point) keep(point);
  };
  await pointAt(pieces[0]!, pieces[0]!.firstStep, 'first');
  const end = pieces[pieces.length - 1]!;
  await pointAt(end, end.lastStep, 'last');
  for (const g of byGroup.values()) {
    if (g.minStep === null || g.maxStep === null) {
      await pointAt(g, g.firstStep, 'first');
      continue;
    }
    keep({ step: g.minStep, time: g.minTime, value: g.minValue, flag: 0 });
    keep({ step: g.maxStep, time: g.maxTime, value: g.maxValue, flag: 0 });
  }
  return [...out.values()].sort((a, b) => a.step - b.step || a.time - b.time);
}
