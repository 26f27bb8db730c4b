/**
 * Merging incoming points into a chunk's points (pure): one point per key — the step, or
 * (step, time) in a series keyed by time (domain/time-keyed.ts) — the later time winning
 * (equal times: the incoming point), and what the merge means for the summary.
 */
import { compareKeys, tieOf } from '../../domain/time-keyed.js';
import { lowerBoundKey, type ChunkPoints } from './chunk-codec.js';

/** An incoming point; value NaN or ±Infinity for non-finite values. */
export interface RawPoint {
  step: number;
  time: number;
  value: number;
}

/** What a merge did. */
export interface MergeOutcome {
  /** Points at steps the chunk did not hold. */
  added: RawPoint[];
  /** Points written (added, or replacing a stored point). */
  written: number;
  /** Latest time written. */
  lastTime: number;
  /** True when a stored value changed or the series' earliest time may have moved. */
  recompute: boolean;
}

const sameValue = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * Merges points (ascending keys, each once) into c in place. `firstTime` is the series'
 * earliest stored time: replacing a point of that time asks for a recompute.
 */
export function mergeInto(
  c: ChunkPoints,
  points: readonly RawPoint[],
  firstTime: number | null,
  byTime: boolean,
): MergeOutcome {
  const out: MergeOutcome = { added: [], written: 0, lastTime: -Infinity, recompute: false };
  for (const p of points) {
    const n = c.steps.length;
    const tie = tieOf(byTime, p.time);
    const after = n > 0 && compareKeys(c.steps[n - 1]!, tieOf(byTime, c.times[n - 1]!), p.step, tie) < 0;
    const i = after ? n : lowerBoundKey(c, byTime, p.step, tie);
    if (i < n && c.steps[i] === p.step && tieOf(byTime, c.times[i]!) === tie) {
      const oldTime = c.times[i]!;
      if (oldTime > p.time) continue;
      if (sameValue(c.values[i]!, p.value)) {
        if (oldTime === p.time) continue;
        if (oldTime === firstTime) out.recompute = true;
      } else out.recompute = true;
      c.times[i] = p.time;
      c.values[i] = p.value;
    } else if (i === n) {
      c.steps.push(p.step);
      c.times.push(p.time);
      c.values.push(p.value);
      out.added.push(p);
    } else {
      c.steps.splice(i, 0, p.step);
      c.times.splice(i, 0, p.time);
      c.values.splice(i, 0, p.value);
      out.added.push(p);
    }
    out.written += 1;
    if (p.time > out.lastTime) out.lastTime = p.time;
  }
  return out;
}

/** Returns points [from, to) of a chunk as a chunk of their own. */
export function slicePoints(c: ChunkPoints, from: number, to: number): ChunkPoints {
  return { steps: c.steps.slice(from, to), times: c.times.slice(from, to), values: c.values.slice(from, to) };
}
