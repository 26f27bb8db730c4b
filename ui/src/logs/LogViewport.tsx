import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { LOG_PAGE, useLogWindow } from '../api/log-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { LogRow, ROW_HEIGHT, messageLines } from './LogRow';

/** How often the newest page is asked again: following, and merely running. */
const FOLLOW_MS = 2_000;
const LIVE_MS = 5_000;

/**
 * The console lines of one type filter as a virtualised list: only the rows in view are in
 * the page, and only their pages (plus the newest page while the run is live) are fetched.
 * While following, the view stays at the last line; scrolling up stops following. A `target`
 * position is scrolled to (centred) and marked as the current line.
 */
export function LogViewport(props: {
  runId: number;
  projectName: string;
  logType: string;
  live: boolean;
  follow: boolean;
  onStopFollowing: () => void;
  target?: number;
}) {
  const { runId, projectName, logType, live, follow, onStopFollowing, target } = props;
  const scroller = useRef<HTMLDivElement>(null);
  // The pages in view, as of the last render (set during render when the view moves to other pages).
  const [pages, setPages] = useState<readonly [number, number]>([0, 0]);
  const logs = useLogWindow(
    runId,
    projectName,
    logType,
    pages[0] * LOG_PAGE,
    pages[1] * LOG_PAGE,
    live ? (follow ? FOLLOW_MS : LIVE_MS) : false,
  );
  const total = logs.total ?? 0;
  // Rows of several lines (tracebacks) seen so far, by index: kept when their page leaves the
  // window, so the rows above the view do not shrink back as it scrolls on.
  const tall = useRef({ key: '', lines: new Map<number, number>(), version: 0 });
  const tallKey = `${runId}:${logType}`;
  if (tall.current.key !== tallKey) tall.current = { key: tallKey, lines: new Map(), version: 0 };
  for (let i = pages[0] * LOG_PAGE, end = Math.min(total, (pages[1] + 1) * LOG_PAGE); i < end; i++) {
    const lines = messageLines(logs.lineAt(i)?.message);
    if (lines > 1 && tall.current.lines.get(i) !== lines) {
      tall.current.lines.set(i, lines);
      tall.current.version++;
    }
  }
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => ROW_HEIGHT * (tall.current.lines.get(index) ?? 1),
    overscan: 30,
  });
  // The virtualiser keeps its row offsets until told: a row that turned out taller moves the rest.
  const tallVersion = tall.current.version;
  useLayoutEffect(() => {
    if (tallVersion > 0) virtualizer.measure();
  }, [tallVersion, tallKey, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const firstPage = Math.floor((items[0]?.index ?? 0) / LOG_PAGE);
  const lastPage = Math.floor((items[items.length - 1]?.index ?? 0) / LOG_PAGE);
  if (firstPage !== pages[0] || lastPage !== pages[1]) setPages([firstPage, lastPage]);

  useEffect(() => {
    if (follow && total > 0) virtualizer.scrollToIndex(total - 1, { align: 'end' });
  }, [follow, total, virtualizer]);

  const canReach = target !== undefined && target < total;
  useEffect(() => {
    if (canReach && !follow) virtualizer.scrollToIndex(target, { align: 'center' });
  }, [canReach, target, follow, virtualizer]);

  if (logs.total === undefined) {
    if (logs.error) return <ErrorState error={logs.error} onRetry={logs.retry} />;
    return <Loading label="Loading console output…" />;
  }
  if (logs.total === 0) {
    return (
      <Empty title={logType ? `No ${logType} lines` : 'No console output yet'}>
        {live ? 'Lines appear here as the run prints them.' : 'This run printed nothing to its console.'}
      </Empty>
    );
  }
  return (
    <>
      {logs.error && <ErrorState error={logs.error} onRetry={logs.retry} />}
      <p className="muted log-summary">
        {total.toLocaleString()} {total === 1 ? 'line' : 'lines'}
        {follow ? ' · following new lines' : live ? ' · new lines appear as they arrive' : ''}
      </p>
      <div
        ref={scroller}
        className="log-scroller mono"
        tabIndex={0}
        role="list"
        aria-label="Console output"
        onWheel={(event) => {
          if (follow && event.deltaY < 0) onStopFollowing();
        }}
        onKeyDown={(event) => {
          if (follow && ['ArrowUp', 'PageUp', 'Home'].includes(event.key)) onStopFollowing();
        }}
        onTouchMove={() => {
          if (follow) onStopFollowing();
        }}
      >
        <div className="log-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => (
            <LogRow
              key={item.key}
              line={logs.lineAt(item.index)}
              current={item.index === target}
              style={{ transform: `translateY(${item.start}px)` }}
            />
          ))}
        </div>
      </div>
    </>
  );
}
