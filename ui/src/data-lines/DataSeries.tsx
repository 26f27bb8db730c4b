import { useMemo, useRef, useState } from 'react';
import { MAX_DATA_LINES, useDataLines } from '../api/data-queries';
import { useNearViewport } from '../charts/useNearViewport';
import { Empty, ErrorState, Loading } from '../components/States';
import { DataTable } from './DataTable';
import { HistogramFigure } from './HistogramFigure';
import { kindOf, parseHistogram, parseJson, type HistogramStep } from './parse-data';
import { TextSeries } from './TextSeries';

interface Props {
  runId: number;
  projectName: string;
  logName: string;
  logType: string;
  live: boolean;
}

/** One data log name: its lines fetched (once scrolled near the viewport) and shown as a histogram, a table or a text list. */
export function DataSeries({ runId, projectName, logName, logType, live }: Props) {
  const box = useRef<HTMLElement>(null);
  const near = useNearViewport(box);
  const [seen, setSeen] = useState(near);
  if (near && !seen) setSeen(true);
  const query = useDataLines(runId, projectName, logName, live, seen);
  const lines = query.data?.lines;
  const kind =
    lines && lines.length > 0 ? kindOf(logType === 'DATA' ? lines[0]!.dataType : logType, lines[0]!.data) : null;
  const histogram = useMemo<HistogramStep[]>(() => {
    if (kind !== 'histogram' || !lines) return [];
    const out: HistogramStep[] = [];
    for (const l of lines) {
      const h = parseHistogram(parseJson(l.data));
      if (h) out.push({ step: l.step, time: l.time, ...h });
    }
    return out;
  }, [kind, lines]);

  let body;
  if (query.isPending) {
    body =
      logType === 'HISTOGRAM' ? (
        <figure className="hist-figure" aria-label={logName} aria-busy="true">
          <Loading />
        </figure>
      ) : (
        <Loading />
      );
  } else if (query.isError) body = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else if (!lines || lines.length === 0) body = <Empty title="No lines logged yet" />;
  else if (kind === 'histogram')
    body =
      histogram.length > 0 ? (
        <HistogramFigure logName={logName} steps={histogram} />
      ) : (
        <Empty title="These lines are not histograms this page can read" />
      );
  else if (kind === 'table') body = <DataTable logName={logName} lines={lines} />;
  else body = <TextSeries logName={logName} lines={lines} />;

  const total = query.data?.total ?? 0;
  return (
    <section ref={box} className="card data-series" aria-labelledby={`data-${logName}`}>
      <header className="data-series-head">
        <h3 id={`data-${logName}`} className="mono">
          {logName}
        </h3>
        <span className="tag">{kind ?? logType.toLowerCase()}</span>
        {total > 0 && (
          <span className="muted">
            {total} line{total === 1 ? '' : 's'}
            {total > MAX_DATA_LINES ? ` (first ${MAX_DATA_LINES} shown)` : ''}
          </span>
        )}
      </header>
      {body}
    </section>
  );
}
