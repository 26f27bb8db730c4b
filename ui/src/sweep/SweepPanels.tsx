import { useMemo } from 'react';
import { Empty, ErrorState, Loading } from '../components/States';
import { defaultMetric } from '../default-metric';
import { Popover } from '../runs-table/Popover';
import type { RunsView, UpdateView } from '../runs-table/useRunsView';
import { type Brush, inBrush } from './brush';
import { correlation, forestImportance } from './importance';
import { ImportanceTable, type ImportanceRow } from './ImportanceTable';
import { ParallelCoordinates } from './ParallelCoordinates';
import { axisOf, configField, featureColumn, fieldValue, metricField } from './sweep-axes';
import { SweepScatter } from './SweepScatter';
import { MAX_SWEEP_RUNS, useSweepRuns } from './useSweepRuns';
import './sweep.css';

/** The most config keys the parallel coordinates draw, and the most the importance table fits. */
const MAX_AXES = 8;
const MAX_IMPORTANCE_KEYS = 30;

/**
 * The sweep panels of a project's runs (those the view's filters keep, at most 1,000):
 * parallel coordinates over chosen config keys and a metric, whose brushes narrow the runs
 * table; the metric against one config key; and each key's importance for the metric.
 */
export function SweepPanels({
  project,
  view,
  update,
  metricNames,
  configKeys,
}: {
  project: string;
  view: RunsView;
  update: UpdateView;
  metricNames: readonly string[];
  configKeys: readonly string[];
}) {
  const metric = view.sweep.metric || defaultMetric(metricNames);
  const data = useSweepRuns(
    { projectName: project, search: view.search, tags: view.tags, status: view.status, filter: view.filter },
    metric,
  );
  const { runs } = data;
  const keys = configKeys.slice(0, MAX_IMPORTANCE_KEYS);

  // Each key's values, and which keys vary (the default axes).
  const byKey = useMemo(() => {
    const out = new Map<string, ReturnType<typeof fieldValue>[]>();
    for (const key of keys)
      out.set(
        key,
        runs.map((r) => fieldValue(r, configField(key))),
      );
    return out;
  }, [keys, runs]);
  const varying = keys.filter((k) => new Set(byKey.get(k)).size > 1);
  const chosen = (view.sweep.axes.length > 0 ? view.sweep.axes : varying.length > 0 ? varying : keys).slice(
    0,
    MAX_AXES,
  );
  const metricValues = useMemo(() => runs.map((r) => fieldValue(r, metricField(metric))), [runs, metric]);

  const model = useMemo(() => {
    const fields = [...chosen.map(configField), metricField(metric)];
    const values = fields.map((f, i) =>
      i < chosen.length ? (byKey.get(chosen[i]!) ?? runs.map((r) => fieldValue(r, f))) : metricValues,
    );
    const axes = fields.map((f, i) => axisOf(f, values[i]!));
    return { axes, values };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- chosen.join() stands for chosen
  }, [chosen.join('\n'), metric, byKey, metricValues, runs]);

  const importance: ImportanceRow[] = useMemo(() => {
    const ys = metricValues.map((v) => (typeof v === 'number' ? v : NaN));
    const columns = keys.map((k) => featureColumn(axisOf(configField(k), byKey.get(k)!), byKey.get(k)!));
    const shares = forestImportance(columns, ys);
    return keys.map((key, i) => {
      const axis = axisOf(configField(key), byKey.get(key)!);
      const usable = axis.kind === 'number' || axis.categories.filter((c) => c !== null).length === 2;
      return { key, importance: shares[i]!, correlation: usable ? correlation(columns[i]!, ys) : null };
    });
  }, [keys, byKey, metricValues]);

  const scatterKey =
    view.sweep.x && keys.includes(view.sweep.x)
      ? view.sweep.x
      : ([...importance].sort((a, b) => b.importance - a.importance)[0]?.key ?? chosen[0] ?? '');
  const kept = runs.map((_, r) =>
    view.brushes.every((b) => {
      const a = model.axes.findIndex((x) => x.field === b.field);
      return a < 0 || inBrush(b, model.values[a]![r]!);
    }),
  );
  const withMetric = metricValues.filter((v) => v !== null).length;

  const setSweep = (change: Partial<RunsView['sweep']>) => update((v) => ({ sweep: { ...v.sweep, ...change } }));
  const onBrush = (field: string, brush: Brush | undefined) =>
    update((v) => ({ brushes: [...v.brushes.filter((b) => b.field !== field), ...(brush ? [brush] : [])] }));

  const controls = (
    <div className="sweep-controls" role="group" aria-label="Sweep panel settings">
      <label>
        Sweep metric{' '}
        <select value={metric} onChange={(e) => setSweep({ metric: e.target.value })}>
          {metricNames.length === 0 && <option value="">No metrics</option>}
          {metricNames.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <Popover label="Axes" badge={String(chosen.length)}>
        <fieldset className="sweep-axes-choice">
          <legend>Config keys on the parallel coordinates (up to {MAX_AXES})</legend>
          {keys.length === 0 && <p className="muted">No config keys in these runs</p>}
          {keys.map((k) => (
            <label key={k} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(k)}
                disabled={!chosen.includes(k) && chosen.length >= MAX_AXES}
                onChange={(e) => setSweep({ axes: e.target.checked ? [...chosen, k] : chosen.filter((x) => x !== k) })}
              />{' '}
              <span className="mono">{k}</span>
            </label>
          ))}
        </fieldset>
      </Popover>
      <label>
        Scatter x{' '}
        <select value={scatterKey} onChange={(e) => setSweep({ x: e.target.value })}>
          {keys.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      {view.brushes.length > 0 && (
        <button type="button" className="link-button" onClick={() => update({ brushes: [] })}>
          Clear brushes
        </button>
      )}
    </div>
  );

  let body;
  if (data.isPending) body = <Loading label="Loading the sweep…" />;
  else if (data.error) body = <ErrorState error={data.error} onRetry={data.refetch} />;
  else if (runs.length === 0) body = <Empty title="No runs to draw" />;
  else if (keys.length === 0) body = <Empty title="These runs have no config keys to compare" />;
  else if (!metric || withMetric === 0)
    body = <Empty title={metric ? `No run has a value of ${metric}` : 'No metrics logged yet'} />;
  else {
    const scatterValues = byKey.get(scatterKey) ?? [];
    body = (
      <div className="sweep-grid">
        <figure className="card sweep-figure sweep-wide" aria-label="Parallel coordinates">
          <figcaption>
            Parallel coordinates <span className="muted">· drag along an axis to keep its runs in the table</span>
          </figcaption>
          <ParallelCoordinates
            runs={runs}
            axes={model.axes}
            values={model.values}
            brushes={view.brushes}
            onBrush={onBrush}
          />
        </figure>
        <figure className="card sweep-figure" aria-label={`Scatter of ${metric} against ${scatterKey}`}>
          <figcaption>
            {metric} against {scatterKey}
          </figcaption>
          <SweepScatter
            runs={runs}
            x={axisOf(configField(scatterKey), scatterValues)}
            y={axisOf(metricField(metric), metricValues)}
            xs={scatterValues}
            ys={metricValues}
            kept={kept}
          />
        </figure>
        <div className="card sweep-figure">
          <ImportanceTable metric={metric} rows={importance} runs={withMetric} />
        </div>
      </div>
    );
  }

  return (
    <section className="sweep-panels" aria-labelledby="sweep-title">
      <div className="sweep-head">
        <h2 id="sweep-title">Sweep</h2>
        {data.capped && (
          <p className="muted" role="status">
            Drawing the newest {MAX_SWEEP_RUNS.toLocaleString('en-US')} of {data.total.toLocaleString('en-US')} runs
          </p>
        )}
      </div>
      {controls}
      {body}
    </section>
  );
}
