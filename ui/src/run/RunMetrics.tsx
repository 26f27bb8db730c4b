import { useId, useState } from 'react';
import { useRunStatistics } from '../api/statistics-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { formatValue } from '../format';
import { metricBests } from './metric-bests';
import './run-metrics.css';

/** Rows shown before "Show all". */
const FIRST = 20;
/** Rows "Show all" shows at most; past it, the find box narrows the list. */
const MOST = 2_000;

/**
 * A run's metrics with their final and best values (`GET /api/runs/statistics`): the best is
 * the minimum of a loss and the maximum of a score (default-metric.ts), a dash for other
 * names. The first 20 are shown, "Show all" shows up to 2,000, a find box narrows the list.
 */
export function RunMetrics({ runId, projectName, live }: { runId: number; projectName: string; live: boolean }) {
  const stats = useRunStatistics(runId, projectName, live);
  const [find, setFind] = useState('');
  const [all, setAll] = useState(false);
  const findId = useId();
  if (stats.isPending) return <Loading label="Loading metrics…" />;
  if (stats.isError) return <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  const total = stats.data.metrics.length;
  if (total === 0) return <Empty title="No metrics logged yet" />;
  const rows = metricBests(stats.data.metrics, find);
  const shown = rows.slice(0, all ? MOST : FIRST);
  return (
    <div className="run-metrics">
      {total > FIRST && (
        <div className="run-metrics-find">
          <label htmlFor={findId}>Find a metric</label>
          <input id={findId} type="search" value={find} onChange={(e) => setFind(e.target.value)} />
        </div>
      )}
      {rows.length === 0 ? (
        <p className="muted">No metric name contains “{find.trim()}”.</p>
      ) : (
        <div className="scroll-x">
          <table>
            <caption className="visually-hidden">Final and best value of each metric</caption>
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col" className="num">
                  Final
                </th>
                <th scope="col" className="num">
                  Best
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((m) => (
                <tr key={m.name}>
                  <th scope="row" className="mono run-metrics-name">
                    {m.name}
                  </th>
                  <td className="num" title={m.finalStep === null ? undefined : `step ${m.finalStep}`}>
                    {formatValue(m.final)}
                  </td>
                  <td
                    className="num"
                    title={
                      m.extreme
                        ? `the ${m.extreme === 'min' ? 'lowest' : 'highest'} of ${m.count} values`
                        : 'no direction: neither a loss nor a score'
                    }
                  >
                    {m.extreme && m.best !== null ? (
                      <>
                        {formatValue(m.best)} <span className="muted run-metrics-extreme">{m.extreme}</span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > shown.length && (
        <p className="muted run-metrics-more">
          {all ? (
            `Showing the first ${MOST.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')}; find a metric to narrow the list.`
          ) : (
            <button type="button" className="secondary" onClick={() => setAll(true)}>
              Show all {rows.length.toLocaleString('en-US')} metrics
            </button>
          )}
        </p>
      )}
    </div>
  );
}
