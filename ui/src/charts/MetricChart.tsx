import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useMetricSeriesList, type MetricSeries, type SeriesState } from '../api/metric-queries';
import { ErrorState } from '../components/States';
import { downloadCsv, downloadPng } from './chart-export';
import { ChartExportButtons } from './ChartExportButtons';
import { useChartSettingsDialog } from './ChartSettingsButton';
import { applyHighlight, seriesLooks, type SeriesLook } from './chart-highlight';
import { buildModel, stepWindow, type ChartModel, type XAxis } from './chart-model';
import { hoverTracker } from './chart-hover';
import { chartOptions, THIN_LINES_PAST, type ChartHandles } from './chart-options';
import { attachPointClick, type PickedPoint } from './chart-point-click';
import { readTheme } from './chart-theme';
import { renderTooltip } from './chart-tooltip';
import type { PanelSettings } from './panel-layout';
import { panelInputs } from './panel-inputs';
import type { ChartSettings, StepZoom } from './useChartSettings';
import { useChartBox } from './useChartBox';
import { plotColumns, seriesLimit } from './series-limit';

/** A run as a chart draws it (colour resolved, hidden runs already left out). */
export interface ResolvedRun {
  runId: number;
  name: string;
  color: string;
  /** Line dash in CSS px; empty: solid (run-colors.ts). */
  dash: readonly number[];
  live: boolean;
  forkStep: number | null;
  /** Zero of the relative-time axis (epoch ms); null: the series' first point. */
  startMs: number | null;
}

/** The plot's height in CSS px unless a panel asks for another. */
export const PLOT_HEIGHT = 220;
const intFormat = new Intl.NumberFormat('en-US');

/** The same array object while its elements are the same objects (keeps memos stable). */
function useStableList<T>(list: T[]): T[] {
  const ref = useRef(list);
  const prev = ref.current;
  if (prev.length !== list.length || prev.some((v, i) => v !== list[i])) ref.current = list;
  return ref.current;
}

/** What the uPlot instance must be rebuilt for: its series and their look. */
const shapeOf = (m: ChartModel): string =>
  m.lines
    .map((l) => `${m.traces[l.run]!.color}:${m.traces[l.run]!.dash.join(' ')}:${l.kind}:${l.part}:${l.faint}`)
    .join('|');

/**
 * One chart: a `<figure aria-label=logName aria-busy>` that fetches when near the viewport,
 * draws the runs' sampled series of its metrics with uPlot, re-queries the zoomed step window,
 * and exports PNG and CSV. With `onPointClick`, a single click near a point hands that point on.
 *
 * A panel's chart draws `metrics` (default: `logName` alone) with its `own` settings over the
 * page's; on another metric's x axis it also fetches that metric's series of each run (the
 * same query, so the same cache entry, as that metric's own chart at this width).
 * `renderSettings` adds a "Chart settings" button whose dialog it renders.
 */
