/**
 * Sampled reads from chunk statistics: a metric's step range is covered by its chunks, the
 * chunks are grouped into at most (limit − 2) / 2 step buckets, and each bucket's minimum and
 * maximum come from the chunks' min/max in the index metric_chunk_extremes (with their step
 * and time); only the chunks cut by the range's ends, and those needed for the first and last
 * point, are decoded. A range of fewer chunks than buckets is bucketed by point, but for the
 * chunks wholly inside one bucket (their index row is their piece): only the others are read
 * and bucketed from their bytes.
 */
import {
  absorb,
  absorbRow,
  keyOfRow,
  lastStepOfRow,
  pieceOfRow,
  pushPiecesOfBytes,
  stepOfRow,
  type ExtremeRow,
  type Piece,
} from './chunk-pieces.js';
import type { ChunkKey } from './chunk-rows.js';
import { Decoded, idOf, readExtremes, type SampleReader, type Segment } from './sample-reads.js';
import { chunkPoints } from '../metrics/effective-points.js';
import type { LineageMetric } from '../metrics/lineage-series.js';
import type { StoredPoint } from '../metrics/series-row.js';

export type { Segment } from './sample-reads.js';

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

const sameKey = (a: ChunkKey, b: ChunkKey): boolean => a.step === b.step && a.tie === b.tie;

/** An end point of a range and the chunk that holds it. */
interface End {
  point: StoredPoint;
  seriesId: number;
  key: ChunkKey;
}

/** Returns the first (or last) point of the chunks in [from, to], decoding from that end. */
async function endPoint(
  decoded: Decoded,
  seg: Segment,
  rows: readonly ExtremeRow[],
  which: 'first' | 'last',
): Promise<End | undefined> {
  for (let k = 0; k < rows.length; k++) {
    const key = keyOfRow(rows[which === 'first' ? k : rows.length - 1 - k]!);
    const found = chunkPoints(await decoded.get(seg.seriesId, key), seg.from, seg.to);
    const point = which === 'first' ? found[0] : found[found.length - 1];
    if (point) return { point, seriesId: seg.seriesId, key };
  }
  return undefined;
}

/**
 * A test of whether a chunk's index row is its piece: the chunk lies wholly in [from, to] and
 * in one bucket, and holds neither end point, so its points make one piece, the one its row
 * gives. Always false when `skip` is false.
 */
function wholeInOneBucket(
  seg: Segment,
  bucketOf: (step: number) => number,
  ends: readonly End[],
  skip: boolean,
): (r: ExtremeRow) => boolean {
  return (r) =>
    skip &&
    stepOfRow(r) >= seg.from &&
    lastStepOfRow(r) <= seg.to &&
    bucketOf(stepOfRow(r)) === bucketOf(lastStepOfRow(r)) &&
    !ends.some((e) => e.seriesId === seg.seriesId && sameKey(e.key, keyOfRow(r)));
}

/**
 * Adds the pieces of a segment's chunks bucketed by point: a chunk wholly in one bucket by
 * its index row (wholeInOneBucket), the others read and bucketed from their bytes (in one
 * query when most must be read).
 */
async function addPointPieces(
  decoded: Decoded,
  seg: Segment,
  rows: readonly ExtremeRow[],
  bucketOf: (step: number) => number,
  ends: readonly End[],
  add: (p: Piece) => void,
  skip: boolean,
): Promise<void> {
  const whole = rows.map(wholeInOneBucket(seg, bucketOf, ends, skip));
  const points = ends.map((e) => e.point);
  const inOneQuery = whole.filter((w) => !w).length > rows.length / 2;
  const bytes = inOneQuery ? await decoded.range(seg) : null;
  for (const [k, r] of rows.entries()) {
    const key = keyOfRow(r);
    if (whole[k]) {
      add(pieceOfRow(seg.seriesId, r));
      continue;
    }
    const b = bytes ? bytes.get(idOf(seg.seriesId, key)) : await decoded.bytes(seg.seriesId, key);
    if (b) pushPiecesOfBytes(add, seg.seriesId, key, b, seg.from, seg.to, bucketOf, points);
  }
}

