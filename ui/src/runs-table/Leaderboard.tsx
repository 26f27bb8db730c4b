import { Link } from 'react-router';
import { AGGREGATIONS, type Aggregation, type Direction } from '@server/domain/aggregation';
import { useLeaderboard } from '../api/run-list-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { formatTime, formatValue } from '../format';
import { runPath } from '../paths';
import { sqidOf } from './run-cells';
import { Field } from './Field';

const AGG_LABELS: Record<Aggregation, string> = {
  LAST: 'Last value',
  MIN: 'Minimum',
  MAX: 'Maximum',
  AVG: 'Mean',
  VARIANCE: 'Variance',
};

/** The choices of the aggregation list: the default (LAST) first, then the server's order. */
const AGGREGATION_CHOICES: readonly Aggregation[] = ['LAST', ...AGGREGATIONS.filter((a) => a !== 'LAST')];

/** The project's runs ranked by one metric (`GET /api/runs/leaderboard`). */
export function Leaderboard({
  org,
  project,
  metricNames,
  metricsLoading,
  metric,
  aggregation,
  direction,
  onChange,
}: {
  org: string;
  project: string;
  metricNames: readonly string[];
  metricsLoading: boolean;
  metric: string;
  aggregation: Aggregation;
  direction: Direction;
  onChange: (change: { metric?: string; aggregation?: Aggregation; direction?: Direction }) => void;
}) {
  const chosen = metric || metricNames[0] || '';
  const board = useLeaderboard(project, chosen, aggregation, direction);
  const runs = board.data?.pages.flatMap((p) => p.runs) ?? [];
  const total = board.data?.pages[0]?.total;

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
            {total.toLocaleString()} {total === 1 ? 'run' : 'runs'} ranked by {AGG_LABELS[aggregation].toLowerCase()} of{' '}
            <span className="mono">{chosen}</span>
          </span>
        )}
      </form>
      {!chosen && !metricsLoading && (
        <Empty title="No metrics to rank by">Runs of this project have not logged any metric yet.</Empty>
      )}
      {chosen && board.isPending && <Loading label="Ranking runs…" />}
      {board.isError && <ErrorState error={board.error} onRetry={() => void board.refetch()} />}
      {board.isSuccess && runs.length === 0 && (
        <Empty title={`No run has a value for ${chosen}`}>Runs appear here once they log this metric.</Empty>
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
        <button
          type="button"
          className="secondary"
          disabled={board.isFetchingNextPage}
          onClick={() => void board.fetchNextPage()}
        >
          {board.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      )}
    </section>
  );
}
