import { useStatusHistory } from '../api/run-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { formatTime } from '../format';

const metadataText = (metadata: unknown): string | undefined => {
  if (metadata === null || metadata === undefined) return undefined;
  const text = JSON.stringify(metadata);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/** The run's status transitions, oldest first, each with its time, source and metadata. */
export function StatusTimeline({ runId, statusUpdated }: { runId: number; statusUpdated: string }) {
  const history = useStatusHistory(runId, statusUpdated);
  if (history.isPending) return <Loading label="Loading status history…" />;
  if (history.isError) return <ErrorState error={history.error} onRetry={() => void history.refetch()} />;
  if (history.data.length === 0) return <Empty title="No status changes recorded" />;
  return (
    <ol className="timeline" aria-label="Status timeline">
      {history.data.map((event) => {
        const meta = metadataText(event.metadata);
        return (
          <li key={event.id} className="timeline-event">
            <time dateTime={event.createdAt} className="muted">
              {formatTime(event.createdAt)}
            </time>
            <span className="timeline-change">
              {event.fromStatus ? (
                <>
                  <span className={`status status-${event.fromStatus}`}>{event.fromStatus}</span>
                  <span aria-label="to"> → </span>
                </>
              ) : (
                <span className="muted">created </span>
              )}
              <span className={`status status-${event.toStatus}`}>{event.toStatus}</span>
            </span>
            <span className="muted timeline-source">by {event.source}</span>
            {meta && <code className="timeline-meta">{meta}</code>}
          </li>
        );
      })}
    </ol>
  );
}
