import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useMarkNotificationsRead, useNotifications } from '../api/notification-queries';

/** The unread count as the badge shows it. */
const badge = (unread: number): string => (unread > 99 ? '99+' : String(unread));

/**
 * The bell in the top bar: the organization's alerts, failed and stale runs with the user's
 * unread count; opening it lists them newest first (each a link to its run, at the step for
 * a metric alert) and marks them read.
 */
export function NotificationBell() {
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const unread = notifications.data?.unread ?? 0;
  const items = notifications.data?.items ?? [];

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !panel.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const toggle = () => {
    const next = !open;
    setOpen(next);
    const newest = items[0]?.id;
    if (next && unread > 0 && newest !== undefined) markRead.mutate(newest);
  };

  return (
    <div className="notification-bell" ref={panel}>
      <button
        type="button"
        className="secondary bell-button"
        aria-label="Notifications"
        aria-expanded={open}
        aria-describedby="notification-count"
        onClick={toggle}
      >
        <svg
          aria-hidden="true"
          width="16"
          height="16"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        <span id="notification-count" className={unread > 0 ? 'bell-count' : 'bell-count empty'}>
          <span className="bell-number">{unread > 0 ? badge(unread) : ''}</span>
          <span className="visually-hidden">{unread === 1 ? ' unread notification' : ' unread notifications'}</span>
        </span>
      </button>
      {open && (
        <div className="bell-panel" role="region" aria-label="Notifications list">
          {notifications.isError && <p role="alert">Could not load notifications.</p>}
          {items.length === 0 && !notifications.isError && <p className="muted">Nothing yet.</p>}
          <ul>
            {items.map((n) => (
              <li key={n.id} className={n.unread ? 'unread' : undefined}>
                {n.path ? (
                  <Link to={n.path} onClick={() => setOpen(false)}>
                    {n.title}
                  </Link>
                ) : (
                  <span>{n.title}</span>
                )}
                <span className="muted bell-meta">
                  {n.run ? `${n.run.projectName} · ` : ''}
                  {new Date(n.time).toLocaleString()}
                </span>
                {n.text && <span className="bell-text">{n.text}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
