import { useState } from 'react';
import { type RunAlert, useRunAlerts } from '../api/alert-queries';
import { Empty, ErrorState, Loading } from '../components/States';
import { formatAgo, formatTime } from '../format';

/** The alerts the list shows before "Show all". */
const FIRST_ALERTS = 20;

const levelClass = (level: string | null): string => {
  const l = (level ?? '').toUpperCase();
  if (l === 'ERROR' || l === 'CRITICAL' || l === 'FATAL') return 'alert-level alert-error';
  if (l === 'WARN' || l === 'WARNING') return 'alert-level alert-warn';
  return 'alert-level';
};

const alertName = (a: RunAlert): string => a.title || a.body?.slice(0, 80) || 'Alert';

/**
 * Above a run's tabs when it has alerts: how many, the latest one's level, title and time,
 * and a button to the Overview's list. Nothing while loading, on error or without alerts.
 */
export function AlertsBanner({ runId, live, onShow }: { runId: number; live: boolean; onShow: () => void }) {
  const alerts = useRunAlerts(runId, live);
  const list = alerts.data ?? [];
  const latest = list[0];
  if (!latest) return null;
  const count = list.length;
  return (
    <section className="alerts-banner" aria-label="Latest alert">
      <span className="alerts-count">
        {count === 1 ? '1 alert' : `${count.toLocaleString()} alerts`}
        {count > 1 ? ', latest:' : ':'}
      </span>
      {latest.level && <span className={levelClass(latest.level)}>{latest.level}</span>}
      <strong className="alerts-title">{alertName(latest)}</strong>
      <time className="muted" dateTime={latest.time} title={formatTime(latest.time)}>
        {formatAgo(latest.time)}
      </time>
      <button type="button" className="alerts-show" onClick={onShow}>
        Show alerts
      </button>
    </section>
  );
}

/** A run's alerts in its Overview, newest first: level, title, body and time of each. */
export function AlertList({ runId, live }: { runId: number; live: boolean }) {
  const alerts = useRunAlerts(runId, live);
  const [all, setAll] = useState(false);
  if (alerts.isPending) return <Loading label="Loading alerts…" />;
  if (alerts.isError) return <ErrorState error={alerts.error} onRetry={() => void alerts.refetch()} />;
  if (alerts.data.length === 0) return <Empty title="No alerts" />;
  const shown = all ? alerts.data : alerts.data.slice(0, FIRST_ALERTS);
  return (
    <>
      <ol className="alert-list" aria-label="Alerts">
        {shown.map((a) => (
          <li key={a.id} className="alert-item">
            <div className="alert-head">
              {a.level && <span className={levelClass(a.level)}>{a.level}</span>}
              <strong>{alertName(a)}</strong>
              <time className="muted" dateTime={a.time}>
                {formatTime(a.time)}
              </time>
            </div>
            {a.body && a.body !== alertName(a) && <p className="alert-body">{a.body}</p>}
          </li>
        ))}
      </ol>
      {shown.length < alerts.data.length && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {alerts.data.length.toLocaleString()} alerts
        </button>
      )}
    </>
  );
}
