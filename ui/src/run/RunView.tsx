import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { RunDetails } from '@server/api/schemas/runs';
import { useRunFiles } from '../api/run-queries';
import { ErrorState, Loading } from '../components/States';
import { LogsPanel } from '../logs/LogsPanel';
import { FilesTable } from './FilesTable';
import { OverviewPanel } from './OverviewPanel';
import { AlertsBanner } from './RunAlerts';
import { RunCharts } from '../charts/RunCharts';
import { RunHeader } from './RunHeader';
import { panelId, tabId, Tabs, type TabSpec } from './Tabs';
import { MediaPanel } from '../media/MediaPanel';
import { DataPanel } from '../data-lines/DataPanel';
import { ModelGraphPanel } from '../model-graph/ModelGraphPanel';
import { SystemPanel } from '../system/SystemPanel';
import { useHasSystemMetrics } from '../system/useHasSystemMetrics';
import { useOpenLogsAt } from './useOpenLogsAt';

const PREFIX = 'run';
const BASE_TABS: TabSpec[] = [
  { id: 'charts', label: 'Charts' },
  { id: 'logs', label: 'Logs' },
  { id: 'overview', label: 'Overview' },
];

const MEDIA_TYPES = new Set(['IMAGE', 'AUDIO', 'VIDEO']);
const DATA_TYPES = new Set(['HISTOGRAM', 'TABLE', 'TEXT', 'DATA']);

/**
 * The tabs a run's log names call for, after Charts, Logs and Overview: Media, Data, System
 * (its own or, for a fork, inherited `sys/` series); then Model graph, always (as pluto's run
 * page has it: whether a graph exists is known only by asking, and the tab says how to log
 * one when there is none).
 */
function contentTabs(run: RunDetails, hasSystem: boolean): TabSpec[] {
  const has = (types: Set<string>) => run.logNames.some((n) => types.has(n.logType));
  const tabs: TabSpec[] = [];
  if (has(MEDIA_TYPES)) tabs.push({ id: 'media', label: 'Media' });
  if (has(DATA_TYPES)) tabs.push({ id: 'data', label: 'Data' });
  if (hasSystem) tabs.push({ id: 'system', label: 'System' });
  tabs.push({ id: 'graph', label: 'Model graph' });
  return tabs;
}

/**
 * A run's header and its sections as tabs (Charts, Logs, Overview, and Files when the run
 * has files); the open tab is `?tab=` in the URL. A tab once opened stays mounted (hidden)
 * so its scroll position, zoom and inputs survive switching back and forth.
 */
export function RunView({ run }: { run: RunDetails }) {
  const running = run.status === 'RUNNING';
  const files = useRunFiles(run.id, run.projectName, running);
  const hasFiles = (files.data?.length ?? 0) > 0;
  const hasSystem = useHasSystemMetrics([run]);
  const tabs = [
    ...BASE_TABS,
    ...contentTabs(run, hasSystem),
    ...(hasFiles ? [{ id: 'files', label: `Files (${files.data!.length})` }] : []),
  ];
  const shown = (id: string) => tabs.some((t) => t.id === id);
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') ?? 'charts';
  // `?tab=files` waits for the file list before falling back to Charts.
  const selected = tabs.some((t) => t.id === asked) ? asked : asked === 'files' && files.isPending ? '' : 'charts';
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set([selected]));
  if (selected !== '' && !visited.has(selected)) setVisited(new Set([...visited, selected]));

  const chartRuns = useMemo(
    () => [{ runId: run.id, name: run.name, number: run.number, live: running, forkStep: run.forkStep }],
    [run.id, run.name, run.number, running, run.forkStep],
  );

  const openLogsAt = useOpenLogsAt();

  const select = (id: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('tab', id);
        return next;
      },
      { replace: true },
    );

  const panel = (id: string, content: () => ReactNode) => (
    <div
      key={id}
      role="tabpanel"
      id={panelId(PREFIX, id)}
      aria-labelledby={tabId(PREFIX, id)}
      hidden={selected !== id}
      className="tab-panel"
      tabIndex={0}
    >
      {visited.has(id) && content()}
    </div>
  );

  return (
    <>
      <RunHeader run={run} />
      <AlertsBanner runId={run.id} live={running} onShow={() => select('overview')} />
      <Tabs label="Run sections" prefix={PREFIX} tabs={tabs} selected={selected} onSelect={select} />
      {selected === '' && <Loading />}
      {panel('charts', () => (
        <RunCharts runs={chartRuns} onPointClick={openLogsAt} />
      ))}
      {panel('logs', () => (
        <LogsPanel runId={run.id} projectName={run.projectName} running={running} />
      ))}
      {panel('overview', () => (
        <OverviewPanel run={run} live={running} />
      ))}
      {shown('media') && panel('media', () => <MediaPanel run={run} />)}
      {shown('data') && panel('data', () => <DataPanel run={run} />)}
      {shown('system') && panel('system', () => <SystemPanel run={run} />)}
      {shown('graph') && panel('graph', () => <ModelGraphPanel run={run} />)}
      {hasFiles && panel('files', () => <FilesTable files={files.data!} />)}
      {files.isError && asked === 'files' && <ErrorState error={files.error} onRetry={() => void files.refetch()} />}
    </>
  );
}
