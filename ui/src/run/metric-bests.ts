/** The rows of a run's "Metrics" card: each metric's final value and its best one. */
import type { MetricStats } from '@server/api/schemas/metrics';
import { bestExtreme } from '../default-metric';

/** One metric: its last point and, for a loss or a score, its best finite value. */
export interface MetricBest {
  name: string;
  /** The last point's value; null when it is not finite or there is no point. */
  final: number | null;
  finalStep: number | null;
  /** Where the best value is: the minimum of a loss, the maximum of a score; undefined otherwise. */
  extreme: 'min' | 'max' | undefined;
  /** The best finite value; null when the metric has none or no direction. */
  best: number | null;
  /** Finite values. */
  count: number;
}

/**
 * The metrics whose name contains `find` (ASCII case folded), the run's own first and its
 * system metrics (`sys/`) after, each part in the order given (the API's: by name).
 */
export function metricBests(metrics: readonly MetricStats[], find = ''): MetricBest[] {
  const needle = find.trim().toLowerCase();
  const kept = needle ? metrics.filter((m) => m.logName.toLowerCase().includes(needle)) : metrics;
  const system = (m: MetricStats) => m.logName.startsWith('sys/');
  return [...kept.filter((m) => !system(m)), ...kept.filter(system)].map((m) => {
    const extreme = bestExtreme(m.logName);
    return {
      name: m.logName,
      final: m.last?.value ?? null,
      finalStep: m.last?.step ?? null,
      extreme,
      best: extreme === undefined ? null : m[extreme],
      count: m.count,
    };
  });
}
