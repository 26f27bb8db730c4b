import { useMemo } from 'react';
import type { RunDetails } from '@server/api/schemas/runs';
import { RunCharts } from '../charts/RunCharts';
import { Empty } from '../components/States';
import { useOpenLogsAt } from '../run/useOpenLogsAt';

/** Where a system name starts: the pluto client logs CPU, memory, GPU, disk and network under `sys/`. */
export const SYSTEM_PREFIX = 'sys/';

/**
 * The run's System tab: its `sys/*` metrics as charts, against time since the run started
 * unless the URL's `x` says otherwise (system samples are taken by the clock, not per step).
 * The Charts tab leaves these names out while this tab is shown. A click on a point opens the
 * console at that time.
 */
export function SystemPanel({ run }: { run: RunDetails }) {
  const running = run.status === 'RUNNING';
  const names = run.logNames
    .filter((n) => n.logType === 'METRIC' && n.logName.startsWith(SYSTEM_PREFIX))
    .map((n) => n.logName);
  const namesKey = names.join('\u0000');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- namesKey stands for names
  const logNames = useMemo(() => names, [namesKey]);
  const openLogsAt = useOpenLogsAt();
  const runs = useMemo(
    () => [{ runId: run.id, name: run.name, live: running, forkStep: run.forkStep }],
    [run.id, run.name, running, run.forkStep],
  );
  if (logNames.length === 0) {
    return (
      <Empty title="No system metrics">
        <p className="muted">This run has logged no numeric sys/ metrics.</p>
      </Empty>
    );
  }
  return <RunCharts runs={runs} logNames={logNames} defaultX="relative" onPointClick={openLogsAt} />;
}
