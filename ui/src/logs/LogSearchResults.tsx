import { useEffect, useMemo, useState } from 'react';
import { useLogScan } from '../api/log-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { LogRow } from './LogRow';

/** Lines scanned without asking, per press of "Search further". */
const SCAN_BUDGET = 50_000;
/** The scan pauses once this many more lines match; as many more are listed. */
const MATCH_LIMIT = 500;

/**
 * The lines whose message contains `query` (case-insensitive). The API has no text search,
 * so the lines are read in slices of 5,000 from the first and filtered here: up to 50,000
 * lines per step, pausing at 500 matches, with a button to search further.
 */
export function LogSearchResults(props: { runId: number; projectName: string; logType: string; query: string }) {
  const { runId, projectName, logType, query } = props;
  const scan = useLogScan(runId, projectName, logType, true);
  const [budget, setBudget] = useState({ lines: SCAN_BUDGET, matches: MATCH_LIMIT });
  const pages = scan.data?.pages;
  const scanned = pages?.reduce((n, page) => n + page.logs.length, 0) ?? 0;
  const total = pages?.[pages.length - 1]?.total ?? 0;
  const matches = useMemo(() => {
    const q = query.toLowerCase();
    const out = [];
    for (const page of pages ?? []) {
      for (const line of page.logs) if (line.message.toLowerCase().includes(q)) out.push(line);
    }
    return out;
  }, [pages, query]);
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = scan;
  const more = hasNextPage && !isError;
  const keepGoing = more && !isFetchingNextPage && matches.length < budget.matches && scanned < budget.lines;
  useEffect(() => {
    if (keepGoing) void fetchNextPage();
  }, [keepGoing, fetchNextPage]);

  if (scan.isPending) return <Loading label="Searching console output…" />;
  if (scan.isError && !pages) return <ErrorState error={scan.error} onRetry={() => void scan.refetch()} />;
  const scanning = more && (isFetchingNextPage || keepGoing);
  return (
    <div className="log-search">
      <p className="muted log-summary" role="status">
        {matches.length.toLocaleString()} {matches.length === 1 ? 'line matches' : 'lines match'} in{' '}
        {scanned.toLocaleString()} of {total.toLocaleString()} lines searched
        {scanning ? ' (searching…)' : ''}. The server cannot search, so lines are read and searched here.
      </p>
      {scan.isError && <ErrorState error={scan.error} onRetry={() => void fetchNextPage()} />}
      {matches.length === 0 ? (
        !scanning && <Empty title={`No lines contain “${query}”`} />
      ) : (
        <div className="log-scroller log-results mono" role="list" aria-label="Matching lines" tabIndex={0}>
          {matches.slice(0, budget.matches).map((line, i) => (
            <LogRow key={`${line.lineNumber}-${line.time}-${i}`} line={line} />
          ))}
        </div>
      )}
      {more && !scanning && (
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setBudget({ lines: scanned + SCAN_BUDGET, matches: matches.length + MATCH_LIMIT });
            void fetchNextPage();
          }}
        >
          Search further ({(total - scanned).toLocaleString()} lines left)
        </button>
      )}
    </div>
  );
}
