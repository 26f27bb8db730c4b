/**
 * The step the charts' crosshair last pointed at, kept in memory for the page's life (not in
 * the URL). The charts write it on every cursor move; the Media tab's sliders read it with
 * useSyncExternalStore when they follow the chart step.
 */
import { useSyncExternalStore } from 'react';

let current: number | null = null;
const listeners = new Set<() => void>();

/** Records the crosshair's step; listeners hear of a change only. */
export function setCrosshairStep(step: number): void {
  if (step === current || !Number.isFinite(step)) return;
  current = step;
  for (const l of listeners) l();
}

/** The last step the crosshair pointed at, or null before any chart was hovered. */
export const getCrosshairStep = (): number | null => current;

/** Subscribes to changes of the crosshair's step; returns the unsubscribe. */
export function subscribeCrosshairStep(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The crosshair's last step, re-rendering when it changes. */
export const useCrosshairStep = (): number | null =>
  useSyncExternalStore(subscribeCrosshairStep, getCrosshairStep, getCrosshairStep);
