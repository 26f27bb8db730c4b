import { useState } from 'react';
import {
  columnMetrics,
  encodeColumn,
  type ExtraColumn,
  MAX_METRIC_COLUMNS,
  METRIC_AGGS,
  type MetricAgg,
} from './columns';
import { Popover } from './Popover';
import { Field } from './Field';

const SHOWN = 60;

/**
 * "Columns" drop-down: add or remove a column per metric summary (last/min/max/mean) and per
 * config key; a find box narrows long lists.
 */
export function ColumnsControl({
  columns,
  metricNames,
  metricsLoading,
  configKeys,
  onChange,
}: {
  columns: ExtraColumn[];
  metricNames: readonly string[];
  metricsLoading: boolean;
  configKeys: readonly string[];
  onChange: (next: ExtraColumn[]) => void;
}) {
  const [find, setFind] = useState('');
  const needle = find.trim().toLowerCase();
  const metrics = metricNames.filter((n) => n.toLowerCase().includes(needle));
  const keys = configKeys.filter((k) => k.toLowerCase().includes(needle));
  const on = new Set(columns.map(encodeColumn));
  const metricCount = columnMetrics(columns).length;
  const toggle = (column: ExtraColumn, checked: boolean) => {
    const code = encodeColumn(column);
    onChange(checked ? [...columns, column] : columns.filter((c) => encodeColumn(c) !== code));
  };
  const full = (name: string) => metricCount >= MAX_METRIC_COLUMNS && !columnMetrics(columns).includes(name);
  return (
    <Popover label="Columns" badge={columns.length ? String(columns.length) : undefined} align="right">
      <div className="columns-control">
        <Field label="Find a column">
          {(id) => (
            <>
              <input
                id={id}
                type="search"
                value={find}
                onChange={(e) => setFind(e.target.value)}
                placeholder="metric or config key"
              />
            </>
          )}
        </Field>
        <fieldset className="plain-fieldset">
          <legend className="popover-heading">Metrics</legend>
          {metricsLoading && <p className="muted small-text">Loading metric names…</p>}
          {!metricsLoading && metrics.length === 0 && (
            <p className="muted small-text">{metricNames.length ? 'No metric matches.' : 'No metrics logged yet.'}</p>
          )}
          <div className="check-list">
            {metrics.slice(0, SHOWN).map((name) => (
              <div key={name} className="metric-choice">
                <span className="metric-choice-name mono" title={name}>
                  {name}
                </span>
                {METRIC_AGGS.map((agg: MetricAgg) => {
                  const column: ExtraColumn = { kind: 'metric', name, agg };
                  const checked = on.has(encodeColumn(column));
                  return (
                    <label key={agg} className="agg-choice">
                      <input
                        type="checkbox"
                        checked={checked}
                        disabled={!checked && full(name)}
                        aria-label={`${name} ${agg}`}
                        onChange={(e) => toggle(column, e.target.checked)}
                      />
                      {agg}
                    </label>
                  );
                })}
              </div>
            ))}
          </div>
          {metrics.length > SHOWN && (
            <p className="muted small-text">{metrics.length - SHOWN} more; type to narrow the list.</p>
          )}
          {metricCount >= MAX_METRIC_COLUMNS && (
            <p className="muted small-text">At most {MAX_METRIC_COLUMNS} metrics can be shown at once.</p>
          )}
        </fieldset>
        <fieldset className="plain-fieldset">
          <legend className="popover-heading">Config</legend>
          {keys.length === 0 && (
            <p className="muted small-text">
              {configKeys.length ? 'No key matches.' : 'No config on the loaded runs.'}
            </p>
          )}
          <div className="check-list">
            {keys.slice(0, SHOWN).map((key) => {
              const column: ExtraColumn = { kind: 'config', key };
              return (
                <label key={key} className="check-row">
                  <input
                    type="checkbox"
                    checked={on.has(encodeColumn(column))}
                    aria-label={`config ${key}`}
                    onChange={(e) => toggle(column, e.target.checked)}
                  />
                  <span className="mono">{key}</span>
                </label>
              );
            })}
          </div>
        </fieldset>
        {columns.length > 0 && (
          <button type="button" className="secondary small" onClick={() => onChange([])}>
            Remove added columns
          </button>
        )}
      </div>
    </Popover>
  );
}
