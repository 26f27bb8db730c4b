import type { ReactNode } from 'react';
import type { RunRow } from '@server/api/schemas/runs';
import { formatDuration, formatTime, formatValue } from '../format';
import { runPath } from '../paths';
import { RunNameLink } from './RunNameLink';
import { columnLabel, columnSortField, encodeColumn, type ExtraColumn } from './columns';
import { configValue, runDuration, showConfigValue, sqidOf } from './run-cells';

/** One column of the runs table. */
export interface TableColumn {
  id: string;
  label: string;
  width: number;
  /** The API `sort` field, when the column can be sorted. */
  sortField?: string;
  /** Why it cannot be sorted, for the header's title. */
  note?: string;
  numeric?: boolean;
  /** Stays at the left (after the selection boxes) while the table scrolls sideways; first columns only. */
  pinned?: boolean;
  extra?: ExtraColumn;
  cell: (run: RunRow, now: number) => ReactNode;
  /** Plain text of the cell for its title (long values are cut with an ellipsis). */
  title?: (run: RunRow, now: number) => string | undefined;
}

/** The fixed columns, then the person's added ones. */
export function tableColumns(org: string, columns: readonly ExtraColumn[]): TableColumn[] {
  const fixed: TableColumn[] = [
    {
      id: 'name',
      label: 'Name',
      width: 240,
      pinned: true,
      sortField: 'name',
      cell: (run) => <RunNameLink to={runPath(org, run.projectName, sqidOf(run.url))} name={run.name} />,
      title: (run) => run.name,
    },
    { id: 'id', label: 'ID', width: 110, cell: (run) => <span className="mono">{run.displayId}</span> },
    {
      id: 'status',
      label: 'Status',
      width: 132,
      sortField: 'status',
      cell: (run) => <span className={`status status-${run.status}`}>{run.status}</span>,
    },
    {
      id: 'tags',
      label: 'Tags',
      width: 180,
      note: 'Tags cannot be sorted; filter by them with Tags.',
      cell: (run) =>
        run.tags.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          run.tags.map((t) => (
            <span key={t} className="tag">
              {t}
            </span>
          ))
        ),
      title: (run) => run.tags.join(', ') || undefined,
    },
    {
      id: 'created',
      label: 'Created',
      width: 172,
      sortField: 'createdAt',
      cell: (run) => <time dateTime={run.createdAt}>{formatTime(run.createdAt)}</time>,
      title: (run) => run.createdAt,
    },
    {
      id: 'createdBy',
      label: 'Created by',
      width: 140,
      note: 'Created by is not sortable; filter by it with createdBy (a user id or name).',
      cell: (run) => run.createdBy?.name ?? <span className="muted">—</span>,
      title: (run) => run.createdBy?.name,
    },
    {
      id: 'duration',
      label: 'Duration',
      width: 104,
      numeric: true,
      note: 'Duration is not sortable; a finished run counts to its last update.',
      cell: (run, now) => formatDuration(runDuration(run, now).ms),
      title: (run, now) =>
        runDuration(run, now).approximate
          ? 'Approximate: from creation to the run’s last update'
          : 'Running: from creation until now',
    },
  ];
  const added = columns.map((column): TableColumn => {
    const sortField = columnSortField(column);
    if (column.kind === 'config') {
      return {
        id: encodeColumn(column),
        label: columnLabel(column),
        width: 140,
        sortField,
        extra: column,
        cell: (run) => showConfigValue(configValue(run.config, column.key)),
        title: (run) => showConfigValue(configValue(run.config, column.key)),
      };
    }
    return {
      id: encodeColumn(column),
      label: columnLabel(column),
      width: 170,
      sortField,
      numeric: true,
      extra: column,
      cell: (run) => formatValue(run.summary?.[column.name]?.[column.agg]),
      title: (run) => {
        const s = run.summary?.[column.name];
        return s
          ? `last ${formatValue(s.last)} · min ${formatValue(s.min)} · max ${formatValue(s.max)} · ` +
              `mean ${formatValue(s.mean)} · ${s.count} points`
          : undefined;
      },
    };
  });
  return [...fixed, ...added];
}
