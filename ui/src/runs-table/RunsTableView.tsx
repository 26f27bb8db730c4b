import { DeleteRunsDialog } from './DeleteRunsDialog';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { type RunListParams, runListPageQuery, useRunPages } from '../api/run-list-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { GroupByControl } from '../groups/GroupByControl';
import { GroupCharts } from '../groups/GroupCharts';
import { GroupedRuns } from '../groups/GroupedRuns';
import { withoutRuns } from '../groups/group-cells';
import { comparePath } from '../paths';
import { isSystemName } from '../system/system-names';
import { brushedFilter } from '../sweep/brush';
import { SweepPanels } from '../sweep/SweepPanels';
import { columnMetrics, encodeColumn, type ExtraColumn } from './columns';
import { ColumnsControl } from './ColumnsControl';
import { ConditionBuilder } from './ConditionBuilder';
import { compileFilter, readConditions } from './filter-conditions';
import { FilterJson } from './FilterJson';
import { FilterProblem } from './FilterProblem';
import { configKeys } from './run-cells';
import { RunsGrid } from './RunsGrid';
import { SearchBox } from './SearchBox';
import { StatusFilter } from './StatusFilter';
import { tableColumns } from './table-columns';
import { TagsFilter } from './TagsFilter';
import { isFiltered, NO_FILTERS, type RunsView, type UpdateView } from './useRunsView';
import { ViewFilters } from './ViewFilters';
import type { RowLooks } from '../workspace/RowLook';
import type { WorkspaceActions } from '../workspace/useWorkspace';
import { WorkspaceCharts } from '../workspace/WorkspaceCharts';
import { WorkspaceLayout } from '../workspace/WorkspaceLayout';
import { MAX_CHARTED_RUNS, type WorkspaceState } from '../workspace/workspace-state';

/** "12 runs", or with filters "1 run matches" / "3 runs match". */
function countText(total: number, filtered: boolean): string {
  const n = total.toLocaleString();
  if (!filtered) return `${n} ${total === 1 ? 'run' : 'runs'}`;
  return total === 1 ? `${n} run matches` : `${n} runs match`;
}

/** The compare page takes at most this many runs. */
const MAX_COMPARE = 100;

/** The rows request of `view` in `project`; `metrics` are its columns' (columnMetrics). */
export function runListParams(project: string, view: RunsView, metrics: readonly string[]): RunListParams {
  return {
    projectName: project,
    search: view.search,
    tags: view.tags,
    status: view.status,
    sort: view.sort,
    filter: brushedFilter(view.filter, view.brushes),
    metrics,
  };
}

/**
 * The runs of a project as a filterable, sortable, virtualised table, with selection and
 * Compare. Everything it filters or sorts by is in `view` (the URL); the API does the work.
 */
