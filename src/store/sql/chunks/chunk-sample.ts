/**
 * Sampled reads from chunk statistics: a metric's step range is covered by its chunks, the
 * chunks are grouped into at most (limit − 2) / 2 step buckets, and each bucket's minimum and
 * maximum come from the chunks' min/max in the index metric_chunk_extremes (with their step
 * and time); only the chunks cut by the range's ends, and those needed for the first and last
 * point, are decoded. A range of fewer chunks than buckets is decoded and bucketed by point.
 */
import { lowerBound, viewChunk, type ChunkView } from './chunk-codec.js';
import { overlapping, readChunk } from './chunk-rows.js';
import type { ChunkKey } from './chunk-rows.js';
import type { SqlExecutor } from '../db.js';
import type { SqlValue } from '../sql-value.js';
import { chunkPoints } from '../metrics/effective-points.js';
import type { LineageMetric } from '../metrics/lineage-series.js';
import type { StoredPoint } from '../metrics/series-row.js';

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

/**
 * The columns sampling reads per chunk, all held by the index metric_chunk_extremes (migration
 * 008), so the read never touches the rows' points. Rows come as arrays (allArrays) in this order.
 */
const EXTREME_COLUMNS =
  'first_step, first_tie, last_step, points, min_value, min_step, min_time, max_value, max_step, max_time';

type ExtremeRow = SqlValue[];

const stepOfRow = (r: ExtremeRow): number => Number(r[0]);
const lastStepOfRow = (r: ExtremeRow): number => Number(r[2]);
const keyOfRow = (r: ExtremeRow): ChunkKey => ({ step: Number(r[0]), tie: Number(r[1]) });

function pieceOfRow(seriesId: number, r: ExtremeRow): Piece {
  const some = r[4] !== null && r[5] !== null;
  return {
    seriesId,
    key: keyOfRow(r),
    points: Number(r[3]),
    firstStep: Number(r[0]),
    lastStep: Number(r[2]),
    minValue: some ? Number(r[4]) : Infinity,
    minStep: some ? Number(r[5]) : null,
    minTime: some ? Number(r[6]) : 0,
    maxValue: some ? Number(r[7]) : -Infinity,
    maxStep: some ? Number(r[8]) : null,
    maxTime: some ? Number(r[9]) : 0,
  };
}

/**
 * Adds (once complete) the pieces of a chunk's points with step in [from, to], but for `ends` (the range's
 * first and last point): one per bucket they fall in (bucketOf), each with its extremes over
 * finite values (ties keep the lower step).
 */
