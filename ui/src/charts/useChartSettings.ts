/**
 * The charts' page state, kept in the URL so a view can be shared:
 *
 * - `zoom=<stepMin>-<stepMax>`: the step window every chart of the page shows (absent: all);
 * - `smooth=<0..0.99>`: EMA smoothing weight; `x=step|relative|wall`: the x axis;
 * - `logy=1`: log-scale y; `hide=<runId,...>`: runs hidden from the overlay;
 * - `chartFilter=<text>`: the "Filter charts" box.
 *
 * A page with two sets of charts (the compare page's System section) names the second set's
 * parameters with a prefix (`sys.x`, `sys.smooth`, ...); `hide` is the page's, never prefixed.
 *
 * Writes keep every other parameter of the page as it is. A zoom adds a history entry (Back
 * zooms out); the other settings replace it (a slider drag is not fifty Back presses).
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { XMode } from './chart-model';

export interface StepZoom {
  min: number;
  max: number;
}

export interface ChartSettings {
  zoom: StepZoom | null;
  smoothing: number;
  xMode: XMode;
  logScale: boolean;
  hidden: ReadonlySet<number>;
  filter: string;
}

const X_MODES: readonly XMode[] = ['step', 'relative', 'wall'];

/** Parses `a-b` (integers, a <= b); null otherwise. */
export function parseZoom(text: string | null): StepZoom | null {
  const m = /^(\d{1,15})-(\d{1,15})$/.exec(text ?? '');
  if (!m) return null;
  const min = Number(m[1]);
  const max = Number(m[2]);
  return min <= max ? { min, max } : null;
}

/** The URL parameter of setting `name` for the charts named by `prefix` ('' for the page's own). */
const paramName = (prefix: string, name: string): string => (prefix && name !== 'hide' ? `${prefix}.${name}` : name);

function parseSmoothing(text: string | null): number {
  const v = Number(text);
  return text !== null && Number.isFinite(v) ? Math.min(0.99, Math.max(0, v)) : 0;
}

/**
 * The charts' settings from the URL, and setters that write them back. `defaultX` is the x
 * axis when the URL names none (and choosing it removes `x` from the URL); `prefix` names
 * the parameters of a second set of charts on the page (see above).
 */
export function useChartSettings(defaultX: XMode = 'step', prefix = '') {
  const [params, setParams] = useSearchParams();
  // Written values until the URL shows them: the router applies a navigation in a transition,
  // and a controlled checkbox or slider must show its new value at once.
  const [pending, setPending] = useState<Readonly<Record<string, string | null>>>({});
  const caughtUp = Object.keys(pending).filter((name) => params.get(name) === pending[name]);
  if (caughtUp.length > 0) {
    const rest = { ...pending };
    for (const name of caughtUp) delete rest[name];
    setPending(rest);
  }
  // The same, for writes in quick succession: the router's functional update starts from the
  // URL of its last render, so each write re-applies the ones not shown yet.
  const unsent = useRef<Record<string, string | null>>({});
  for (const name of caughtUp) delete unsent.current[name];
  const read = (given: string): string | null => {
    const name = paramName(prefix, given);
    return name in pending ? pending[name]! : params.get(name);
  };
  const zoomText = read('zoom');
  const smoothText = read('smooth');
  const xText = read('x');
  const logText = read('logy');
  const hideText = read('hide');
  const filter = read('chartFilter') ?? '';

  const settings = useMemo<ChartSettings>(
    () => ({
      zoom: parseZoom(zoomText),
      smoothing: parseSmoothing(smoothText),
      xMode: X_MODES.includes(xText as XMode) ? (xText as XMode) : defaultX,
      logScale: logText === '1',
      hidden: new Set(
        (hideText ?? '')
          .split(',')
          .filter((p) => /^\d+$/.test(p))
          .map(Number),
      ),
      filter,
    }),
    [zoomText, smoothText, xText, logText, hideText, filter, defaultX],
  );

  const update = useCallback(
    (short: string, given: string | null, replace = true) => {
      const name = paramName(prefix, short);
      const value = given === '' ? null : given;
      setPending((prev) => ({ ...prev, [name]: value }));
      unsent.current[name] = value;
      const writes = { ...unsent.current };
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, v] of Object.entries(writes)) {
            if (v === null) next.delete(key);
            else next.set(key, v);
          }
          return next;
        },
        { replace },
      );
    },
    [setParams, prefix],
  );

  const setters = useMemo(
    () => ({
      // A zoom is a history entry: Back returns to the previous window.
      setZoom: (zoom: StepZoom | null) => update('zoom', zoom ? `${zoom.min}-${zoom.max}` : null, false),
      setSmoothing: (v: number) => update('smooth', v > 0 ? String(v) : null),
      setXMode: (mode: XMode) => update('x', mode === defaultX ? null : mode),
      setLogScale: (on: boolean) => update('logy', on ? '1' : null),
      setHidden: (ids: ReadonlySet<number>) => update('hide', [...ids].sort((a, b) => a - b).join(',') || null),
      setFilter: (text: string) => update('chartFilter', text || null),
    }),
    [update, defaultX],
  );

  return { settings, ...setters };
}
