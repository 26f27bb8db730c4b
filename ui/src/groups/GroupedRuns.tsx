import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { RunGroup } from '@server/api/schemas/groups';
import type { RunNarrowing } from '../api/run-list-queries';
import { RUN_PAGE_SIZE, runListPageQuery } from '../api/run-list-queries';
import { useRunGroups } from '../api/group-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { formatValue } from '../format';
import { runPath } from '../paths';
import { sqidOf } from '../runs-table/run-cells';
import { groupId, groupLabel } from './group-label';
import { meanPlusMinus } from './band';
import { groupNarrowing } from './group-runs';
import './groups.css';

/** The most group rows the table shows (the first in the groups' order). */
const MAX_GROUP_ROWS = 500;

/** The runs of one open group, one row each (the first RUN_PAGE_SIZE by the table's sort). */
function GroupRunRows({
  org,
  project,
  narrowing,
  sort,
  metrics,
  runCount,
}: {
  org: string;
  project: string;
  narrowing: RunNarrowing | undefined;
  sort: string;
  metrics: readonly string[];
  runCount: number;
}) {
  const list = useQuery({
    ...runListPageQuery({ projectName: project, ...narrowing, sort, metrics }, 0),
    enabled: narrowing !== undefined,
  });
  const span = metrics.length + 2;
  const note = (text: string, role?: 'alert' | 'status') => (
    <tr className="group-run">
      <td colSpan={span} className="muted" role={role}>
        {text}
      </td>
    </tr>
  );
  if (narrowing === undefined)
    return note('The runs of this group cannot be listed as a filter (runs without a group tag)');
  if (list.isPending) return note('Loading runs…', 'status');
  if (list.isError) return note(`Could not load the group’s runs: ${list.error.message}`, 'alert');
  return (
    <>
      {list.data.runs.map((run) => (
        <tr key={run.id} className="group-run">
          <td>
            <Link to={runPath(org, run.projectName, sqidOf(run.url))}>{run.name}</Link>
          </td>
          <td>
            <span className={`status status-${run.status}`}>{run.status}</span>
          </td>
          {metrics.map((m) => (
            <td key={m} className="num">
              {formatValue(run.summary?.[m]?.last)}
            </td>
          ))}
        </tr>
      ))}
      {runCount > RUN_PAGE_SIZE && note(`The first ${RUN_PAGE_SIZE} of ${runCount.toLocaleString('en-US')} runs`)}
    </>
  );
}

/**
 * The runs table grouped (`GET /api/runs/groups`): one row per group with its name, run
 * count and each metric column's mean ± standard deviation over the runs' last values; a
 * group opens to list its runs.
 */
export function GroupedRuns({
  org,
  project,
  groupBy,
  narrowing,
  sort,
  metrics,
}: {
  org: string;
  project: string;
  groupBy: readonly string[];
  narrowing: RunNarrowing;
  sort: string;
  /** The metric columns' names (their last values are summarised). */
  metrics: readonly string[];
}) {
  const groups = useRunGroups({ projectName: project, groupBy, ...narrowing }, metrics);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  if (groups.isPending) return <Loading label="Grouping runs…" />;
  if (groups.isError) return <ErrorState error={groups.error} onRetry={() => void groups.refetch()} />;
  if (groups.data.groups.length === 0) return <Empty title="No runs to group" />;
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const cell = (g: RunGroup, m: string) => {
    const s = g.summary?.[m];
    return (
      <td
        key={m}
        className="num"
        title={s ? `n ${s.n} · min ${formatValue(s.min)} · max ${formatValue(s.max)}` : undefined}
      >
        {meanPlusMinus(s?.mean, s?.std, formatValue)}
      </td>
    );
  };
  return (
    <div className="runs-scroll" role="region" aria-label="Runs table" aria-busy={groups.isFetching} tabIndex={0}>
      <table className="runs-table grouped-runs">
        <caption className="visually-hidden">
          {groups.data.total} {groups.data.total === 1 ? 'group' : 'groups'} of runs by {groupBy.join(', ')}
        </caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col" className="group-count-col">
              Runs
            </th>
            {metrics.map((m) => (
              <th key={m} scope="col" className="num" title={`Mean ± standard deviation of the runs’ last ${m}`}>
                {m} (last, mean ± std)
              </th>
            ))}
          </tr>
        </thead>
        {groups.data.groups.slice(0, MAX_GROUP_ROWS).map((g) => {
          const id = groupId(groupBy, g.key);
          const label = groupLabel(groupBy, g.key);
          const isOpen = open.has(id);
          return (
            <tbody key={id} className={groups.isPlaceholderData ? 'stale' : undefined}>
              <tr className="group-row">
                <th scope="row">
                  <button type="button" className="group-toggle" aria-expanded={isOpen} onClick={() => toggle(id)}>
                    <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span> {label}
                  </button>
                </th>
                <td className="group-count">
                  {g.runCount.toLocaleString('en-US')} {g.runCount === 1 ? 'run' : 'runs'}
                </td>
                {metrics.map((m) => cell(g, m))}
              </tr>
              {isOpen && (
                <GroupRunRows
                  org={org}
                  project={project}
                  narrowing={groupNarrowing(narrowing, groupBy, g.key)}
                  sort={sort}
                  metrics={metrics}
                  runCount={g.runCount}
                />
              )}
            </tbody>
          );
        })}
      </table>
      {groups.data.groups.length > MAX_GROUP_ROWS && (
        <p className="muted grouped-note" role="status">
          The first {MAX_GROUP_ROWS} of {groups.data.groups.length.toLocaleString('en-US')} groups: group by fewer or
          coarser fields to see them all
        </p>
      )}
    </div>
  );
}
