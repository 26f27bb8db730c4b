import { useRunMetricNames } from '../api/metric-queries';
import type { RunDetails } from '@server/api/schemas/runs';
import { isSystemName } from './system-names';

/**
 * True when one of `runs` has numeric `sys/` series: its own (from its details) or, for a
 * fork, inherited from its parents (its metric names, the same query the charts make, so no
 * extra request). False until a fork's names arrive.
 */
export function useHasSystemMetrics(runs: readonly RunDetails[]): boolean {
  const own = runs.some((run) => run.logNames.some((n) => n.logType === 'METRIC' && isSystemName(n.logName)));
  const forks = own ? [] : runs.filter((run) => run.forkedFromRunId !== null);
  const names = useRunMetricNames(
    forks.map((run) => ({ runId: run.id, projectName: run.projectName, live: run.status === 'RUNNING' })),
  );
  return own || names.some((q) => (q.data ?? []).some(isSystemName));
}
