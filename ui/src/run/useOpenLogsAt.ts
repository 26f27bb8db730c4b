import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { PickedPoint } from '../charts/chart-point-click';

/**
 * A chart point's handler on the run page: opens the Logs tab at the console line nearest
 * the point's time (`?tab=logs&logAt=<epoch ms>&logStep=<step>`), clearing a log search.
 */
export function useOpenLogsAt(): (point: PickedPoint) => void {
  const [, setParams] = useSearchParams();
  return useCallback(
    (point: PickedPoint) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.set('tab', 'logs');
        next.set('logAt', String(Math.round(point.time)));
        next.set('logStep', String(point.step));
        next.delete('logSearch');
        return next;
      }),
    [setParams],
  );
}