/**
 * At most `limit` effective points of the segments by shape-preserving sampling, as
 * samplePoints (domain/sampling.ts) chooses them: the first and the last point, and each
 * bucket's minimum and maximum of the points between them (its first point when it holds no
 * finite value). With at least as many chunks as buckets, a chunk inside the range counts in
 * the bucket of its first step and its extremes come from the index; the chunks at the
 * range's ends are decoded. With fewer, points are bucketed one by one. Either way a chunk
 * wholly in one bucket holding no end point comes from its index row, as its points would
 * (with `skip` false such chunks are read too: the tests' reference). Returns null when the
 * range holds no more than `limit` points.
 */
export async function sampleSegments(
  tx: SampleReader,
  segments: readonly Segment[],
  limit: number,
  skip = true,
): Promise<StoredPoint[] | null> {
  const groups = Math.floor((limit - 2) / 2);
  if (segments.length === 0 || groups < 1) return null;
  const rowsBySegment = await readExtremes(tx, segments);
  const count = rowsBySegment.reduce((n, rows) => n + rows.length, 0);
  const decoded = new Decoded(tx);
  const withChunks = segments.flatMap((_, i) => (rowsBySegment[i]!.length > 0 ? [i] : []));
  if (withChunks.length === 0) return null;
  const firstSeg = withChunks[0]!;
  const lastSeg = withChunks[withChunks.length - 1]!;
  const [headRows, tailRows] = [rowsBySegment[firstSeg]!, rowsBySegment[lastSeg]!];
  await decoded.load([
    { seriesId: segments[firstSeg]!.seriesId, key: keyOfRow(headRows[0]!) },
    { seriesId: segments[lastSeg]!.seriesId, key: keyOfRow(tailRows[tailRows.length - 1]!) },
  ]);
  const firstEnd = await endPoint(decoded, segments[firstSeg]!, rowsBySegment[firstSeg]!, 'first');
  const lastEnd = await endPoint(decoded, segments[lastSeg]!, rowsBySegment[lastSeg]!, 'last');
  if (!firstEnd || !lastEnd) return null;
  const [first, last] = [firstEnd.point, lastEnd.point];
  const endList = first.step === last.step && first.time === last.time ? [firstEnd] : [firstEnd, lastEnd];
  const ends = endList.map((e) => e.point);
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
      await addPointPieces(decoded, seg, rowsBySegment[i]!, bucketOf, endList, add, skip);
      continue;
    }
    const whole = wholeInOneBucket(seg, bucketOf, endList, skip);
    for (const r of rowsBySegment[i]!) {
      const inside = stepOfRow(r) >= seg.from && lastStepOfRow(r) <= seg.to;
      const atEnd = stepOfRow(r) <= first.step || lastStepOfRow(r) >= last.step;
      // A chunk at an end in one bucket, holding no end point, makes the piece its row makes.
      if ((inside && !atEnd) || whole(r)) {
        const held = byGroup[bucketOf(stepOfRow(r))];
        if (held) {
          total += Number(r[3]);
          absorbRow(held, r);
        } else add(pieceOfRow(seg.seriesId, r));
      } else {
        const key = keyOfRow(r);
        const b = await decoded.bytes(seg.seriesId, key);
        pushPiecesOfBytes(add, seg.seriesId, key, b, seg.from, seg.to, bucketOf, ends);
      }
    }
  }
  if (total <= limit) return null;
  return pickPoints(decoded, ends, byGroup);
}

/**
 * The sample: the ends and each bucket's minimum and maximum (its first point when it holds
 * no finite value), by ascending step then time, each point once (a sys/ series holds several
 * points at one step).
 */
async function pickPoints(
  decoded: Decoded,
  ends: readonly StoredPoint[],
  byGroup: readonly (Piece | undefined)[],
): Promise<StoredPoint[]> {
  const out: StoredPoint[] = [...ends];
  for (const g of byGroup) {
    if (!g) continue;
    if (g.minStep === null || g.maxStep === null) {
      const found = chunkPoints(await decoded.get(g.seriesId, g.key), g.firstStep, g.firstStep);
      const head = found.find((p) => !ends.some((e) => e.step === p.step && e.time === p.time));
      if (head) out.push(head);
      continue;
    }
    out.push({ step: g.minStep, time: g.minTime, value: g.minValue, flag: 0 });
    out.push({ step: g.maxStep, time: g.maxTime, value: g.maxValue, flag: 0 });
  }
  out.sort((a, b) => a.step - b.step || a.time - b.time);
  // Equal keys are the same point (a bucket's minimum that is also its maximum): keep the first.
  return out.filter((p, i) => i === 0 || p.step !== out[i - 1]!.step || p.time !== out[i - 1]!.time);
}
