import { useState } from 'react';
import type { DataLine } from '@server/api/schemas/logs';
import { formatTime } from '../format';
import { textOf } from './parse-data';

const PAGE = 50;

/** A text series as a list by step (step, time, text), paged when long. */
export function TextSeries({ logName, lines }: { logName: string; lines: DataLine[] }) {
  const pages = Math.max(1, Math.ceil(lines.length / PAGE));
  const [page, setPage] = useState(0);
  const shown = lines.slice(page * PAGE, page * PAGE + PAGE);
  return (
    <div className="text-series">
      <ol className="text-lines" aria-label={`${logName} by step`}>
        {shown.map((l, i) => (
          <li key={`${l.step}-${page * PAGE + i}`}>
            <div className="text-line-meta">
              <span className="tag">step {l.step}</span>
              <time className="muted" dateTime={l.time}>
                {formatTime(l.time)}
              </time>
            </div>
            <p className="text-line-body">{textOf(l.data)}</p>
          </li>
        ))}
      </ol>
      {pages > 1 && (
        <nav className="data-toolbar" aria-label={`${logName} pages`}>
          <button type="button" onClick={() => setPage(page - 1)} disabled={page === 0}>
            Previous
          </button>
          <span>
            Page {page + 1} of {pages} ({lines.length} lines)
          </span>
          <button type="button" onClick={() => setPage(page + 1)} disabled={page >= pages - 1}>
            Next
          </button>
        </nav>
      )}
    </div>
  );
}