export function RunsTableView({
  org,
  project,
  view,
  update,
  metricNames,
  metricsLoading,
  empty,
  workspace,
}: {
  org: string;
  project: string;
  view: RunsView;
  update: UpdateView;
  metricNames: readonly string[];
  metricsLoading: boolean;
  /** What to show when the project has no runs at all. */
  empty: ReactNode;
  /** Chart the first rows beside the table, with each row's colour, charts toggle and highlight. */
  workspace?: { state: WorkspaceState; actions: WorkspaceActions };
}) {
  const navigate = useNavigate();
  const [pages, setPages] = useState<number[]>([0]);
  const metrics = useMemo(() => columnMetrics(view.columns), [view.columns]);
  const params: RunListParams = useMemo(
    () => runListParams(project, view, metrics),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the fields runListParams reads
    [project, view.search, view.tags, view.status, view.sort, view.filter, view.brushes, metrics],
  );
  const data = useRunPages(params, pages);
  const client = useQueryClient();
  // A header click asks for the new order's first page at once, not after the page re-renders.
  const sortBy = (sort: string) => {
    void client.prefetchQuery(runListPageQuery(runListParams(project, { ...view, sort }, metrics), 0));
    update({ sort });
  };
  const onPagesInView = useCallback(
    (next: number[]) => setPages((current) => (current.join() === next.join() ? current : next)),
    [],
  );

  const sample = useMemo(() => data.firstPage ?? [], [data.firstPage]);
  const knownKeys = useMemo(() => {
    const keys = new Set<string>();
    for (const run of sample) configKeys(run.config, keys);
    for (const c of view.columns) if (c.kind === 'config') keys.add(c.key);
    return [...keys].sort((a, b) => a.localeCompare(b));
  }, [sample, view.columns]);
  const knownTags = useMemo(() => [...new Set(sample.flatMap((r) => r.tags))], [sample]);
  const columns = useMemo(() => tableColumns(org, view.columns), [org, view.columns]);
  const selected = useMemo(() => new Set(view.selected), [view.selected]);

  const filtered = isFiltered(view);
  const resetKey = JSON.stringify([view.search, view.status, view.tags, view.sort, params.filter]);
  const setColumns = (next: ExtraColumn[]) => update({ columns: next });
  const clearFilters = () => update(NO_FILTERS);
  const [jsonOpen, setJsonOpen] = useState(false);

  // Selection: the loaded rows (every match up to the pages fetched so far), the row a
  // shift-click ranges from, and the header box's state.
  const loadedIds = useMemo(() => {
    const ids: number[] = [];
    for (let i = 0; i < (data.total ?? 0); i++) {
      const run = data.rowAt(i);
      if (run) ids.push(run.id);
    }
    return ids;
  }, [data]);
  const loadedNames = useMemo(() => {
    const names = new Map<number, string>();
    for (let i = 0; i < (data.total ?? 0); i++) {
      const run = data.rowAt(i);
      if (run) names.set(run.id, run.name);
    }
    return names;
  }, [data]);
  const [deleting, setDeleting] = useState(false);
  const anchor = useRef<{ resetKey: string; index: number } | null>(null);
  const selectedLoaded = loadedIds.filter((id) => selected.has(id)).length;
  const allState = selectedLoaded === 0 ? 'none' : selectedLoaded === loadedIds.length ? 'all' : 'some';
  const setSelected = (ids: readonly number[], on: boolean) =>
    update((v) => {
      const drop = new Set(ids);
      const kept = v.selected.filter((x) => !drop.has(x));
      return { selected: on ? [...kept, ...ids] : kept };
    });
  const onToggle = (index: number, on: boolean, shift: boolean) => {
    const from = anchor.current?.resetKey === resetKey ? anchor.current.index : undefined;
    anchor.current = { resetKey, index };
    const ids: number[] = [];
    const [a, b] = shift && from !== undefined ? [Math.min(from, index), Math.max(from, index)] : [index, index];
    for (let i = a; i <= b; i++) {
      const run = data.rowAt(i);
      if (run) ids.push(run.id);
    }
    setSelected(ids, on);
  };

  // The charted rows: the table's first, in its order.
  const charted = useMemo(() => (data.firstPage ?? []).slice(0, MAX_CHARTED_RUNS), [data.firstPage]);
  const chartedIds = useMemo(() => new Set(charted.map((r) => r.id)), [charted]);
  const hiddenIds = useMemo(() => new Set(workspace?.state.hidden), [workspace?.state.hidden]);
  const looks: RowLooks | undefined = workspace && {
    charted: chartedIds,
    hidden: hiddenIds,
    highlight: workspace.state.highlight,
    onHide: workspace.actions.setRunHidden,
    onHover: workspace.actions.setHighlight,
  };

  const grouped = view.groupBy.length > 0;
  const narrowing = { search: params.search, tags: params.tags, status: params.status, filter: params.filter };
  // Hidden runs leave their groups: the grouped lines, bands, legend counts and group rows.
  const hidden = workspace?.state.hidden ?? [];
  const groupParams = {
    projectName: project,
    groupBy: view.groupBy,
    ...narrowing,
    filter: withoutRuns(narrowing.filter, hidden),
  };

  if (!filtered && data.total === 0 && !data.isPlaceholder) return <>{empty}</>;

  const tableBody = data.isPending ? (
    <Loading label="Loading runs…" />
  ) : data.error && data.total === undefined ? (
    <FilterProblem
      error={data.error}
      hasJsonFilter={view.filter !== ''}
      onEdit={() => setJsonOpen(true)}
      onClear={() => update(view.filter !== '' ? { filter: '' } : NO_FILTERS)}
      onRetry={data.refetch}
    />
  ) : data.total === 0 ? (
    <Empty title="No runs match these filters">
      <button type="button" className="secondary" onClick={clearFilters}>
        Clear filters
      </button>
    </Empty>
  ) : grouped ? (
    <GroupedRuns
      org={org}
      project={project}
      groupBy={view.groupBy}
      narrowing={narrowing}
      hidden={hidden}
      sort={view.sort}
      columns={view.columns}
      looks={looks}
    />
  ) : (
    <>
      {data.error !== null && <ErrorState error={data.error} onRetry={data.refetch} />}
      <RunsGrid
        data={data}
        columns={columns}
        sort={view.sort}
        resetKey={resetKey}
        selected={selected}
        onSort={sortBy}
        allState={allState}
        onToggleAll={(on) => setSelected(loadedIds, on)}
        onToggle={onToggle}
        onRemoveColumn={(c) => setColumns(view.columns.filter((x) => encodeColumn(x) !== c.id))}
        onPagesInView={onPagesInView}
        looks={looks}
      />
    </>
  );

  return (
    <div className="runs-view">
      <div className="toolbar" role="toolbar" aria-label="Filter and columns">
        <SearchBox value={view.search} onChange={(search) => update({ search })} />
        <StatusFilter value={view.status} onChange={(status) => update({ status })} />
        <TagsFilter value={view.tags} known={knownTags} onChange={(tags) => update({ tags })} />
        <ConditionBuilder
          metricNames={metricNames}
          configKeys={knownKeys}
          onAdd={(c) => update((v) => ({ filter: compileFilter([...(readConditions(v.filter) ?? []), c]) }))}
        />
        <FilterJson
          key={view.filter}
          value={view.filter}
          open={jsonOpen}
          onOpenChange={setJsonOpen}
          onApply={(filter) => {
            setJsonOpen(false);
            update({ filter });
          }}
        />
        <ColumnsControl
          columns={view.columns}
          metricNames={metricNames}
          metricsLoading={metricsLoading}
          configKeys={knownKeys}
          onChange={setColumns}
        />
        <GroupByControl value={view.groupBy} configKeys={knownKeys} onChange={(groupBy) => update({ groupBy })} />
        <button
          type="button"
          className="secondary"
          aria-pressed={view.sweep.open}
          title={
            view.sweep.open ? 'Hide the sweep panels' : 'Show parallel coordinates, a scatter and parameter importance'
          }
          onClick={() => update((v) => ({ sweep: { ...v.sweep, open: !v.sweep.open } }))}
        >
          Sweep panels
        </button>
      </div>
      <ViewFilters view={view} update={update} />
      {view.sweep.open && (
        <SweepPanels project={project} view={view} update={update} metricNames={metricNames} configKeys={knownKeys} />
      )}
      <div className="selection-bar">
        <span className="count" aria-live="polite">
          {data.total === undefined ? (data.error ? '' : 'Counting runs…') : countText(data.total, filtered)}
          {data.isFetching && data.total !== undefined && <span className="spinner small-spinner" aria-hidden="true" />}
        </span>
        <span className="selection-actions">
          {view.selected.length > 0 && (
            <>
              <span className="muted">{view.selected.length} selected</span>
              <button type="button" className="link-button" onClick={() => update({ selected: [] })}>
                Clear selection
              </button>
              <button type="button" className="secondary" onClick={() => setDeleting(true)}>
                Delete
              </button>
            </>
          )}
          {deleting && (
            <DeleteRunsDialog
              runIds={view.selected}
              names={loadedNames}
              project={project}
              onClose={() => setDeleting(false)}
              onDeleted={() => {
                setDeleting(false);
                update({ selected: [] });
              }}
            />
          )}
          <button
            type="button"
            disabled={view.selected.length < 2 || view.selected.length > MAX_COMPARE}
            title={
              view.selected.length < 2
                ? 'Select two or more runs to compare'
                : view.selected.length > MAX_COMPARE
                  ? `Compare takes at most ${MAX_COMPARE} runs`
                  : undefined
            }
            onClick={() => void navigate(comparePath(org, project, view.selected))}
          >
            Compare{view.selected.length >= 2 ? ` (${view.selected.length})` : ''}
          </button>
        </span>
      </div>
      {workspace && charted.length > 0 ? (
        <WorkspaceLayout
          runs={tableBody}
          charts={
            <>
              {grouped && (
                <GroupCharts
                  params={groupParams}
                  metricNames={metricNames.filter((n) => !isSystemName(n))}
                  band={view.band}
                  onBand={(band) => update({ band })}
                  headingId="workspace-charts-title"
                  layout={workspace.state.layouts.metrics}
                  onLayoutChange={(layout) => workspace.actions.setLayout('metrics', layout)}
                />
              )}
              {/* Grouped: the runs' System section only (system samples are not grouped). */}
              <WorkspaceCharts
                project={project}
                rows={charted}
                total={data.total ?? charted.length}
                state={workspace.state}
                actions={workspace.actions}
                systemOnly={grouped}
              />
            </>
          }
        />
      ) : (
        tableBody
      )}
    </div>
  );
}
