/**
 * Brushes of the parallel-coordinates chart: a range of a number axis or a set of a category
 * axis' values. They live in the page URL (`brush=`, repeated, each a JSON array
 * `[field, lo, hi]` or `[field, [values]]`) and narrow the runs table by joining the view's
 * `filter` (docs/api.md §4) with `$and`.
 */
import { type AxisValue, fieldLabel, showAxisValue, type SweepField } from './sweep-axes';

export type Brush = { field: SweepField; lo: number; hi: number } | { field: SweepField; values: AxisValue[] };

const isScalar = (v: unknown): v is AxisValue =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** The `brush=` value of a brush. */
export const encodeBrush = (b: Brush): string =>
  JSON.stringify('values' in b ? [b.field, b.values] : [b.field, b.lo, b.hi]);

/** The brush of a `brush=` value, or undefined for anything malformed. */
export function decodeBrush(text: string): Brush | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(v) || typeof v[0] !== 'string' || !/^(config|summary_metrics)\../.test(v[0])) return undefined;
  const field = v[0];
  if (v.length === 2 && Array.isArray(v[1]) && v[1].length > 0 && v[1].every(isScalar)) {
    return { field, values: v[1] as AxisValue[] };
  }
  if (v.length === 3 && typeof v[1] === 'number' && typeof v[2] === 'number' && Number.isFinite(v[1] + v[2])) {
    return { field, lo: Math.min(v[1], v[2]), hi: Math.max(v[1], v[2]) };
  }
  return undefined;
}

/** Whether a run's value of the brush's field is inside it. */
export function inBrush(b: Brush, value: AxisValue): boolean {
  if ('values' in b) return b.values.some((x) => x === value);
  return typeof value === 'number' && value >= b.lo && value <= b.hi;
}

/** The filter JSON (as an object) of one brush. */
function brushPart(b: Brush): unknown {
  if (!('values' in b)) return { [b.field]: { $gte: b.lo, $lte: b.hi } };
  const present = b.values.filter((v) => v !== null);
  const set = present.length > 0 ? { [b.field]: { $in: present } } : undefined;
  const missing = b.values.includes(null) ? { [b.field]: { $exists: false } } : undefined;
  return set && missing ? { $or: [set, missing] } : (set ?? missing);
}

/**
 * The `filter` that narrows the runs by the view's `filter` and every brush ('' for none).
 * A view filter that is not JSON is returned as it is (the API reports it).
 */
export function brushedFilter(filter: string, brushes: readonly Brush[]): string {
  if (brushes.length === 0) return filter;
  const parts: unknown[] = [];
  if (filter.trim() !== '') {
    try {
      parts.push(JSON.parse(filter));
    } catch {
      return filter;
    }
  }
  parts.push(...brushes.map(brushPart));
  return JSON.stringify(parts.length === 1 ? parts[0] : { $and: parts });
}

/** "brush lr 0.001–0.003" or "brush optimizer: adamw, sgd", as a chip shows it. */
export function describeBrush(b: Brush): string {
  const name = fieldLabel(b.field);
  if ('values' in b) return `brush ${name}: ${b.values.map(showAxisValue).join(', ')}`;
  return `brush ${name} ${showAxisValue(b.lo)}–${showAxisValue(b.hi)}`;
}
