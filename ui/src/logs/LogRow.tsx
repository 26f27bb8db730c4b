import type { CSSProperties } from 'react';
import type { LogLine } from '@server/api/schemas/logs';
import { formatTime } from '../format';

/**
 * The height in pixels of one text line of the log view: a row is this tall for each line of
 * its message (known once its page has loaded), so any position can be scrolled to.
 */
export const ROW_HEIGHT = 22;

/** How many text lines a console message takes (a traceback is one message of several lines). */
export function messageLines(message: string | undefined): number {
  if (!message) return 1;
  let lines = 1;
  for (let i = message.indexOf('\n'); i !== -1; i = message.indexOf('\n', i + 1)) lines++;
  return lines;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `14:05:09.123` in the viewer's time zone. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/**
 * One console line: its line number, time, type and message; ERROR and WARNING lines are
 * coloured. Without a line (its page is still loading) a placeholder of the same height.
 * `current` marks the line a chart click went to.
 */
export function LogRow({
  line,
  style,
  current,
}: {
  line: LogLine | undefined;
  style?: CSSProperties;
  current?: boolean;
}) {
  if (!line) {
    return (
      <div role="listitem" className="log-row log-row-pending" style={style} aria-busy="true">
        <span className="log-no" />
        <span className="log-msg muted">…</span>
      </div>
    );
  }
  const lines = messageLines(line.message);
  return (
    <div
      role="listitem"
      className={`log-row log-${line.logType}${current ? ' log-row-current' : ''}${lines > 1 ? ' log-row-tall' : ''}`}
      style={{ ...style, height: lines * ROW_HEIGHT }}
      aria-current={current ? 'true' : undefined}
    >
      <span className="log-no">{line.lineNumber}</span>
      <time className="log-time" dateTime={line.time} title={formatTime(line.time)}>
        {clockTime(line.time)}
      </time>
      <span className="log-type">{line.logType}</span>
      <span className="log-msg">{line.message}</span>
    </div>
  );
}
