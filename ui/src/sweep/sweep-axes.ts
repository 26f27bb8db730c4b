/**
 * The sweep panels' data: each chosen field of each run as a number to draw. A field whose
 * values are all numbers is a number axis (its min..max); any other is a category axis, its
 * distinct values in sorted order (numbers, then strings, then booleans; missing last).
 */
import type { RunRow } from '@server/api/schemas/runs';
import { configValue } from '../runs-table/run-cells';

/** A value a sweep axis holds: missing or non-scalar values read as null. */
export type AxisValue = number | string | boolean | null;

/** A field the panels draw: `config.<key>`, or `summary_metrics.<name>` (a metric's last value). */
export type SweepField = string;

/** The `config.<key>` field of a config key, and the `summary_metrics.<name>` field of a metric. */
export const configField = (key: string): SweepField => `config.${key}`;
export const metricField = (name: string): SweepField => `summary_metrics.${name}`;

/** A field's short name: the last part of a config key, the whole metric name. */
export function fieldLabel(field: SweepField): string {
  if (field.startsWith('summary_metrics.')) return field.slice(16);
  const key = field.startsWith('config.') ? field.slice(7) : field;
  return key.split('.').pop() || key;
}

/** A field's value in a run: a config leaf, or the metric's last finite value. */
export function fieldValue(run: RunRow, field: SweepField): AxisValue {
  if (field.startsWith('summary_metrics.')) {
    const v = run.summary?.[field.slice(16)]?.last;
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  }
  const v = configValue(run.config, field.startsWith('config.') ? field.slice(7) : field);
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return typeof v === 'string' || typeof v === 'boolean' ? v : null;
}

export type Axis =
  | {
      field: SweepField;
      label: string;
      kind: 'number';
      min: number;
      max: number;
      /** Positive values spanning 10× or more (a learning rate): placed by their logarithm. */
      log: boolean;
    }
  | { field: SweepField; label: string; kind: 'category'; categories: AxisValue[] };

const rank = (v: AxisValue) => (v === null ? 3 : typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);

/** Orders axis values: numbers ascending, then strings, then booleans (false first), null last. */
export function compareValues(a: AxisValue, b: AxisValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return Number(a) - Number(b);
}

/** The axis of `field` over `values` (one per run); a number axis when every present value is a number. */
export function axisOf(field: SweepField, values: readonly AxisValue[]): Axis {
  const label = fieldLabel(field);
  const present = values.filter((v) => v !== null);
  if (present.length > 0 && present.every((v) => typeof v === 'number')) {
    const nums = present as number[];
    const min = Math.min(...nums);
    const max = Math.max(...nums);
    return { field, label, kind: 'number', min, max, log: min > 0 && max / min >= 10 };
  }
  const categories = [...new Set(values)].sort(compareValues);
  return { field, label, kind: 'category', categories };
}

/**
 * A value's place on its axis from 0 (bottom) to 1 (top), or null when a number axis has no
 * value for the run. A number axis with one value puts it in the middle; a category axis
 * spaces its categories evenly.
 */
export function axisPosition(axis: Axis, value: AxisValue): number | null {
  if (axis.kind === 'number') {
    if (typeof value !== 'number') return null;
    if (axis.max === axis.min) return 0.5;
    if (axis.log) return value > 0 ? Math.log(value / axis.min) / Math.log(axis.max / axis.min) : null;
    return (value - axis.min) / (axis.max - axis.min);
  }
  const i = axis.categories.findIndex((c) => c === value);
  if (i < 0) return null;
  return axis.categories.length === 1 ? 0.5 : i / (axis.categories.length - 1);
}

/**
 * The value at a place on a number axis (the inverse of axisPosition); places within 3% of an
 * end snap to the end's exact value, so a brush dragged from the top keeps the largest value.
 */
export function axisValueAt(axis: Axis & { kind: 'number' }, at: number): number {
  if (at >= 0.97) return axis.max;
  if (at <= 0.03) return axis.min;
  if (axis.log) return axis.min * (axis.max / axis.min) ** at;
  return axis.min + at * (axis.max - axis.min);
}

/** A value as an axis shows it. */
export function showAxisValue(value: AxisValue): string {
  if (value === null) return '—';
  if (typeof value === 'number') return String(Number(value.toPrecision(4)));
  return String(value);
}

/** A field's values as a number column for the importance fit: numbers as they are, categories by their index; NaN when missing. */
export function featureColumn(axis: Axis, values: readonly AxisValue[]): number[] {
  if (axis.kind === 'number') return values.map((v) => (typeof v === 'number' ? v : NaN));
  return values.map((v) => (v === null ? NaN : axis.categories.indexOf(v)));
}
