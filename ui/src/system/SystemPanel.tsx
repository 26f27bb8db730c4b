import { useMemo } from 'react';
import type { RunDetails } from '@server/api/schemas/runs';
import { RunCharts } from '../charts/RunCharts';
import { useOpenLogsAt } from '../run/useOpenLogsAt';

/**
 * The run's System tab: its `sys/*` metrics (a fork's inherited ones too) as charts, against
 * time since the run started unless the URL's `x` says otherwise (system samples are taken by
 * the clock, not per step, so the page's step zoom does not apply here). The Charts tab leaves
 * these names out. A click on a point opens the console at that time.
 */
export function SystemPanel({ run }: { run: RunDetails }) {
  const running = run.status === 'RUNNING';
  const openLogsAt = useOpenLogsAt();
  const runs = useMemo(
    () => [{ runId: run.id, name: run.name, number: run.number, live: running, forkStep: run.forkStep }],
    [run.id, run.name, run.number, running, run.forkStep],
  );
  return <RunCharts runs={runs} kind="system" onPointClick={openLogsAt} />;
}
