import { useDeferredValue, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LOG_TYPES } from '../api/log-queries';
import { LogSearchResults } from './LogSearchResults';
import { LogViewport } from './LogViewport';
import './logs.css';

const TYPE_LABELS: Record<(typeof LOG_TYPES)[number], string> = {
  PRINT: 'Print',
  INFO: 'Info',
  WARNING: 'Warning',
  ERROR: 'Error',
  DEBUG: 'Debug',
};

/**
 * A run's console: a type filter (in the URL as `logType`), a text search (`logSearch`),
 * and either every line (virtualised, paged) or the lines that match the search. While the
 * run is RUNNING a Follow toggle keeps the view at the newest line.
 */
export function LogsPanel({ runId, projectName, running }: { runId: number; projectName: string; running: boolean }) {
  const ids = { type: useId(), search: useId() };
  const [params, setParams] = useSearchParams();
  const logType = (LOG_TYPES as readonly string[]).includes(params.get('logType') ?? '') ? params.get('logType')! : '';
  const [query, setQuery] = useState(() => params.get('logSearch') ?? '');
  const search = useDeferredValue(query.trim());
  const [follow, setFollow] = useState(false);
  const following = follow && running && search === '';

  const setParam = (name: string, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="logs">
      <div className="logs-toolbar">
        <label htmlFor={ids.type}>Log type</label>
        <select id={ids.type} value={logType} onChange={(event) => setParam('logType', event.target.value)}>
          <option value="">All types</option>
          {LOG_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
        <label htmlFor={ids.search} className="visually-hidden">
          Search logs
        </label>
        <input
          id={ids.search}
          type="search"
          className="logs-search"
          placeholder="Search logs"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setParam('logSearch', event.target.value.trim());
          }}
        />
        {running && (
          <button
            type="button"
            className={following ? 'follow-on' : 'secondary'}
            aria-pressed={following}
            disabled={search !== ''}
            title={search !== '' ? 'Clear the search to follow new lines' : 'Keep the newest line in view'}
            onClick={() => setFollow(!following)}
          >
            Follow
          </button>
        )}
      </div>
      {search === '' ? (
        <LogViewport
          key={logType}
          runId={runId}
          projectName={projectName}
          logType={logType}
          live={running}
          follow={following}
          onStopFollowing={() => setFollow(false)}
        />
      ) : (
        <LogSearchResults
          key={`${logType}\u0000${search}`}
          runId={runId}
          projectName={projectName}
          logType={logType}
          query={search}
        />
      )}
    </div>
  );
}
