/**
 * Metric points packed for a hop between threads: each logName once, then four Float64 per
 * point (name index, step, time, value). A Float64Array is copied (or moved) as one block,
 * where an array of point objects is cloned field by field.
 */
import type { MetricPointInput } from '../../domain/types.js';

/** Points as packPoints returns them. */
export interface PackedPoints {
  names: string[];
  /** (name index, step, time, value) per point, in the batch's order. */
  cols: Float64Array;
}

/** Returns the points packed, in their order (values NaN and ±Infinity kept as they are). */
export function packPoints(points: readonly MetricPointInput[]): PackedPoints {
  const index = new Map<string, number>();
  const names: string[] = [];
  const cols = new Float64Array(4 * points.length);
  let k = 0;
  for (const p of points) {
    let at = index.get(p.logName);
    if (at === undefined) {
      at = names.length;
      index.set(p.logName, at);
      names.push(p.logName);
    }
    cols[k++] = at;
    cols[k++] = p.step;
    cols[k++] = p.time;
    cols[k++] = p.value;
  }
  return { names, cols };
}

/** True when a value is PackedPoints rather than an array of points. */
export const isPacked = (v: readonly MetricPointInput[] | PackedPoints): v is PackedPoints => !Array.isArray(v);
