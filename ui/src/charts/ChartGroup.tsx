import { useId } from 'react';
import type { PickedPoint } from './chart-point-click';
import { ChartSettingsDialog, type PanelActions } from './ChartSettingsDialog';
import { MetricChart, PLOT_HEIGHT, type ResolvedRun } from './MetricChart';
import type { PanelSection, ResolvedPanel } from './panel-layout';
import type { ChartSettings, StepZoom } from './useChartSettings';

/** A tall panel's plot height in CSS px. */
export const TALL_HEIGHT = 400;

/**
 * A collapsible section of panels (a logGroup's charts, or the added panels), each with its
 * size and its own settings; `actionsOf` gives a panel's dialog its actions.
 */
export function ChartGroup(props: {
  section: PanelSection;
  /** Every metric name the charts may draw (the settings dialog's choices). */
  names: readonly string[];
  runs: readonly ResolvedRun[];
  settings: ChartSettings;
  onToggle: () => void;
  onZoom: (zoom: StepZoom | null) => void;
  actionsOf: (panel: ResolvedPanel, index: number) => PanelActions;
  /** The panel whose settings open as it first shows (one just added). */
  openSettingsOf?: string | null;
  /** Clock-sampled charts: a drag zooms the chart's own time axis, not the page's steps. */
  timeZoom?: boolean;
  onPointClick?: (point: PickedPoint) => void;
  highlightRunId?: number | null;
}) {
  const id = useId();
  const { section, settings } = props;
  return (
    <section className="chart-group" aria-labelledby={`${id}-head`}>
      <h3 className="chart-group-head" id={`${id}-head`}>
        <button
          type="button"
          className="chart-group-toggle"
          aria-expanded={!section.collapsed}
          aria-controls={`${id}-body`}
          onClick={props.onToggle}
        >
          <span className="chart-chevron" aria-hidden="true">
            {section.collapsed ? '▸' : '▾'}
          </span>
          <span className="mono">{section.title}</span>
          <span className="muted chart-group-count">{section.panels.length}</span>
        </button>
      </h3>
      <div className="chart-grid" id={`${id}-body`} hidden={section.collapsed}>
        {!section.collapsed &&
          section.panels.map((panel, index) => (
            <div key={panel.id} className={panel.width === 'full' ? 'chart-cell chart-cell-full' : 'chart-cell'}>
              <MetricChart
                logName={panel.label}
                metrics={panel.metrics}
                own={panel.settings}
                height={panel.height === 'tall' ? TALL_HEIGHT : PLOT_HEIGHT}
                note={
                  panel.matched > panel.metrics.length
                    ? `${panel.matched} metrics match: the first ${panel.metrics.length} are drawn`
                    : undefined
                }
                runs={props.runs}
                settings={settings}
                onZoom={props.onZoom}
                timeZoom={props.timeZoom}
                onPointClick={props.onPointClick}
                highlightRunId={props.highlightRunId}
                settingsOpenAtFirst={panel.id === props.openSettingsOf}
                renderSettings={(close) => (
                  <ChartSettingsDialog
                    panel={panel}
                    names={props.names}
                    page={settings}
                    actions={props.actionsOf(panel, index)}
                    onClose={close}
                  />
                )}
              />
            </div>
          ))}
      </div>
    </section>
  );
}
