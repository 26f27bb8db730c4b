import { useEffect, useState } from 'react';
import { formatDuration } from '../format';

/**
 * How long the run has taken: ticking every second while it runs, else from its start to
 * its last status change.
 */
export function LiveDuration({ start, end, running }: { start: string; end: string; running: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  const from = new Date(start).getTime();
  const to = running ? Math.max(now, from) : new Date(end).getTime();
  return <span className="tabular">{formatDuration(to - from)}</span>;
}