function pushPiecesOfPoints(
  add: (p: Piece) => void,
  seriesId: number,
  key: ChunkKey,
  c: ChunkView,
  from: number,
  to: number,
  bucketOf: (step: number) => number,
  ends: readonly StoredPoint[],
): void {
  let piece: Piece | undefined;
  let bucket = -1;
  const [a, z] = [ends[0], ends[ends.length - 1]];
  for (let i = lowerBound(c.steps, from); i < c.steps.length && c.steps[i]! <= to; i++) {
    const step = c.steps[i]!;
    const time = c.times[i]!;
    if ((step === a?.step && time === a.time) || (step === z?.step && time === z.time)) continue;
    const b = bucketOf(step);
    if (!piece || b !== bucket) {
      if (piece) add(piece);
      bucket = b;
      piece = {
        seriesId,
        key,
        points: 0,
        firstStep: step,
        lastStep: step,
        minValue: Infinity,
        minStep: null,
        minTime: 0,
        maxValue: -Infinity,
        maxStep: null,
        maxTime: 0,
      };
    }
    piece.points++;
    piece.lastStep = step;
    const value = c.values[i]!;
    if (!Number.isFinite(value)) continue;
    if (piece.minStep === null || value < piece.minValue) {
      piece.minValue = value;
      piece.minStep = step;
      piece.minTime = time;
    }
    if (piece.maxStep === null || value > piece.maxValue) {
      piece.maxValue = value;
      piece.maxStep = step;
      piece.maxTime = time;
    }
  }
  if (piece) add(piece);
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

/** Folds an index row (later steps) into a, as absorb does, without making a piece of it. */
function absorbRow(a: Piece, r: ExtremeRow): void {
  a.points += Number(r[3]);
  a.lastStep = Number(r[2]);
  if (r[4] === null || r[5] === null) return;
  const min = Number(r[4]);
  const max = Number(r[7]);
  if (a.minStep === null || min < a.minValue) [a.minValue, a.minStep, a.minTime] = [min, Number(r[5]), Number(r[6])];
  if (a.maxStep === null || max > a.maxValue) [a.maxValue, a.maxStep, a.maxTime] = [max, Number(r[8]), Number(r[9])];
}

/** Decoded chunks of one read, by series and key. */
class Decoded {
  private readonly held = new Map<string, ChunkView>();
  constructor(private readonly tx: SqlExecutor) {}
  async get(seriesId: number, key: ChunkKey): Promise<ChunkView> {
    let c = this.held.get(idOf(seriesId, key));
    if (!c) {
      const row = await readChunk(this.tx, seriesId, key);
      c = row ? viewChunk(row.data) : { steps: [], times: [], values: [] };
      this.held.set(idOf(seriesId, key), c);
    }
    return c;
  }
  /** Decodes the chunks overlapping a segment in one query; returns them by ascending key. */
  async range(seg: Segment): Promise<[ChunkKey, ChunkView][]> {
    const range = overlapping(seg.seriesId, seg.from, seg.to);
    const rows = await this.tx.allArrays(
      `SELECT first_step, first_tie, data FROM metric_chunks WHERE ${range.where} ORDER BY first_step, first_tie`,
      range.params,
    );
    return rows.map((r) => {
      const key = keyOfRow(r);
      const c = viewChunk(r[2] as Uint8Array);
      this.held.set(idOf(seg.seriesId, key), c);
      return [key, c];
    });
  }
}

const idOf = (seriesId: number, key: ChunkKey): string => `${seriesId}:${key.step}:${key.tie}`;

/** Returns the first (or last) point of the chunks in [from, to], decoding from that end. */
async function endPoint(
  decoded: Decoded,
  seg: Segment,
  rows: readonly ExtremeRow[],
  which: 'first' | 'last',
): Promise<StoredPoint | undefined> {
  for (let k = 0; k < rows.length; k++) {
    const r = rows[which === 'first' ? k : rows.length - 1 - k]!;
    const found = chunkPoints(await decoded.get(seg.seriesId, keyOfRow(r)), seg.from, seg.to);
    const point = which === 'first' ? found[0] : found[found.length - 1];
    if (point) return point;
  }
  return undefined;
}

/**
 * At most `limit` effective points of the segments by shape-preserving sampling, as
 * samplePoints (domain/sampling.ts) chooses them: the first and the last point, and each
 * bucket's minimum and maximum of the points between them (its first point when it holds no
 * finite value). With at least as many chunks as buckets, a chunk inside the range counts in
 * the bucket of its first step and its extremes come from the index; the chunks at the
 * range's ends are decoded. With fewer, every chunk in range is decoded and bucketed by
 * point. Returns null when the range holds no more than `limit` points.
 */
export async function sampleSegments(
  tx: SqlExecutor,
  segments: readonly Segment[],
  limit: number,
): Promise<StoredPoint[] | null> {
  const groups = Math.floor((limit - 2) / 2);
  if (segments.length === 0 || groups < 1) return null;
  const rowsBySegment: ExtremeRow[][] = [];
  let count = 0;
  for (const seg of segments) {
    const range = overlapping(seg.seriesId, seg.from, seg.to);
    const rows = await tx.allArrays(
      `SELECT ${EXTREME_COLUMNS} FROM metric_chunks WHERE ${range.where} ORDER BY first_step, first_tie`,
      range.params,
    );
    rowsBySegment.push(rows);
    count += rows.length;
  }
  const decoded = new Decoded(tx);
  const withChunks = segments.flatMap((_, i) => (rowsBySegment[i]!.length > 0 ? [i] : []));
  if (withChunks.length === 0) return null;
  const firstSeg = withChunks[0]!;
  const lastSeg = withChunks[withChunks.length - 1]!;
  const first = await endPoint(decoded, segments[firstSeg]!, rowsBySegment[firstSeg]!, 'first');
  const last = await endPoint(decoded, segments[lastSeg]!, rowsBySegment[lastSeg]!, 'last');
  if (!first || !last) return null;
  const ends = first.step === last.step && first.time === last.time ? [first] : [first, last];
  const span = last.step - first.step;
  const bucketOf = (step: number): number =>
    span > 0 ? Math.min(groups - 1, Math.floor(((step - first.step) * groups) / span)) : 0;
  // Each bucket's piece, folded in step order as chunks and points come.
  const byGroup: (Piece | undefined)[] = [];
  let total = ends.length;
  const add = (p: Piece): void => {
    total += p.points;
    const index = bucketOf(p.firstStep);
    const held = byGroup[index];
    if (held) absorb(held, p);
    else byGroup[index] = p;
  };
  for (const [i, seg] of segments.entries()) {
    if (count < groups) {
      for (const [key, c] of await decoded.range(seg)) {
        pushPiecesOfPoints(add, seg.seriesId, key, c, seg.from, seg.to, bucketOf, ends);
      }
      continue;
    }
    for (const r of rowsBySegment[i]!) {
      const inside = stepOfRow(r) >= seg.from && lastStepOfRow(r) <= seg.to;
      const atEnd = stepOfRow(r) <= first.step || lastStepOfRow(r) >= last.step;
      if (inside && !atEnd) {
        const held = byGroup[bucketOf(stepOfRow(r))];
        if (held) {
          total += Number(r[3]);
          absorbRow(held, r);
        } else add(pieceOfRow(seg.seriesId, r));
      } else {
        const key = keyOfRow(r);
        const c = await decoded.get(seg.seriesId, key);
        pushPiecesOfPoints(add, seg.seriesId, key, c, seg.from, seg.to, bucketOf, ends);
      }
    }
  }
  if (total <= limit) return null;
  // Keyed by step and time: a sys/ series holds several points at one step.
  const out = new Map<string, StoredPoint>();
  const keep = (p: StoredPoint): void => {
    const id = `${p.step}:${p.time}`;
    if (!out.has(id)) out.set(id, p);
  };
  for (const e of ends) keep(e);
  for (const g of byGroup) {
    if (!g) continue;
    if (g.minStep === null || g.maxStep === null) {
      // A bucket without a finite value keeps its first point.
      const found = chunkPoints(await decoded.get(g.seriesId, g.key), g.firstStep, g.firstStep);
      const head = found.find((p) => !ends.some((e) => e.step === p.step && e.time === p.time));
      if (head) keep(head);
      continue;
    }
    keep({ step: g.minStep, time: g.minTime, value: g.minValue, flag: 0 });
    keep({ step: g.maxStep, time: g.maxTime, value: g.maxValue, flag: 0 });
  }
  return [...out.values()].sort((a, b) => a.step - b.step || a.time - b.time);
}
