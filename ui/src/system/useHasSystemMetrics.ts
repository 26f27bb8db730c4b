import { chartNamesRequest, useMetricNames } from '../api/metric-queries';
import type { RunDetails } from '@server/api/schemas/runs';
import { isSystemName } from './system-names';

/**
 * True when one of `runs` has numeric `sys/` series: its own (from its details) or, for a
 * fork, inherited from its parents (the runs' metric names: the request their charts make,
 * so no extra one). False until a fork's names arrive.
 */
export function useHasSystemMetrics(runs: readonly RunDetails[]): boolean {
  const own = runs.some((run) => run.logNames.some((n) => n.logType === 'METRIC' && isSystemName(n.logName)));
  const forks = !own && runs.some((run) => run.forkedFromRunId !== null);
  const names = useMetricNames(
    chartNamesRequest(
      runs[0]?.projectName,
      runs.map((run) => ({ runId: run.id, live: run.status === 'RUNNING' })),
      forks,
    ),
  );
  return own || (forks && (names.data ?? []).some(isSystemName));
}
