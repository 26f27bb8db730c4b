import { useId, useState } from 'react';
import type { RunDetails } from '@server/api/schemas/runs';
import { Empty } from '../components/States';
import { DataSeries } from './DataSeries';
import './data-lines.css';

const DATA_TYPES = new Set(['HISTOGRAM', 'TABLE', 'TEXT', 'DATA']);

/**
 * The run's Data tab: every histogram, table and text log name, each read from
 * `GET /api/runs/data` and drawn as its kind calls for; a name filter when there are many.
 */
export function DataPanel({ run }: { run: RunDetails }) {
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const names = run.logNames
    .filter((n) => DATA_TYPES.has(n.logType))
    .sort((a, b) => (a.logName < b.logName ? -1 : a.logName > b.logName ? 1 : 0));
  const needle = filter.trim().toLowerCase();
  const shown = needle ? names.filter((n) => n.logName.toLowerCase().includes(needle)) : names;
  if (names.length === 0)
    return <Empty title="No data lines logged">Histograms, tables and text series appear here.</Empty>;
  return (
    <div className="data-panel">
      {names.length > 4 && (
        <div className="data-toolbar">
          <label htmlFor={filterId}>Filter data</label>
          <input id={filterId} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
          <span className="muted">
            {shown.length} of {names.length}
          </span>
        </div>
      )}
      {shown.length === 0 && <Empty title="No data log name matches the filter" />}
      {shown.map((n) => (
        <DataSeries
          key={n.logName}
          runId={run.id}
          projectName={run.projectName}
          logName={n.logName}
          logType={n.logType}
          live={run.status === 'RUNNING'}
        />
      ))}
    </div>
  );
}
