/**
 * The band around a group's mean at one bucket: mean ± sample standard deviation, mean ±
 * standard error, or min..max. A bucket with one run (std null) has a band of no width.
 */
import type { BandKind } from './group-by';

/** What a bucket of `GET /api/runs/groups/metrics` says (the fields the band needs). */
export interface BucketStats {
  n: number;
  mean: number;
  std: number | null;
  stderr?: number | null;
  min: number;
  max: number;
}

/** `[low, high]` of the band of `kind` at a bucket. */
export function bandOf(b: BucketStats, kind: BandKind): [number, number] {
  if (kind === 'minmax') return [b.min, b.max];
  const spread = kind === 'std' ? b.std : (b.stderr ?? (b.std === null ? null : b.std / Math.sqrt(b.n)));
  const d = spread === null || !Number.isFinite(spread) ? 0 : spread;
  return [b.mean - d, b.mean + d];
}

/** Mean, sample standard deviation (null when fewer than 2), min and max of finite `values`. */
export function summarize(
  values: readonly number[],
): { n: number; mean: number; std: number | null; min: number; max: number } | null {
  const xs = values.filter((v) => Number.isFinite(v));
  if (xs.length === 0) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const std = xs.length < 2 ? null : Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
  return { n: xs.length, mean, std, min: Math.min(...xs), max: Math.max(...xs) };
}

/** "0.512 ± 0.031" (the mean alone without a spread). */
export function meanPlusMinus(
  mean: number | null | undefined,
  std: number | null | undefined,
  format: (v: number) => string,
): string {
  if (mean === null || mean === undefined) return '—';
  return std === null || std === undefined ? format(mean) : `${format(mean)} ± ${format(std)}`;
}
