import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type GroupParams, useGroupMetrics } from '../api/group-queries';
import { downloadCsvText, downloadPng } from '../charts/chart-export';
import { ChartExportButtons } from '../charts/ChartExportButtons';
import { useChartSettingsDialog } from '../charts/ChartSettingsButton';
import { hoverTracker } from '../charts/chart-hover';
import { readTheme } from '../charts/chart-theme';
import { PLOT_HEIGHT } from '../charts/MetricChart';
import type { StepZoom } from '../charts/useChartSettings';
import { useChartBox } from '../charts/useChartBox';
import { ErrorState } from '../components/States';
import { BAND_LABELS, type BandKind } from './group-by';
import { groupChartData, groupChartModel } from './group-chart-model';
import { groupChartOptions } from './group-chart-options';
import { groupChartCsv } from './group-export';
import type { GroupPanel } from './group-panels';
import { renderGroupTooltip } from './group-tooltip';

/** Buckets to ask for: about one per pixel of the plot, in steps of 100, 100..1,000. */
const bucketLimit = (width: number) => Math.max(100, Math.min(1000, Math.ceil((width - 76) / 100) * 100));

/**
 * One metric of every group (`GET /api/runs/groups/metrics`, exact over every point): each
 * group's mean as a line in its colour with its band (standard deviation, standard error or
 * min–max) filled around it, and a readout of mean, band and n at the cursor; a drag zooms
 * the page's step window (asked again in finer buckets), a double-click resets it; PNG and
 * CSV buttons save the canvas and the buckets (group-export.ts). A
 * `<figure aria-label=logName aria-busy>`; it fetches once near the viewport.
 * `renderSettings` adds a "Chart settings" button whose dialog it renders.
 */
export function GroupChart({
  params,
  panel,
  band,
  colorOf,
  zoom,
  onZoom,
  height = PLOT_HEIGHT,
  renderSettings,
}: {
  params: GroupParams;
  /** The metric and its y axis (log scale, fixed ends). */
  panel: GroupPanel;
  band: BandKind;
  /** A group's colour by its id (group-label.ts groupId). */
  colorOf: (id: string) => string;
  /** The page's step window (all steps when null); a drag sets it, a double-click clears it. */
  zoom: StepZoom | null;
  onZoom: (zoom: StepZoom | null) => void;
  /** The plot's height in CSS px (PLOT_HEIGHT unless told). */
  height?: number;
  renderSettings?: (close: () => void) => ReactNode;
}) {
  const { logName, logScale, yMin, yMax, smoothing = 0 } = panel;
  const settingsDialog = useChartSettingsDialog(logName, renderSettings);
  const { figureRef, plotRef, hostRef, tipRef, near, seen, width, scheme } = useChartBox();
  const query = useGroupMetrics(params, logName, bucketLimit(width), zoom, seen && width > 0, near);
  const model = useMemo(() => (query.data ? groupChartModel(query.data, band) : null), [query.data, band]);
  const colors = useMemo(() => model?.traces.map((t) => colorOf(t.id)) ?? [], [model, colorOf]);
  const showPlot = near && model !== null && model.buckets > 0 && width > 0;
  const uRef = useRef<uPlot | null>(null);
  const live = useRef({ model, colors, band, zoom, onZoom });
  live.current = { model, colors, band, zoom, onZoom };

  useEffect(() => {
    const target = hostRef.current;
    if (!showPlot || !target || !model) return;
    const hover = hoverTracker(() => {
      if (tipRef.current) tipRef.current.hidden = true;
    });
    const u = new uPlot(
      groupChartOptions(model, colors, { width, height, logScale, yMin, yMax }, readTheme(), {
        onCursor: (plot) => {
          const tip = tipRef.current;
          const now = live.current;
          if (!tip || !now.model) return;
          if (hover.hovered()) renderGroupTooltip(tip, plot, now.model, now.colors, now.band);
          else tip.hidden = true;
        },
        onSelect: (x0, x1) => {
          const min = Math.max(0, Math.ceil(Math.min(x0, x1)));
          const max = Math.floor(Math.max(x0, x1));
          if (max >= min) live.current.onZoom({ min, max });
        },
        onReset: () => {
          if (live.current.zoom) live.current.onZoom(null);
        },
      }),
      groupChartData(model, logScale, smoothing) as uPlot.AlignedData,
      target,
    );
    const unhover = hover.attach(u);
    uRef.current = u;
    return () => {
      unhover();
      uRef.current = null;
      u.destroy();
    };
    // A new chart per answer, band, size or setting: a few groups' buckets draw in milliseconds.
  }, [showPlot, model, colors, width, height, scheme, hostRef, tipRef, logScale, yMin, yMax, smoothing]);

  const busy = !seen || width === 0 || query.isFetching;
  const groups = model?.traces.length ?? 0;
  return (
    <figure className="chart card" aria-label={logName} aria-busy={busy ? 'true' : 'false'} ref={figureRef}>
      <figcaption className="chart-caption">
        <span className="chart-title mono" title={logName}>
          {logName}
        </span>
        {model && (
          <span className="chart-meta muted">
            {groups} {groups === 1 ? 'group' : 'groups'} · band: {BAND_LABELS[band].toLowerCase()}
            {logScale && ' · log scale'}
            {smoothing > 0 && ` · smoothing ${smoothing.toFixed(2)}`}
            {zoom && ` · steps ${zoom.min.toLocaleString('en-US')}–${zoom.max.toLocaleString('en-US')}`}
          </span>
        )}
        <span className="chart-actions">
          {settingsDialog.button}
          <ChartExportButtons
            logName={logName}
            pngDisabled={!showPlot}
            onPng={() => {
              const u = uRef.current;
              const legend = model?.traces.map((t, i) => ({ name: t.label, color: colors[i] ?? 'currentColor' }));
              if (u && legend) void downloadPng(u, logName, legend, readTheme());
            }}
            csvDisabled={!model || model.buckets === 0}
            onCsv={() => model && downloadCsvText(logName, groupChartCsv(model))}
          />
        </span>
      </figcaption>
      {settingsDialog.dialog}
      <div
        className="chart-plot"
        ref={plotRef}
        style={{ height }}
        title={showPlot ? 'Drag across steps to zoom; double-click to zoom out' : undefined}
      >
        <div className="chart-host" ref={hostRef} />
        {showPlot && <div className="chart-tip" ref={tipRef} hidden role="presentation" />}
        {!showPlot && (
          <div className="chart-state">
            {query.isError && !query.data ? (
              <ErrorState error={query.error} onRetry={() => void query.refetch()} />
            ) : model && model.buckets === 0 && !busy ? (
              <p className="muted">No points</p>
            ) : (
              <p className="muted" role="status">
                <span className="spinner" aria-hidden="true" />
                Loading {logName}…
              </p>
            )}
          </div>
        )}
      </div>
    </figure>
  );
}
