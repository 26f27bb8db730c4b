import { useId } from 'react';
import type { XMode } from './chart-model';
import type { ChartSettings, StepZoom } from './useChartSettings';

const intFormat = new Intl.NumberFormat('en-US');

/**
 * The page-level chart controls: filter, smoothing, x axis, log scale (defaults for every
 * chart without its own), adding a panel, bringing back removed charts, and the zoom in force.
 */
export function ChartToolbar(props: {
  /** The group's accessible name ("Chart controls" unless told). */
  label?: string;
  settings: ChartSettings;
  shown: number;
  total: number;
  setFilter: (text: string) => void;
  setSmoothing: (v: number) => void;
  setXMode: (mode: XMode) => void;
  setLogScale: (on: boolean) => void;
  setZoom: (zoom: StepZoom | null) => void;
  /** Adds a panel (the "Add panel" button shows when given). */
  onAddPanel?: () => void;
  /** How many charts were removed, and how to bring them back (a button while any are). */
  removed?: number;
  onRestore?: () => void;
}) {
  const { settings } = props;
  const id = useId();
  return (
    <div className="chart-toolbar" role="group" aria-label={props.label ?? 'Chart controls'}>
      <label className="chart-control chart-filter">
        <span>Filter charts</span>
        <input
          type="search"
          value={settings.filter}
          placeholder="e.g. loss"
          onChange={(e) => props.setFilter(e.target.value)}
          aria-describedby={`${id}-count`}
        />
      </label>
      <span id={`${id}-count`} className="muted chart-count" aria-live="polite">
        {props.shown === props.total ? `${props.total} charts` : `${props.shown} of ${props.total} charts`}
      </span>
      <label className="chart-control">
        <span>Smoothing</span>
        <input
          type="range"
          min={0}
          max={0.99}
          step={0.01}
          value={settings.smoothing}
          onChange={(e) => props.setSmoothing(Number(e.target.value))}
          aria-valuetext={settings.smoothing > 0 ? String(settings.smoothing) : 'off'}
        />
        <output className="mono chart-smoothing-value">{settings.smoothing.toFixed(2)}</output>
      </label>
      <label className="chart-control">
        <span>X axis</span>
        <select value={settings.xMode} onChange={(e) => props.setXMode(e.target.value as XMode)}>
          <option value="step">Step</option>
          <option value="relative">Relative time</option>
          <option value="wall">Wall time</option>
        </select>
      </label>
      <label className="chart-control chart-check">
        <input type="checkbox" checked={settings.logScale} onChange={(e) => props.setLogScale(e.target.checked)} />
        <span>Log scale</span>
      </label>
      {props.onAddPanel && (
        <button type="button" className="secondary" onClick={props.onAddPanel}>
          Add panel
        </button>
      )}
      {props.onRestore && (props.removed ?? 0) > 0 && (
        <button type="button" className="secondary" onClick={props.onRestore}>
          Restore {props.removed} removed {props.removed === 1 ? 'chart' : 'charts'}
        </button>
      )}
      {settings.zoom && (
        <span className="chart-control chart-zoom">
          <span>
            Steps {intFormat.format(settings.zoom.min)}–{intFormat.format(settings.zoom.max)}
          </span>
          <button type="button" className="secondary" onClick={() => props.setZoom(null)}>
            Reset zoom
          </button>
        </span>
      )}
    </div>
  );
}
