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

/** Numbers names in first-seen order: the names list of a PackedPoints being built. */
class NameIndex {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  /** Returns the name's number, adding it when new. */
  of(name: string): number {
    let at = this.index.get(name);
    if (at === undefined) {
      at = this.names.length;
      this.index.set(name, at);
      this.names.push(name);
    }
    return at;
  }
}

/** Returns the points packed, in their order (values NaN and ±Infinity kept as they are). */
export function packPoints(points: readonly MetricPointInput[]): PackedPoints {
  const names = new NameIndex();
  const cols = new Float64Array(4 * points.length);
  let k = 0;
  for (const p of points) {
    cols[k++] = names.of(p.logName);
    cols[k++] = p.step;
    cols[k++] = p.time;
    cols[k++] = p.value;
  }
  return { names: names.names, cols };
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
  const names = new NameIndex();
  const cols = new Float64Array(4 * count);
  let k = 0;
  for (const line of lines) {
    for (const { logName, value } of line.values) {
      cols[k++] = names.of(logName);
      cols[k++] = line.step;
      cols[k++] = line.time;
      cols[k++] = value;
    }
  }
  return { names: names.names, cols };
}

/** Returns the batches as one, in order: names of the first batch first, then new ones. */
export function mergePacked(batches: readonly PackedPoints[]): PackedPoints {
  let total = 0;
  for (const b of batches) total += b.cols.length;
  const names = new NameIndex();
  const cols = new Float64Array(total);
  let k = 0;
  for (const b of batches) {
    const map = b.names.map((name) => names.of(name));
    for (let j = 0; j < b.cols.length; j += 4) {
      cols[k++] = map[b.cols[j]!]!;
      cols[k++] = b.cols[j + 1]!;
      cols[k++] = b.cols[j + 2]!;
      cols[k++] = b.cols[j + 3]!;
    }
  }
  return { names: names.names, cols };
}

/** Returns the points packed: as they are when already packed, else by packPoints. */
export const toPacked = (points: readonly MetricPointInput[] | PackedPoints): PackedPoints =>
  Array.isArray(points) ? packPoints(points) : (points as PackedPoints);
