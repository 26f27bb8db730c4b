/**
 * Whether media step sliders follow the charts' crosshair step ("Follow chart step"), shared
 * by every media slider of the page and kept in memory while the page lives (a tab switch keeps it).
 */
import { useSyncExternalStore } from 'react';
import { useCrosshairStep } from '../charts/crosshair-step';

let following = false;
const listeners = new Set<() => void>();

export function setFollowChartStep(on: boolean): void {
  if (on === following) return;
  following = on;
  for (const l of listeners) l();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const get = () => following;

/** Whether sliders follow the chart step. */
export const useFollowChartStep = (): boolean => useSyncExternalStore(subscribe, get, get);

/** The step a following slider should show: the crosshair's last step, or null when not following (or never hovered). */
export function useFollowedStep(): number | null {
  const on = useFollowChartStep();
  const step = useCrosshairStep();
  return on ? step : null;
}
