/**
 * The project workspace's state as plain data (a saved view stores it as JSON, see
 * saved-view-state.ts): the runs hidden from the charts, the run drawn highlighted and the
 * charts' panel layouts. Hidden runs live in the URL's `hide` parameter (the charts' legend
 * reads and writes the same one); the highlight follows the pointer and is never stored.
 */
import type { PanelLayout } from '../charts/panel-layout';

/** The panel layouts of the workspace's metric charts and of its System charts. */
export interface WorkspaceLayouts {
  metrics: PanelLayout;
  system: PanelLayout;
}

/** What the workspace shows beside the runs table. */
export interface WorkspaceState {
  /** Run ids hidden from the charts, ascending. */
  hidden: number[];
  /** The run drawn thick and in front while a row or legend entry is hovered; null: none. */
  highlight: number | null;
  layouts: WorkspaceLayouts;
}

/** The most runs the workspace charts at once: the table's first rows in its order. */
export const MAX_CHARTED_RUNS = 100;

/** The run ids of `hide=1,2,3` (anything else left out), ascending and distinct. */
export function readHidden(text: string | null): number[] {
  const ids = (text ?? '')
    .split(',')
    .filter((p) => /^\d{1,15}$/.test(p))
    .map(Number)
    .filter((n) => n > 0);
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** The `hide` parameter's value for `ids`, or null for none. */
export const writeHidden = (ids: Iterable<number>): string | null =>
  [...new Set(ids)].sort((a, b) => a - b).join(',') || null;

/** `hidden` with `runId` added when `hide` is true, removed otherwise. */
export function toggleHidden(hidden: readonly number[], runId: number, hide: boolean): number[] {
  const rest = hidden.filter((id) => id !== runId);
  return hide ? [...rest, runId].sort((a, b) => a - b) : rest;
}

/** "Charting the first 100 of 2,000 matching runs", or null when every match is charted. */
export function chartedNote(charted: number, total: number): string | null {
  if (total <= charted) return null;
  return `Charting the first ${charted.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} matching runs`;
}
