/**
 * Merging incoming points into a chunk's points (pure): one point per key — the step, or
 * (step, time) in a series keyed by time (domain/time-keyed.ts) — the later time winning
 * (equal times: the incoming point), and what the merge means for the summary.
 *
 * Incoming points are a series' columns of one batch (PointColumns) and the indexes of those
 * to merge: no object per point, whose step, time and value would each be boxed.
 */
import { compareKeys, tieOf } from '../../../domain/time-keyed.js';
import { lowerBoundKey, type ChunkPoints, type ChunkView } from './chunk-codec.js';

/** One series' points of a batch in ascending key order, one per key; values NaN or ±Infinity as sent. */
export type PointColumns = ChunkView;

/** What a merge did. */
export interface MergeOutcome {
  /** Indexes of the incoming points at keys the chunk did not hold, ascending. */
  added: number[];
  /** Points written (added, or replacing a stored point). */
  written: number;
  /** Latest time written. */
  lastTime: number;
  /** True when a stored value changed or the series' earliest time may have moved. */
  recompute: boolean;
}

const sameValue = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * Merges the points at `picks` (ascending indexes into `src`) into c in place. `firstTime` is
 * the series' earliest stored time: replacing a point of that time asks for a recompute.
 */
export function mergeInto(
  c: ChunkPoints,
  src: PointColumns,
  picks: readonly number[],
  firstTime: number | null,
  byTime: boolean,
): MergeOutcome {
  const out: MergeOutcome = { added: [], written: 0, lastTime: -Infinity, recompute: false };
  if (c.steps.length === 0) {
    // A new chunk takes every point as it is (picks ascend): arrays made at their size.
    c.steps = picks.map((j) => src.steps[j]!);
    c.times = picks.map((j) => src.times[j]!);
    c.values = picks.map((j) => src.values[j]!);
    for (const t of c.times) if (t > out.lastTime) out.lastTime = t;
    return { ...out, added: [...picks], written: picks.length };
  }
  for (const j of picks) {
    const step = src.steps[j]!;
    const time = src.times[j]!;
    const value = src.values[j]!;
    const n = c.steps.length;
    const tie = tieOf(byTime, time);
    const after = n > 0 && compareKeys(c.steps[n - 1]!, tieOf(byTime, c.times[n - 1]!), step, tie) < 0;
    const i = after || n === 0 ? n : lowerBoundKey(c, byTime, step, tie);
    if (i < n && c.steps[i] === step && tieOf(byTime, c.times[i]!) === tie) {
      const oldTime = c.times[i]!;
      if (oldTime > time) continue;
      if (sameValue(c.values[i]!, value)) {
        if (oldTime === time) continue;
        if (oldTime === firstTime) out.recompute = true;
      } else out.recompute = true;
      c.times[i] = time;
      c.values[i] = value;
    } else if (i === n) {
      c.steps.push(step);
      c.times.push(time);
      c.values.push(value);
      out.added.push(j);
    } else {
      c.steps.splice(i, 0, step);
      c.times.splice(i, 0, time);
      c.values.splice(i, 0, value);
      out.added.push(j);
    }
    out.written += 1;
    if (time > out.lastTime) out.lastTime = time;
  }
  return out;
}

/** Returns points [from, to) of a chunk as a chunk of their own. */
export function slicePoints(c: ChunkPoints, from: number, to: number): ChunkPoints {
  return { steps: c.steps.slice(from, to), times: c.times.slice(from, to), values: c.values.slice(from, to) };
}
