import { useDeferredValue, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CONSOLE_LOG_TYPES } from '../api/log-queries';
import { useLogSeek } from '../api/log-seek-queries';
import { clockTime } from './LogRow';
import { LogSearchResults } from './LogSearchResults';
import { LogViewport } from './LogViewport';
import './logs.css';
import './log-seek.css';

const TYPE_LABELS: Record<(typeof CONSOLE_LOG_TYPES)[number], string> = {
  PRINT: 'Print',
  INFO: 'Info',
  WARNING: 'Warning',
  ERROR: 'Error',
  DEBUG: 'Debug',
};

/**
 * A run's console: a type filter (in the URL as `logType`), a text search (`logSearch`),
 * and either every line (virtualised, paged) or the lines that match the search. While the
 * run is RUNNING a Follow toggle keeps the view at the newest line. `logAt=<epoch ms>` (set by
 * a click on a chart, with the point's `logStep`) scrolls to the line nearest that time and
 * marks it.
 */
export function LogsPanel({ runId, projectName, running }: { runId: number; projectName: string; running: boolean }) {
  const ids = { type: useId(), search: useId() };
  const [params, setParams] = useSearchParams();
  const logType = (CONSOLE_LOG_TYPES as readonly string[]).includes(params.get('logType') ?? '')
    ? params.get('logType')!
    : '';
  const [query, setQuery] = useState(() => params.get('logSearch') ?? '');
  const search = useDeferredValue(query.trim());
  const [follow, setFollow] = useState(false);
  const logAtText = params.get('logAt');
  const logAt = logAtText !== null && /^\d{1,16}$/.test(logAtText) ? Number(logAtText) : null;
  const logStep = params.get('logStep');
  // A new time to go to clears the search and stops following.
  const [seenLogAt, setSeenLogAt] = useState(logAt);
  if (seenLogAt !== logAt) {
    setSeenLogAt(logAt);
    if (logAt !== null) {
      setQuery(params.get('logSearch') ?? '');
      setFollow(false);
    }
  }
  const following = follow && running && search === '';
  const seek = useLogSeek(runId, projectName, logType, search === '' ? logAt : null);

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
          {CONSOLE_LOG_TYPES.map((type) => (
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
            onClick={() => {
              if (!following && logAt !== null) setParam('logAt', '');
              setFollow(!following);
            }}
          >
            Follow
          </button>
        )}
      </div>
      {search === '' && logAt !== null && (
        <p className="muted log-seek" role="status">
          {seek.isPending
            ? 'Finding the line nearest the chart point…'
            : seek.isError
              ? `Could not find the line nearest the chart point: ${seek.error.message}`
              : seek.data
                ? `Line ${seek.data.line.lineNumber} is the nearest to ${logStep !== null ? `step ${Number(logStep).toLocaleString()} at ` : ''}${clockTime(new Date(logAt).toISOString())}.`
                : 'No lines to go to.'}
        </p>
      )}
      {search === '' ? (
        <LogViewport
          key={logType}
          runId={runId}
          projectName={projectName}
          logType={logType}
          live={running}
          follow={following}
          onStopFollowing={() => setFollow(false)}
          target={seek.data?.index}
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
