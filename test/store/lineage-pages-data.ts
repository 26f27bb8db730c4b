/**
 * The three-run lineage the lineageMetricPages tests read: names shared by several runs,
 * names of one run only, names visible only past a fork step (left out), and code points
 * whose UTF-16 order differs from code point order.
 */
import type { LineageLink } from '../../src/domain/types.js';
import type { SqlSeriesStore } from '../../src/store/sql/series-store.js';

/** Run 3 forks run 2 at step 5, which forks run 1 at step 7. */
export const lineage: LineageLink[] = [
  { runId: 3, maxStep: Infinity },
  { runId: 2, maxStep: 5 },
  { runId: 1, maxStep: 7 },
];

/** The metrics lineageMetrics finds in the lineage once loadLineage has run. */
export const VISIBLE_METRICS = 20 + 15 + 2 + 12 + 9;

/** Writes the lineage's points into `store`. */
export async function loadLineage(store: SqlSeriesStore): Promise<void> {
  const names = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${prefix}/${String(i).padStart(2, '0')}`);
  const point = (logName: string, step: number) => ({ logName, step, time: step, value: step });
  await store.appendMetrics(
    { id: 1, projectId: 1 },
    [...names('a', 20), ...names('shared', 15), '\u{1F600}', '\uFFFD'].map((n) => point(n, 3)),
  );
  await store.appendMetrics(
    { id: 2, projectId: 1 },
    [...names('b', 12), ...names('shared', 15)].map((n) => point(n, 4)),
  );
  await store.appendMetrics(
    { id: 2, projectId: 1 },
    names('late', 6).map((n) => point(n, 9)),
  );
  await store.appendMetrics(
    { id: 3, projectId: 1 },
    [...names('c', 9), ...names('shared', 15)].map((n) => point(n, 6)),
  );
}
