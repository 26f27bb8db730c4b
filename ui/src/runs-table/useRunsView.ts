import { useCallback, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AGGREGATIONS, type Aggregation, type Direction } from '@server/domain/aggregation';
import { type BandKind, readBand, readGroupBy } from '../groups/group-by';
import { type Brush, decodeBrush, encodeBrush } from '../sweep/brush';
import { decodeColumn, encodeColumn, type ExtraColumn } from './columns';

/**
 * What the runs page shows, read from and written to its URL so that a link shares it:
 * `q` (name search), `status`, `tags` (comma-separated), `sort` (`-createdAt` by default),
 * `filter` (the API's JSON), `col` (repeated: `config:<key>`, `metric:<agg>:<name>`),
 * `sel` (selected run ids), `view=leaderboard` with `metric`, `agg`, `dir` (each left out for its default),
 * `group` (the Group by fields, comma-separated) with `band`, and the sweep panels: `sweep=1`
 * (shown), `axes` (their config keys), `smetric` (their metric), `sx` (the scatter's key) and
 * `brush` (repeated: the parallel-coordinates brushes, which narrow the runs too).
 */
export interface RunsView {
  search: string;
  status: string[];
  tags: string[];
  sort: string;
  filter: string;
  columns: ExtraColumn[];
  selected: number[];
  view: 'table' | 'leaderboard';
  /** `metric` '' and `direction` undefined: the page's defaults for the project's metrics. */
  leaderboard: { metric: string; aggregation: Aggregation; direction: Direction | undefined };
  /** Group by: up to three fields (groups/group-by.ts); empty: runs one per row. */
  groupBy: string[];
  band: BandKind;
  brushes: Brush[];
  /** The sweep panels: shown or not, their config keys, their metric and the scatter's key ('' and []: defaults). */
  sweep: { open: boolean; axes: string[]; metric: string; x: string };
}

/** `update` of useRunsView: a change (or a function of the current view to one), pushed or replacing. */
export type UpdateView = (
  change: Partial<RunsView> | ((current: RunsView) => Partial<RunsView>),
  options?: { push?: boolean },
) => void;

/** Whether any filter (search, status, tags, filter JSON) narrows the runs. */
export const isFiltered = (view: RunsView): boolean =>
  view.search !== '' ||
  view.status.length > 0 ||
  view.tags.length > 0 ||
  view.filter.trim() !== '' ||
  view.brushes.length > 0;

/** The change that removes every filter (and every brush). */
export const NO_FILTERS = { search: '', status: [], tags: [], filter: '', brushes: [] } satisfies Partial<RunsView>;

/** The sort when the URL names none: newest first, as the API does. */
export const DEFAULT_SORT = '-createdAt';

const list = (text: string | null): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function readDirection(text: string | null): Direction | undefined {
  const dir = text?.toUpperCase();
  return dir === 'ASC' || dir === 'DESC' ? dir : undefined;
}

function read(params: URLSearchParams): RunsView {
  const agg = (params.get('agg') ?? '').toUpperCase();
  return {
    search: params.get('q') ?? '',
    status: list(params.get('status')).map((s) => s.toUpperCase()),
    tags: list(params.get('tags')),
    sort: params.get('sort') || DEFAULT_SORT,
    filter: params.get('filter') ?? '',
    columns: params
      .getAll('col')
      .map(decodeColumn)
      .filter((c): c is ExtraColumn => c !== undefined),
    selected: list(params.get('sel'))
      .map(Number)
      .filter((n) => Number.isSafeInteger(n) && n > 0),
    view: params.get('view') === 'leaderboard' ? 'leaderboard' : 'table',
    leaderboard: {
      metric: params.get('metric') ?? '',
      aggregation: (AGGREGATIONS as readonly string[]).includes(agg) ? (agg as Aggregation) : 'LAST',
      direction: readDirection(params.get('dir')),
    },
    groupBy: readGroupBy(params.get('group')),
    band: readBand(params.get('band')),
    brushes: params
      .getAll('brush')
      .map(decodeBrush)
      .filter((b): b is Brush => b !== undefined),
    sweep: {
      open: params.get('sweep') === '1',
      axes: list(params.get('axes')),
      metric: params.get('smetric') ?? '',
      x: params.get('sx') ?? '',
    },
  };
}

/** The URL parameters the view owns; write() leaves every other one (the charts' settings) as it is. */
const VIEW_PARAMS = [
  'q',
  'status',
  'tags',
  'sort',
  'filter',
  'col',
  'sel',
  'view',
  'metric',
  'agg',
  'dir',
  'group',
  'band',
  'brush',
  'sweep',
  'axes',
  'smetric',
  'sx',
];

function write(view: RunsView, prev: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(prev);
  for (const name of VIEW_PARAMS) out.delete(name);
  if (view.search) out.set('q', view.search);
  if (view.status.length) out.set('status', view.status.join(','));
  if (view.tags.length) out.set('tags', view.tags.join(','));
  if (view.sort && view.sort !== DEFAULT_SORT) out.set('sort', view.sort);
  if (view.filter) out.set('filter', view.filter);
  for (const c of view.columns) out.append('col', encodeColumn(c));
  if (view.selected.length) out.set('sel', view.selected.join(','));
  if (view.view === 'leaderboard') out.set('view', 'leaderboard');
  if (view.leaderboard.metric) out.set('metric', view.leaderboard.metric);
  if (view.leaderboard.aggregation !== 'LAST') out.set('agg', view.leaderboard.aggregation);
  if (view.leaderboard.direction) out.set('dir', view.leaderboard.direction);
  if (view.groupBy.length) out.set('group', view.groupBy.join(','));
  if (view.band !== 'std') out.set('band', view.band);
  for (const b of view.brushes) out.append('brush', encodeBrush(b));
  if (view.sweep.open) out.set('sweep', '1');
  if (view.sweep.axes.length) out.set('axes', view.sweep.axes.join(','));
  if (view.sweep.metric) out.set('smetric', view.sweep.metric);
  if (view.sweep.x) out.set('sx', view.sweep.x);
  return out;
}

/**
 * The page's view and `update(change)`, which writes a new URL. Changes replace the history
 * entry (typing a search is not a trail of Back steps), except switching views. The router
 * applies a new URL in a transition, so the change also shows at once from local state (a
 * checkbox ticks when clicked) until the URL has caught up.
 */
export function useRunsView() {
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => read(params), [params]);
  const base = params.toString();
  const [pending, setPending] = useState<{ base: string; view: RunsView } | null>(null);
  const view = pending && pending.base === base ? pending.view : fromUrl;
  const latest = useRef(view);
  latest.current = view;
  const update: UpdateView = useCallback(
    (change, options = {}) => {
      const before = latest.current;
      const next = { ...before, ...(typeof change === 'function' ? change(before) : change) };
      latest.current = next;
      setPending({ base, view: next });
      setParams((prev) => write(next, prev), { replace: !options.push });
    },
    [base, setParams],
  );
  return { view, update };
}
