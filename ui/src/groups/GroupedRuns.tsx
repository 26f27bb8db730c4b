import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { RunGroup } from '@server/api/schemas/groups';
import type { RunNarrowing } from '../api/run-list-queries';
import { RUN_PAGE_SIZE, runListPageQuery } from '../api/run-list-queries';
import { useRunGroups } from '../api/group-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { formatValue } from '../format';
import { runPath } from '../paths';
import { columnLabel, columnMetrics, encodeColumn, type ExtraColumn } from '../runs-table/columns';
import { configValue, showConfigValue, sqidOf } from '../runs-table/run-cells';
import { RowLook, type RowLooks } from '../workspace/RowLook';
import { columnSummaries, groupConfigCell, groupMetricCell, withoutRuns } from './group-cells';
import { groupId, groupLabel } from './group-label';
import { groupNarrowing } from './group-runs';
import './groups.css';

/** The most group rows the table shows (the first in the groups' order). */
const MAX_GROUP_ROWS = 500;

/**
 * The runs of one open group, one row each (the first RUN_PAGE_SIZE by the table's sort),
 * hidden runs too, each with its colour and charts toggle when the table has `looks`.
 */
function GroupRunRows({
  org,
  project,
  narrowing,
  sort,
  columns,
  runCount,
  looks,
}: {
  org: string;
  project: string;
  narrowing: RunNarrowing | undefined;
  sort: string;
  columns: readonly ExtraColumn[];
  runCount: number;
  looks?: RowLooks;
}) {
  const metrics = useMemo(() => columnMetrics(columns), [columns]);
  const list = useQuery({
    ...runListPageQuery({ projectName: project, ...narrowing, sort, metrics }, 0),
    enabled: narrowing !== undefined,
  });
  const span = columns.length + 2;
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
            {looks && <RowLook run={run} looks={{ ...looks, charted: new Set([run.id]) }} />}
            <Link to={runPath(org, run.projectName, sqidOf(run.url))}>{run.name}</Link>
          </td>
          <td>
            <span className={`status status-${run.status}`}>{run.status}</span>
          </td>
          {columns.map((c) =>
            c.kind === 'metric' ? (
              <td key={encodeColumn(c)} className="num">
                {formatValue(run.summary?.[c.name]?.[c.agg])}
              </td>
            ) : (
              <td key={encodeColumn(c)}>{showConfigValue(configValue(run.config, c.key))}</td>
            ),
          )}
        </tr>
      ))}
      {runCount > RUN_PAGE_SIZE && note(`The first ${RUN_PAGE_SIZE} of ${runCount.toLocaleString('en-US')} runs`)}
    </>
  );
}

/**
 * The runs table grouped (`GET /api/runs/groups`): one row per group with its name, run
 * count (hidden runs left out), each metric column's mean ± standard deviation over the
 * runs' values of the column's summary (last, min, max or mean) and each config column's
 * shared value or number of values; a group opens to list its runs, hidden ones too.
 */
export function GroupedRuns({
  org,
  project,
  groupBy,
  narrowing,
  hidden = [],
  sort,
  columns,
  looks,
}: {
  org: string;
  project: string;
  groupBy: readonly string[];
  narrowing: RunNarrowing;
  /** Runs hidden from the charts: left out of every group. */
  hidden?: readonly number[];
  sort: string;
  /** The table's added columns: metric summaries and config keys. */
  columns: readonly ExtraColumn[];
  looks?: RowLooks;
}) {
  const metrics = useMemo(() => columnMetrics(columns), [columns]);
  const extras = useMemo(
    () => ({
      summaries: columnSummaries(columns),
      configKeys: columns.flatMap((c) => (c.kind === 'config' ? [c.key] : [])),
    }),
    [columns],
  );
  const groups = useRunGroups(
    { projectName: project, groupBy, ...narrowing, filter: withoutRuns(narrowing.filter, hidden) },
    metrics,
    extras,
  );
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
  const cell = (g: RunGroup, c: ExtraColumn) => {
    const { text, title } = c.kind === 'metric' ? groupMetricCell(g, c) : groupConfigCell(g.configValues?.[c.key]);
    return (
      <td key={encodeColumn(c)} className={c.kind === 'metric' ? 'num' : undefined} title={title}>
        {text}
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
            {columns.map((c) =>
              c.kind === 'metric' ? (
                <th
                  key={encodeColumn(c)}
                  scope="col"
                  className="num"
                  title={`Mean ± standard deviation of the runs’ ${c.agg} ${c.name}`}
                >
                  {c.name} ({c.agg}, mean ± std)
                </th>
              ) : (
                <th key={encodeColumn(c)} scope="col" title={`The runs’ ${c.key}: one value, or how many`}>
                  {columnLabel(c)}
                </th>
              ),
            )}
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
                {columns.map((c) => cell(g, c))}
              </tr>
              {isOpen && (
                <GroupRunRows
                  org={org}
                  project={project}
                  narrowing={groupNarrowing(narrowing, groupBy, g.key)}
                  sort={sort}
                  columns={columns}
                  runCount={g.runCount}
                  looks={looks}
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
