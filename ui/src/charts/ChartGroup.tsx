import { useId } from 'react';
import type { PickedPoint } from './chart-point-click';
import { MetricChart, type ResolvedRun } from './MetricChart';
import type { ChartSettings, StepZoom } from './useChartSettings';

/** A collapsible section of charts: the metrics of one logGroup. */
export function ChartGroup(props: {
  group: string;
  names: readonly string[];
  runs: readonly ResolvedRun[];
  settings: ChartSettings;
  collapsed: boolean;
  onToggle: () => void;
  onZoom: (zoom: StepZoom | null) => void;
  /** Clock-sampled charts: a drag zooms the chart's own time axis, not the page's steps. */
  timeZoom?: boolean;
  onPointClick?: (point: PickedPoint) => void;
  highlightRunId?: number | null;
}) {
  const id = useId();
  const title = props.group === '' ? 'Ungrouped' : props.group;
  return (
    <section className="chart-group" aria-labelledby={`${id}-head`}>
      <h3 className="chart-group-head" id={`${id}-head`}>
        <button
          type="button"
          className="chart-group-toggle"
          aria-expanded={!props.collapsed}
          aria-controls={`${id}-body`}
          onClick={props.onToggle}
        >
          <span className="chart-chevron" aria-hidden="true">
            {props.collapsed ? '▸' : '▾'}
          </span>
          <span className="mono">{title}</span>
          <span className="muted chart-group-count">{props.names.length}</span>
        </button>
      </h3>
      <div className="chart-grid" id={`${id}-body`} hidden={props.collapsed}>
        {!props.collapsed &&
          props.names.map((name) => (
            <MetricChart
              key={name}
              logName={name}
              runs={props.runs}
              settings={props.settings}
              onZoom={props.onZoom}
              timeZoom={props.timeZoom}
              onPointClick={props.onPointClick}
              highlightRunId={props.highlightRunId}
            />
          ))}
      </div>
    </section>
  );
}
