/**
 * A metric batch split by series into columns (steps, times, values in Float64Arrays), each
 * series' points in ascending key order, one per key (step, or step and time for a series
 * keyed by time): the later time wins, equal times the later line. No object per point.
 */
import type { PackedPoints } from '../../../domain/packed-points.js';
import { compareKeys, keyedByTime, tieOf } from '../../../domain/time-keyed.js';
import type { PointColumns } from '../chunks/chunk-merge.js';

/**
 * Returns the batch's points per logName as columns. A series sent in ascending keys (the
 * usual case) is taken in the order it came, without a map or a sort.
 */
export function batchColumns(batch: PackedPoints): Map<string, PointColumns> {
  const { names, cols } = batch;
  const counts = new Int32Array(names.length);
  for (let k = 0; k < cols.length; k += 4) counts[cols[k]!]! += 1;
  const total = cols.length / 4;
  const starts = new Int32Array(names.length);
  for (let i = 1; i < names.length; i++) starts[i] = starts[i - 1]! + counts[i - 1]!;
  // One buffer: every series' steps, then every series' times, then values.
  const all = new Float64Array(3 * total);
  const next = starts.slice();
  for (let k = 0; k < cols.length; k += 4) {
    const at = next[cols[k]!]!++;
    all[at] = cols[k + 1]!;
    all[total + at] = cols[k + 2]!;
    all[2 * total + at] = cols[k + 3]!;
  }
  const out = new Map<string, PointColumns>();
  for (const [i, name] of names.entries()) {
    const from = starts[i]!;
    const to = from + counts[i]!;
    const series = {
      steps: all.subarray(from, to),
      times: all.subarray(total + from, total + to),
      values: all.subarray(2 * total + from, 2 * total + to),
    };
    const byTime = keyedByTime(name);
    out.set(name, ascending(series, byTime) ? series : dedupe(series, byTime));
  }
  return out;
}

/** Compares the keys of points i and j of the columns. */
function compareAt(c: PointColumns, byTime: boolean, i: number, j: number): number {
  return compareKeys(c.steps[i]!, tieOf(byTime, c.times[i]!), c.steps[j]!, tieOf(byTime, c.times[j]!));
}

/** True when the points' keys strictly ascend. */
function ascending(c: PointColumns, byTime: boolean): boolean {
  for (let j = 1; j < c.steps.length; j++) if (compareAt(c, byTime, j - 1, j) >= 0) return false;
  return true;
}

/** Returns one point per key (later time wins, equal times the later one), in ascending key order. */
function dedupe(c: PointColumns, byTime: boolean): PointColumns {
  const kept = new Map<number | string, number>();
  for (let j = 0; j < c.steps.length; j++) {
    const key = byTime ? `${c.steps[j]}:${c.times[j]}` : c.steps[j]!;
    const held = kept.get(key);
    if (held === undefined || c.times[j]! >= c.times[held]!) kept.set(key, j);
  }
  const order = [...kept.values()].sort((i, j) => compareAt(c, byTime, i, j));
  const pick = (column: ArrayLike<number>) => {
    const out = new Float64Array(order.length);
    for (let i = 0; i < order.length; i++) out[i] = column[order[i]!]!;
    return out;
  };
  return { steps: pick(c.steps), times: pick(c.times), values: pick(c.values) };
}
