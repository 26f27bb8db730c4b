import { useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { RunDetails } from '@server/api/schemas/runs';
import { useMetricNames } from '../api/metric-queries';
import { layoutStorageKey, usePanelLayout } from '../charts/usePanelLayout';
import { GroupByControl } from '../groups/GroupByControl';
import { GroupCharts } from '../groups/GroupCharts';
import { type BandKind, readBand, readGroupBy } from '../groups/group-by';
import { withoutRuns } from '../groups/group-cells';
import { readHidden } from '../workspace/workspace-state';
import { configKeys } from '../runs-table/run-cells';
import { isSystemName } from '../system/system-names';

/**
 * The compare page's grouping (`group=` and `band=` in its URL, as on the runs page): the
 * Group by control, and when grouped the compared runs' charts by group: the groups are
 * asked for the compared runs by id. Runs hidden from the charts (`hide=`) are left out. The
 * grouped charts follow the compare charts' panel layout.
 */
export function useCompareGrouping(project: string, runs: readonly RunDetails[]) {
  const [params, setParams] = useSearchParams();
  // A change shows at once (a ticked box stays ticked) until the router has applied the URL.
  const base = params.toString();
  const [pending, setPending] = useState<{ base: string; values: Record<string, string | null> } | null>(null);
  const read = (name: string) =>
    pending?.base === base && name in pending.values ? (pending.values[name] ?? null) : params.get(name);
  const groupText = read('group');
  const groupBy = useMemo(() => readGroupBy(groupText), [groupText]);
  const band = readBand(read('band'));
  // Runs hidden from the charts (`hide=`, as the ungrouped legend sets it) leave their groups.
  const hideText = params.get('hide');
  const hidden = useMemo(() => readHidden(hideText), [hideText]);
  const set = (name: string, value: string | null) => {
    setPending((prev) => ({ base, values: { ...(prev?.base === base ? prev.values : {}), [name]: value } }));
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  };
  const keys = useMemo(() => {
    const found = new Set<string>();
    for (const run of runs) configKeys(run.config, found);
    return [...found].sort((a, b) => a.localeCompare(b));
  }, [runs]);
  const control = (
    <GroupByControl value={groupBy} configKeys={keys} onChange={(next) => set('group', next.join(',') || null)} />
  );
  return {
    grouped: groupBy.length > 0,
    control,
    charts: (
      <CompareGroupCharts
        project={project}
        runs={runs}
        groupBy={groupBy}
        hidden={hidden}
        band={band}
        onBand={(b) => set('band', b === 'std' ? null : b)}
      />
    ),
  };
}

function CompareGroupCharts({
  project,
  runs,
  groupBy,
  hidden,
  band,
  onBand,
}: {
  project: string;
  runs: readonly RunDetails[];
  groupBy: string[];
  hidden: readonly number[];
  band: BandKind;
  onBand: (band: BandKind) => void;
}) {
  const ids = useMemo(() => runs.map((r) => r.id).sort((a, b) => a - b), [runs]);
  const names = useMetricNames({ projectName: project, runIds: ids, limit: 1000, enabled: ids.length > 0 });
  const params = useMemo(
    () => ({
      projectName: project,
      groupBy,
      filter: withoutRuns(JSON.stringify({ id: { $in: ids } }), hidden),
    }),
    [project, groupBy, ids, hidden],
  );
  // The layout the compare page's own charts keep (RunCharts' key for this project's metric charts).
  // Changed from a grouped chart's settings, it is the same layout when the grouping is off again.
  const { layout, change } = usePanelLayout(layoutStorageKey(useParams().org ?? '', project, 'metrics'));
  return (
    <GroupCharts
      params={params}
      metricNames={(names.data ?? []).filter((n) => !isSystemName(n))}
      band={band}
      onBand={onBand}
      headingId="compare-group-charts-title"
      layout={layout}
      onLayoutChange={(next) => change(() => next)}
    />
  );
}
