import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { useShowModal } from '../components/useShowModal';
import type { Panel, PanelSettings, ResolvedPanel } from './panel-layout';
import type { ChartSettings } from './useChartSettings';

const X_LABELS = { step: 'Step', relative: 'Relative time', wall: 'Wall time' } as const;

/** What the dialog can do to its panel. */
export interface PanelActions {
  update: (patch: Omit<Partial<Panel>, 'id'>) => void;
  move: (delta: number) => void;
  remove: () => void;
  first: boolean;
  last: boolean;
}

/** A number box whose empty value means "not set"; a value is handed on once it parses. */
function NumberField(props: {
  label: string;
  value: number | undefined;
  placeholder: string;
  min?: number;
  max?: number;
  step?: number | 'any';
  onChange: (v: number | undefined) => void;
}) {
  const [text, setText] = useState(props.value === undefined ? '' : String(props.value));
  return (
    <label className="chart-field">
      <span>{props.label}</span>
      <input
        type="number"
        inputMode="decimal"
        value={text}
        min={props.min}
        max={props.max}
        step={props.step ?? 'any'}
        placeholder={props.placeholder}
        onChange={(e) => {
          setText(e.target.value);
          const v = e.target.value.trim() === '' ? undefined : Number(e.target.value);
          if (v === undefined || Number.isFinite(v)) props.onChange(v);
        }}
      />
    </label>
  );
}

/** A labelled choice among `options` ([value, label] pairs). */
function SelectField(props: {
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
}) {
  return (
    <label className="chart-field">
      <span>{props.label}</span>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A chart's own settings in a modal dialog (Escape or Done closes it): what it draws (metric
 * names and a regular expression), its x axis (the page's, step, time or another metric),
 * smoothing, log scale, y range, its size, and moving or removing it. Every change applies at
 * once. Rendered in document.body so that moving the chart does not move the open dialog.
 * `xLocked` (a grouped chart, drawn against step buckets) disables the x axis choice and
 * says why.
 */
export function ChartSettingsDialog(props: {
  panel: ResolvedPanel;
  /** Every metric name of the charts (choices for the metrics and the x axis). */
  names: readonly string[];
  page: Pick<ChartSettings, 'xMode' | 'smoothing' | 'logScale'>;
  actions: PanelActions;
  onClose: () => void;
  /** Why this chart's x axis cannot be chosen (shown under the disabled choice); absent: it can. */
  xLocked?: string;
}) {
  const { panel, names, page, actions } = props;
  const dialog = useShowModal();
  const id = useId();
  const own = panel.settings;
  const setOwn = (patch: Partial<PanelSettings>) => {
    const next: PanelSettings = { ...own, ...patch };
    for (const key of Object.keys(next) as (keyof PanelSettings)[]) if (next[key] === undefined) delete next[key];
    actions.update({ settings: Object.keys(next).length > 0 ? next : undefined });
  };
  const xValue = own.x === undefined ? '' : typeof own.x === 'string' ? own.x : `metric:${own.x.metric}`;
  const [pattern, setPattern] = useState(panel.pattern ?? '');

  return createPortal(
    <dialog
      ref={dialog}
      className="chart-settings"
      aria-labelledby={`${id}-title`}
      onClose={props.onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) dialog.current?.close();
      }}
    >
      <h2 id={`${id}-title`} className="chart-settings-title">
        Chart settings: <span className="mono">{panel.label}</span>
      </h2>
      <div className="chart-settings-grid">
        <label className="chart-field chart-field-wide">
          <span>Metrics</span>
          <select
            multiple
            size={Math.min(6, Math.max(3, names.length))}
            value={panel.chosen}
            onChange={(e) => {
              const picked = [...e.target.selectedOptions].map((o) => o.value);
              actions.update({ metrics: picked });
            }}
          >
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="chart-field chart-field-wide">
          <span>Regular expression</span>
          <input
            type="text"
            className="mono"
            value={pattern}
            placeholder="e.g. train/.*"
            spellCheck={false}
            aria-invalid={panel.patternError ? true : undefined}
            aria-describedby={`${id}-pattern`}
            onChange={(e) => {
              setPattern(e.target.value);
              actions.update({ pattern: e.target.value || undefined });
            }}
          />
          <small id={`${id}-pattern`} className={panel.patternError ? 'chart-warning' : 'muted'}>
            {panel.patternError
              ? `Not a regular expression: ${panel.patternError}`
              : panel.pattern
                ? `Draws every metric whose whole name matches (${panel.matched} now${panel.matched > panel.metrics.length ? `, the first ${panel.metrics.length} drawn` : ''})`
                : 'Draws every metric whose whole name matches'}
          </small>
        </label>
        <label className="chart-field">
          <span>X axis</span>
          <select
            value={xValue}
            disabled={props.xLocked !== undefined}
            aria-describedby={props.xLocked !== undefined ? `${id}-x` : undefined}
            onChange={(e) => {
              const v = e.target.value;
              setOwn({
                x:
                  v === ''
                    ? undefined
                    : v.startsWith('metric:')
                      ? { metric: v.slice(7) }
                      : (v as keyof typeof X_LABELS),
              });
            }}
          >
            <option value="">Page default ({X_LABELS[page.xMode]})</option>
            {Object.entries(X_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
            <optgroup label="Another metric">
              {names.map((name) => (
                <option key={name} value={`metric:${name}`}>
                  {name}
                </option>
              ))}
            </optgroup>
          </select>
          {props.xLocked !== undefined && (
            <small id={`${id}-x`} className="muted">
              {props.xLocked}
            </small>
          )}
        </label>
        <NumberField
          label="Smoothing"
          value={own.smoothing}
          min={0}
          max={0.99}
          step={0.01}
          placeholder={`Page default (${page.smoothing.toFixed(2)})`}
          onChange={(v) => setOwn({ smoothing: v === undefined ? undefined : Math.min(0.99, Math.max(0, v)) })}
        />
        <SelectField
          label="Log scale"
          value={own.logScale === undefined ? '' : own.logScale ? 'on' : 'off'}
          options={[
            ['', `Page default (${page.logScale ? 'on' : 'off'})`],
            ['on', 'On'],
            ['off', 'Off'],
          ]}
          onChange={(v) => setOwn({ logScale: v === '' ? undefined : v === 'on' })}
        />
        <NumberField label="Y min" value={own.yMin} placeholder="Auto" onChange={(v) => setOwn({ yMin: v })} />
        <NumberField label="Y max" value={own.yMax} placeholder="Auto" onChange={(v) => setOwn({ yMax: v })} />
        <SelectField
          label="Width"
          value={panel.width}
          options={[
            ['normal', 'Normal'],
            ['full', 'Full row'],
          ]}
          onChange={(v) => actions.update({ width: v === 'full' ? 'full' : undefined })}
        />
        <SelectField
          label="Height"
          value={panel.height}
          options={[
            ['normal', 'Normal'],
            ['tall', 'Tall'],
          ]}
          onChange={(v) => actions.update({ height: v === 'tall' ? 'tall' : undefined })}
        />
      </div>
      <div className="chart-settings-actions">
        <button type="button" className="secondary" disabled={actions.first} onClick={() => actions.move(-1)}>
          Move up
        </button>
        <button type="button" className="secondary" disabled={actions.last} onClick={() => actions.move(1)}>
          Move down
        </button>
        <button type="button" className="secondary" onClick={actions.remove}>
          Remove panel
        </button>
        <button type="button" onClick={() => dialog.current?.close()} autoFocus>
          Done
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