export function MetricChart(props: {
  logName: string;
  runs: readonly ResolvedRun[];
  settings: ChartSettings;
  onZoom: (zoom: StepZoom | null) => void;
  /** A drag zooms this chart's own x axis (clock-sampled series) instead of setting the page's step zoom. */
  timeZoom?: boolean;
  onPointClick?: (point: PickedPoint) => void;
  metrics?: readonly string[];
  own?: PanelSettings;
  /** The plot's height in CSS px (PLOT_HEIGHT unless told). */
  height?: number;
  /** A line under the caption (e.g. how many metrics a pattern matched). */
  note?: string;
  renderSettings?: (close: () => void) => ReactNode;
  /** The settings dialog is open when the chart first shows. */
  settingsOpenAtFirst?: boolean;
  /** The run drawn thick and in front, the others faded (chart-highlight.ts); null or absent: none. */
  highlightRunId?: number | null;
}) {
  const { logName, runs, settings, onZoom, onPointClick, timeZoom = false, own, renderSettings } = props;
  const { zoom } = settings;
  const highlight = runs.some((r) => r.runId === props.highlightRunId) ? props.highlightRunId! : null;
  const plotHeight = props.height ?? PLOT_HEIGHT;
  const metrics = useStableList(props.metrics ? [...props.metrics] : [logName]);
  const xMetric = typeof own?.x === 'object' ? own.x.metric : undefined;
  const xMode: XAxis = xMetric !== undefined ? 'metric' : typeof own?.x === 'string' ? own.x : settings.xMode;
  const smoothing = own?.smoothing ?? settings.smoothing;
  const logScale = own?.logScale ?? settings.logScale;
  const { yMin, yMax } = own ?? {};
  const settingsDialog = useChartSettingsDialog(logName, renderSettings, props.settingsOpenAtFirst === true);
  const { figureRef, plotRef, hostRef, tipRef, near, seen, width, scheme } = useChartBox();
  // Points are asked for the widest the chart has been: one that narrows (a lone chart of a
  // row joined by a new one) keeps its series and their live tail instead of asking again.
  const [widest, setWidest] = useState(0);
  if (width > widest) setWidest(width);
  const limit = seriesLimit(Math.max(width, widest), runs.length);

  // Each (run, name) once: the x metric may be one of the drawn metrics.
  const fetched = useMemo(
    () => [...new Set(xMetric === undefined ? metrics : [...metrics, xMetric])],
    [metrics, xMetric],
  );
  const queries = useMetricSeriesList(
    fetched
      .flatMap((name) => runs.map((r) => ({ name, r })))
      .map(({ name, r }) => ({
        runId: r.runId,
        logName: name,
        limit,
        stepMin: zoom?.min,
        stepMax: zoom?.max,
        live: r.live,
        poll: near,
        enabled: seen && width > 0,
      })),
  );
  const seriesList = useStableList(queries.map((q) => q.data));
  const loading = queries.some((q) => q.loading);
  const waiting = loading || !seen || width === 0;
  const placeholder = queries.some((q) => q.isPlaceholderData);
  const failed = queries.filter((q) => q.isError && q.data === undefined);

  const inputs = useMemo(() => {
    const seriesOf = (runId: number, name: string): MetricSeries | undefined => {
      const r = runs.findIndex((run) => run.runId === runId);
      const n = fetched.indexOf(name);
      return r < 0 || n < 0 ? undefined : seriesList[n * runs.length + r];
    };
    const series = panelInputs(runs, metrics, seriesOf, xMetric);
    const count = pointCount(seriesList.slice(0, metrics.length * runs.length));
    return { series, count, xMode, xMetric };
  }, [runs, seriesList, fetched, metrics, xMetric, xMode]);
  // While a first answer is on its way, what is drawn waits: a chart of 12 runs is built once
  // when their series are in, not once per arriving run (12 models and 12 uPlot instances).
  // The series stay paired with their runs, so a run shown again keeps the others drawn as
  // they were until its series arrives. A new x axis applies at once.
  const [settled, setSettled] = useState(inputs);
  const newAxis = settled.xMode !== inputs.xMode || settled.xMetric !== inputs.xMetric;
  if (settled !== inputs && (!loading || newAxis)) setSettled(inputs);
  // Many runs are aligned on a grid of columns (chart-columns.ts); a few on their own x values.
  const columns = settled.series.length > THIN_LINES_PAST ? plotColumns(width) : undefined;
  const model = useMemo(
    () =>
      settled.series.length === 0
        ? null
        : buildModel(settled.series, { xMode: settled.xMode, smoothing, logScale, columns }),
    [settled, smoothing, logScale, columns],
  );

  // The drawn metrics' points (an x metric that is not drawn is not counted).
  const count = settled.count;

  // What the uPlot hooks read when they run (they outlive renders).
  const modelRef = useRef<ChartModel | null>(model);
  const live = useRef({ zoom, xMode, xMetric, onZoom, logName, onPointClick, timeZoom });
  useEffect(() => {
    live.current = { zoom, xMode, xMetric, onZoom, logName, onPointClick, timeZoom };
  });

  const uRef = useRef<uPlot | null>(null);
  const looksRef = useRef<SeriesLook[]>([]);
  const [drawn, setDrawn] = useState<ChartModel | null>(null);
  const showPlot = near && model !== null && model.points > 0 && width > 0;
  const shape = model ? shapeOf(model) : '';

  // New points: into the chart as they are (its zoom and cursor stay).
  useEffect(() => {
    modelRef.current = model;
    const u = uRef.current;
    if (u && model) u.setData(model.data);
    setDrawn(model);
  }, [model]);

  // A new chart when its series or look change; none while far from the viewport.
  useEffect(() => {
    const target = hostRef.current;
    const first = modelRef.current;
    if (!showPlot || !target || !first) return;
    const hover = hoverTracker(() => {
      if (tipRef.current) tipRef.current.hidden = true;
    });
    const handles: ChartHandles = {
      model: () => modelRef.current ?? first,
      xRange: () => heldRange(modelRef.current ?? first, live.current.zoom, live.current.xMode),
      onSelect: (x0, x1) => {
        if (live.current.timeZoom) {
          uRef.current?.setScale('x', { min: x0, max: x1 });
          return;
        }
        const window = stepWindow((modelRef.current ?? first).traces, live.current.xMode, x0, x1);
        if (window) live.current.onZoom(window);
      },
      onReset: () => {
        if (live.current.zoom) live.current.onZoom(null);
      },
      onCursor: (u) => {
        const tip = tipRef.current;
        if (!tip) return;
        // The synced crosshair moves on every chart; only the hovered one shows its readout.
        if (hover.hovered()) renderTooltip(tip, u, modelRef.current ?? first, live.current.xMode, live.current.xMetric);
        else tip.hidden = true;
      },
    };
    const opts = chartOptions(
      first,
      {
        width: plotRef.current?.clientWidth ?? target.clientWidth,
        height: plotHeight,
        xMode,
        logScale,
        theme: readTheme(),
        xLabel: xMetric,
        yMin,
        yMax,
      },
      handles,
    );
    const u = new uPlot(opts, first.data, target);
    uRef.current = u;
    looksRef.current = seriesLooks(u);
    const unhover = hover.attach(u);
    const detach = attachPointClick(
      u,
      () => modelRef.current ?? first,
      (point) => live.current.onPointClick?.(point),
    );
    return () => {
      detach();
      unhover();
      u.destroy();
      uRef.current = null;
    };
    // scheme: the theme colours are read when the chart is made; the refs never change.
  }, [showPlot, shape, xMode, xMetric, logScale, yMin, yMax, plotHeight, scheme, hostRef, plotRef, tipRef]);

  // After the chart effect above: a new chart gets the highlight too.
  useEffect(() => {
    const u = uRef.current;
    if (u && modelRef.current) applyHighlight(u, modelRef.current, looksRef.current, highlight);
  }, [highlight, showPlot, shape, xMode, xMetric, logScale, yMin, yMax, plotHeight, scheme]);

  useEffect(() => {
    const u = uRef.current;
    if (u && width > 0 && u.width !== width) u.setSize({ width, height: plotHeight });
  }, [width, plotHeight]);

  // A new zoom: re-range at once over what is drawn; the window's own points follow.
  const zoomKey = zoom ? `${zoom.min}-${zoom.max}` : '';
  useEffect(() => {
    const u = uRef.current;
    if (u) u.setData(u.data, true);
  }, [zoomKey]);

  const busy = waiting || placeholder || model !== drawn;
  const allFailed = failed.length > 0 && failed.length === queries.length;

  const meta: string[] = [];
  if (model) {
    meta.push(
      `${intFormat.format(count.total)} ${count.total === 1 ? 'point' : 'points'}${count.total > count.held ? ', sampled' : ''}`,
    );
  }
  if (zoom) meta.push(`steps ${intFormat.format(zoom.min)}–${intFormat.format(zoom.max)}`);
  if (xMetric !== undefined) meta.push(`x: ${xMetric}`);

  return (
    <figure
      className="chart card"
      aria-label={logName}
      aria-busy={busy ? 'true' : 'false'}
      data-highlighted-run={highlight ?? undefined}
      ref={figureRef}
    >
      <figcaption className="chart-caption">
        <span className="chart-title mono" title={logName}>
          {logName}
        </span>
        <span
          className="chart-meta muted"
          title={
            count.total > count.held
              ? `${intFormat.format(count.held)} of ${intFormat.format(count.total)} points drawn: the first, the last and each stretch's lowest and highest`
              : undefined
          }
        >
          {meta.join(' · ')}
        </span>
        {model && model.nonFinite > 0 && (
          <span className="chart-warning" title="NaN or ±Infinity values, marked at the chart's edge">
            {intFormat.format(model.nonFinite)} non-finite {model.nonFinite === 1 ? 'point' : 'points'}
          </span>
        )}
        {model && model.hiddenByLog > 0 && (
          <span className="chart-warning">
            {intFormat.format(model.hiddenByLog)} {model.hiddenByLog === 1 ? 'value' : 'values'} ≤ 0 not drawn on log
            scale
          </span>
        )}
        <span className="chart-actions">
          {settingsDialog.button}
          <ChartExportButtons
            logName={logName}
            pngDisabled={!showPlot}
            onPng={() => {
              const u = uRef.current;
              if (u && model) void downloadPng(u, logName, model.traces, readTheme());
            }}
            csvDisabled={!model || model.points === 0}
            onCsv={() => model && downloadCsv(logName, model, smoothing)}
          />
        </span>
      </figcaption>
      {props.note && <p className="chart-note muted">{props.note}</p>}
      {settingsDialog.dialog}
      <div
        className="chart-plot"
        ref={plotRef}
        style={{ height: plotHeight }}
        title={onPointClick && showPlot ? 'Click a point to open the console at its time' : undefined}
      >
        <div className="chart-host" ref={hostRef} />
        {showPlot && <div className="chart-tip" ref={tipRef} hidden role="presentation" />}
        {!showPlot && (
          <div className="chart-state">
            {allFailed ? (
              <ErrorState error={failed[0]!.error} onRetry={() => retry(failed)} />
            ) : metrics.length === 0 ? (
              <p className="muted">No metrics yet: choose some in its settings</p>
            ) : model && model.points === 0 && !waiting && !placeholder ? (
              <p className="muted">{zoom ? 'No points in this step range' : 'No points'}</p>
            ) : waiting || placeholder ? (
              <p className="muted" role="status">
                <span className="spinner" aria-hidden="true" />
                Loading {logName}…
              </p>
            ) : null}
          </div>
        )}
      </div>
      {failed.length > 0 && !allFailed && (
        <p className="chart-warning" role="alert">
          {failed.length} of {queries.length} runs could not be loaded: {failed[0]!.error?.message}{' '}
          <button type="button" className="secondary chart-button" onClick={() => retry(failed)}>
            Try again
          </button>
        </p>
      )}
    </figure>
  );
}

