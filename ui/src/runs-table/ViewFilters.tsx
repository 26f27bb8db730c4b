import { describeBrush } from '../sweep/brush';
import { ActiveFilters } from './ActiveFilters';
import { compileFilter, readConditions } from './filter-conditions';
import { NO_FILTERS, type RunsView, type UpdateView } from './useRunsView';

/** The view's filters as removable chips (ActiveFilters), each removal written to the URL. */
export function ViewFilters({ view, update }: { view: RunsView; update: UpdateView }) {
  const conditions = readConditions(view.filter);
  return (
    <ActiveFilters
      search={view.search}
      status={view.status}
      tags={view.tags}
      conditions={conditions ?? []}
      customFilter={conditions === undefined ? view.filter : undefined}
      onRemoveSearch={() => update({ search: '' })}
      onRemoveStatus={(s) => update((v) => ({ status: v.status.filter((x) => x !== s) }))}
      onRemoveTag={(t) => update((v) => ({ tags: v.tags.filter((x) => x !== t) }))}
      onRemoveCondition={(i) => update({ filter: compileFilter((conditions ?? []).filter((_, j) => j !== i)) })}
      onRemoveCustom={() => update({ filter: '' })}
      onClear={() => update(NO_FILTERS)}
      more={view.brushes.map((b, i) => ({
        key: `b-${i}`,
        text: describeBrush(b),
        remove: () => update((v) => ({ brushes: v.brushes.filter((_, j) => j !== i) })),
      }))}
    />
  );
}
