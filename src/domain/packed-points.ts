/**
 * Metric points packed: each logName once, then four Float64 per point (name index, step,
 * time, value). Ingest packs a request's lines straight into this form (no object per
 * point); a Float64Array crosses to the writer thread as one moved block, where an array of
 * point objects is cloned field by field.
 */
import type { MetricPointInput } from './types.js';

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

/** Values logged together at one step and time, by logName (a parsed metric line). */
export interface StepValues {
  step: number;
  time: number;
  values: readonly { logName: string; value: number }[];
}

/** Returns the lines' points packed, in line order (the same as packPoints of their points). */
export function packLines(lines: readonly StepValues[]): PackedPoints {
  let count = 0;
  for (const line of lines) count += line.values.length;
  const index = new Map<string, number>();
  const names: string[] = [];
  const cols = new Float64Array(4 * count);
  let k = 0;
  for (const line of lines) {
    for (const { logName, value } of line.values) {
      let at = index.get(logName);
      if (at === undefined) {
        at = names.length;
        index.set(logName, at);
        names.push(logName);
      }
      cols[k++] = at;
      cols[k++] = line.step;
      cols[k++] = line.time;
      cols[k++] = value;
    }
  }
  return { names, cols };
}

/** True when a value is PackedPoints rather than an array of points. */
export const isPacked = (v: readonly MetricPointInput[] | PackedPoints): v is PackedPoints => !Array.isArray(v);
