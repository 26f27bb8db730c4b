import { useId, useMemo } from 'react';
import { swatchCss } from '../charts/run-colors';
import { useCompareStats } from '../api/compare-queries';
import { chartNamesRequest, useMetricNames } from '../api/metric-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { defaultMetric } from '../default-metric';
import { formatValue } from '../format';
import type { ColoredRun } from './CompareRunList';

/** The most metric names the select offers. */
const STATS_NAMES = 1000;

/**
 * The statistics of one metric across the runs (`GET /api/runs/compare`): a select labelled
 * "Metric" (the choice is `metric` in the URL), then count, min, max, mean and final value
 * per run. Runs without a finite value of the metric show dashes.
 */
export function CompareStats(props: {
  projectName: string;
  runs: ColoredRun[];
  metric: string | null;
  onMetric: (name: string) => void;
}) {
  const { projectName, runs, metric, onMetric } = props;
  const selectId = useId();
  const runIds = runs.map(({ run }) => run.id);
  const live = runs.some(({ run }) => run.status === 'RUNNING');
  // The charts' names request (so one request, not two beside the charts' series), its sorted
  // names cut to the select's first STATS_NAMES.
  const names = useMetricNames(
    chartNamesRequest(
      projectName,
      runs.map(({ run }) => ({ runId: run.id, live: run.status === 'RUNNING' })),
      true,
    ),
  );
  const list = useMemo(() => names.data?.slice(0, STATS_NAMES) ?? [], [names.data]);
  const chosen = metric && list.includes(metric) ? metric : defaultMetric(list);
  const stats = useCompareStats(projectName, runIds, chosen, live);

  if (names.isPending) return <Loading label="Loading metric names…" />;
  if (names.isError) return <ErrorState error={names.error} onRetry={() => void names.refetch()} />;
  if (list.length === 0) {
    return <Empty title="No metrics logged yet">These runs have no metrics to compare.</Empty>;
  }
  const byId = new Map((stats.data?.runs ?? []).map((r) => [r.runId, r]));
  return (
    <>
      <div className="compare-metric">
        <label htmlFor={selectId}>Metric</label>
        <select id={selectId} value={chosen} onChange={(event) => onMetric(event.target.value)}>
          {list.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        {stats.isFetching && <span className="muted">Updating…</span>}
      </div>
      {stats.isError ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
      ) : !stats.data ? (
        <Loading label="Loading statistics…" />
      ) : (
        <div className="scroll-x card table-card">
          <table>
            <caption className="visually-hidden">Statistics of {chosen} per run</caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col" className="num">
                  Count
                </th>
                <th scope="col" className="num">
                  Min
                </th>
                <th scope="col" className="num">
                  Max
                </th>
                <th scope="col" className="num">
                  Mean
                </th>
                <th scope="col" className="num">
                  Final
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map(({ run, style }) => {
                const s = byId.get(run.id)?.stats ?? null;
                return (
                  <tr key={run.id}>
                    <th scope="row">
                      <span className="swatch" style={swatchCss(style)} aria-hidden="true" /> {run.name}
                    </th>
                    <td className="num">{s ? s.count.toLocaleString() : '—'}</td>
                    <td className="num">{formatValue(s?.min)}</td>
                    <td className="num">{formatValue(s?.max)}</td>
                    <td className="num">{formatValue(s?.mean)}</td>
                    <td className="num">{formatValue(s?.final)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
