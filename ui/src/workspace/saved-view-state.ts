/**
 * A saved view's state: the whole project workspace as one versioned JSON object, so the
 * server stores it as it is and a script can build one (docs/api.md §12). It is the page's
 * URL parameters (filters, search, status, tags, sort, columns, hidden runs, the charts'
 * page-wide settings, the leaderboard's choice), as name → value (a list for a repeated
 * one), and the panel layouts of the metric and the system charts:
 *
 *   { "version": 1,
 *     "params": { "q": "lr", "sort": "-metric:LAST:val/acc", "hide": "3,7", "col": ["config:lr"] },
 *     "layouts": { "metrics": <PanelLayout>, "system": <PanelLayout> } }
 *
 * The selection (`sel`) is what a person is about to compare, not part of a view: a view
 * neither stores it nor changes it.
 */
import type { Json } from '@server/api/schemas/json';
import { emptyLayout, parseLayout } from '../charts/panel-layout';
import type { WorkspaceLayouts } from './workspace-state';

/** The version this dashboard writes; a state without one is read as this version. */
export const VIEW_STATE_VERSION = 1;

/** URL parameters a view neither stores nor changes. */
export const UNSAVED_PARAMS: readonly string[] = ['sel'];

/** A workspace's state as a saved view holds it. */
export interface ViewState {
  version: typeof VIEW_STATE_VERSION;
  /** URL parameters by name (sorted), a repeated one as its values in order. */
  params: Record<string, string | string[]>;
  layouts: WorkspaceLayouts;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A scalar as a parameter value; undefined for anything else (objects, null). */
const scalar = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean'
      ? String(v)
      : undefined;

/** The params of `entries`, saved ones only, names sorted, repeated values in their order. */
function collect(entries: Iterable<[string, string]>): Record<string, string | string[]> {
  const byName = new Map<string, string[]>();
  for (const [name, value] of entries) {
    if (name === '' || UNSAVED_PARAMS.includes(name)) continue;
    byName.set(name, [...(byName.get(name) ?? []), value]);
  }
  const out: Record<string, string | string[]> = {};
  for (const name of [...byName.keys()].sort()) {
    const values = byName.get(name)!;
    out[name] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

/** Parameter entries from a query string, a list of [name, value] pairs or an object of values. */
function paramEntries(value: unknown): [string, string][] {
  if (typeof value === 'string') return [...new URLSearchParams(value.replace(/^\?/, ''))];
  const out: [string, string][] = [];
  if (Array.isArray(value)) {
    for (const pair of value) {
      const text = Array.isArray(pair) && typeof pair[0] === 'string' ? scalar(pair[1]) : undefined;
      if (text !== undefined) out.push([pair[0] as string, text]);
    }
  } else if (isRecord(value)) {
    for (const [name, v] of Object.entries(value))
      for (const item of Array.isArray(v) ? v : [v]) {
        const text = scalar(item);
        if (text !== undefined) out.push([name, text]);
      }
  }
  return out;
}

/** The state of a workspace showing `params` (the page's URL) and `layouts`. */
export const toViewState = (params: URLSearchParams, layouts: WorkspaceLayouts): ViewState => ({
  version: VIEW_STATE_VERSION,
  params: collect(params),
  layouts: { metrics: parseLayout(layouts.metrics), system: parseLayout(layouts.system) },
});

/**
 * A state from untrusted JSON (a view saved by an older dashboard or by a script): `params`
 * may be an object of values (a list for a repeated one), a list of [name, value] pairs or a
 * query string; a missing or malformed layout is the empty one (the automatic charts); what
 * is not understood is dropped. Never throws.
 */
export function parseViewState(value: unknown): ViewState {
  const state = isRecord(value) ? value : {};
  const layouts = isRecord(state.layouts) ? state.layouts : {};
  return {
    version: VIEW_STATE_VERSION,
    params: collect(paramEntries(state.params)),
    layouts: {
      metrics: layouts.metrics === undefined ? emptyLayout() : parseLayout(layouts.metrics),
      system: layouts.system === undefined ? emptyLayout() : parseLayout(layouts.system),
    },
  };
}

/**
 * What the workspace shows once `state` (parsed or not) is applied to a page now at `current`:
 * the view's URL parameters with the current selection kept, and the view's layouts.
 */
export function applyViewState(
  state: unknown,
  current: URLSearchParams,
): { params: URLSearchParams; layouts: WorkspaceLayouts } {
  const view = parseViewState(state);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(view.params))
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  for (const name of UNSAVED_PARAMS) for (const item of current.getAll(name)) params.append(name, item);
  return { params, layouts: view.layouts };
}

/** Whether two states (parsed or not) show the same workspace. */
export const sameViewState = (a: unknown, b: unknown): boolean =>
  JSON.stringify(parseViewState(a)) === JSON.stringify(parseViewState(b));

/** The state as the API's JSON object type (it is one: strings, lists and plain objects only). */
export const viewStateJson = (state: ViewState): { [key: string]: Json } => state as unknown as { [key: string]: Json };