/** Asks again for each failed query once (the runs of one batch share it). */
function retry(failed: readonly SeriesState[]): void {
  for (const refetch of new Set(failed.map((q) => q.refetch))) void refetch();
}

/** The series' points in the step range (`total`) and those held to draw (fewer: a sample). */
function pointCount(seriesList: readonly (MetricSeries | undefined)[]): { total: number; held: number } {
  let total = 0;
  let held = 0;
  for (const s of seriesList) {
    if (!s) continue;
    total += s.total;
    held += s.steps.length;
  }
  return { total, held };
}

/** The x range a zoom holds: its steps on the step axis, the x extent of its points otherwise. */
function heldRange(model: ChartModel, zoom: StepZoom | null, mode: XAxis): [number, number] | null {
  if (!zoom) return null;
  if (mode === 'step') return zoom.min === zoom.max ? [zoom.min - 0.5, zoom.max + 0.5] : [zoom.min, zoom.max];
  let min = Infinity;
  let max = -Infinity;
  for (const t of model.traces) {
    for (let i = 0; i < t.steps.length; i++) {
      const s = t.steps[i]!;
      if (s < zoom.min || s > zoom.max) continue;
      min = Math.min(min, t.xs[i]!);
      max = Math.max(max, t.xs[i]!);
    }
  }
  if (min > max) return null;
  return min === max ? [min - 0.5, max + 0.5] : [min, max];
}
