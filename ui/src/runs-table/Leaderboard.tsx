import { Link } from 'react-router';
import { AGGREGATIONS, type Aggregation } from '@server/domain/aggregation';
import { Empty, Loading } from '../components/States';
import { defaultDirection, defaultMetric } from '../default-metric';
import { formatTime, formatValue } from '../format';
import { runPath } from '../paths';
import { sqidOf } from './run-cells';
import { Field } from './Field';
import { FilterProblem } from './FilterProblem';
import { useRanking } from './useRanking';
import { NO_FILTERS, type RunsView, type UpdateView } from './useRunsView';
import { ViewFilters } from './ViewFilters';

const AGG_LABELS: Record<Aggregation, string> = {
  LAST: 'Last value',
  MIN: 'Minimum',
  MAX: 'Maximum',
  AVG: 'Mean',
  VARIANCE: 'Variance',
};

/** The choices of the aggregation list: the default (LAST) first, then the server's order. */
const AGGREGATION_CHOICES: readonly Aggregation[] = ['LAST', ...AGGREGATIONS.filter((a) => a !== 'LAST')];

/**
 * The project's runs ranked by one metric (see useRanking), by default the first loss (or
 * other non-system metric) with the best runs first. The table's filters (kept in the URL)
 * show as chips and narrow the ranking, whatever the aggregation.
 */
export function Leaderboard({
  org,
  project,
  metricNames,
  metricsLoading,
  view,
  update,
}: {
  org: string;
  project: string;
  metricNames: readonly string[];
  metricsLoading: boolean;
  view: RunsView;
  update: UpdateView;
}) {
  const { metric, aggregation } = view.leaderboard;
  const onChange = (change: Partial<RunsView['leaderboard']>) =>
    update((v) => ({ leaderboard: { ...v.leaderboard, ...change } }));
  const chosen = metric || defaultMetric(metricNames);
  const direction = view.leaderboard.direction ?? defaultDirection(chosen);
  const board = useRanking(project, view, chosen, aggregation, direction);
  const { runs, total } = board;

  return (
    <section aria-label="Leaderboard" className="leaderboard">
      <form className="toolbar" onSubmit={(e) => e.preventDefault()}>
        <Field label="Metric">
          {(id) => (
            <>
              <select
                id={id}
                value={chosen}
                disabled={metricNames.length === 0}
                onChange={(e) => onChange({ metric: e.target.value })}
              >
                {metricNames.length === 0 && <option value="">{metricsLoading ? 'Loading…' : 'No metrics yet'}</option>}
                {chosen && !metricNames.includes(chosen) && <option value={chosen}>{chosen}</option>}
                {metricNames.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </>
          )}
        </Field>
        <Field label="Aggregation">
          {(id) => (
            <>
              <select
                id={id}
                value={aggregation}
                onChange={(e) => onChange({ aggregation: e.target.value as Aggregation })}
              >
                {AGGREGATION_CHOICES.map((a) => (
                  <option key={a} value={a}>
                    {AGG_LABELS[a]}
                  </option>
                ))}
              </select>
            </>
          )}
        </Field>
        <Field label="Direction">
          {(id) => (
            <>
              <select
                id={id}
                value={direction}
                onChange={(e) => onChange({ direction: e.target.value === 'DESC' ? 'DESC' : 'ASC' })}
              >
                <option value="ASC">Lowest first</option>
                <option value="DESC">Highest first</option>
              </select>
            </>
          )}
        </Field>
        {total !== undefined && (
          <span className="muted count" aria-live="polite">
            {total.toLocaleString()} {board.filtered ? 'matching ' : ''}
            {total === 1 ? 'run' : 'runs'} ranked by {AGG_LABELS[aggregation].toLowerCase()} of{' '}
            <span className="mono">{chosen}</span>
          </span>
        )}
      </form>
      <ViewFilters view={view} update={update} />
      {!chosen && !metricsLoading && (
        <Empty title="No metrics to rank by">Runs of this project have not logged any metric yet.</Empty>
      )}
      {chosen && board.isPending && <Loading label="Ranking runs…" />}
      {board.error && (
        <FilterProblem
          error={board.error}
          hasJsonFilter={view.filter !== ''}
          onEdit={() => update({ view: 'table' }, { push: true })}
          onClear={() => update(view.filter !== '' ? { filter: '' } : NO_FILTERS)}
          onRetry={board.refetch}
        />
      )}
      {board.isSuccess && runs.length === 0 && (
        <Empty
          title={
            board.filtered
              ? `No run that matches the filters has a value for ${chosen}`
              : `No run has a value for ${chosen}`
          }
        >
          {board.filtered ? 'Remove a filter to rank more runs.' : 'Runs appear here once they log this metric.'}
        </Empty>
      )}
      {runs.length > 0 && (
        <div className="scroll-x leaderboard-scroll">
          <table className={`leaderboard-table${board.isPlaceholderData ? ' stale' : ''}`}>
            <caption className="visually-hidden">
              Runs ranked by {AGG_LABELS[aggregation].toLowerCase()} of {chosen},{' '}
              {direction === 'ASC' ? 'lowest' : 'highest'} first
            </caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Rank
                </th>
                <th scope="col" className="num" title={`${AGG_LABELS[aggregation]} of ${chosen}`}>
                  Value
                </th>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Tags</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.runId}>
                  <td className="num">{r.rank}</td>
                  <td className="num mono">{formatValue(r.value)}</td>
                  <td className="name-cell" title={r.runName}>
                    <Link to={runPath(org, project, sqidOf(r.url))}>{r.runName}</Link>
                  </td>
                  <td>
                    <span className={`status status-${r.status}`}>{r.status}</span>
                  </td>
                  <td>
                    {r.tags.map((t) => (
                      <span key={t} className="tag">
                        {t}
                      </span>
                    ))}
                  </td>
                  <td>
                    <time dateTime={r.createdAt}>{formatTime(r.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {board.hasNextPage && (
        <button type="button" className="secondary" disabled={board.isFetchingNextPage} onClick={board.fetchNextPage}>
          {board.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      )}
    </section>
  );
}
