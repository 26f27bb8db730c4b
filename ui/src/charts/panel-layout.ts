/**
 * The charts' layout as one serializable value: the panels added by hand, the charts' own
 * settings, sizes and order, the charts removed and the sections collapsed. A chart is a
 * panel: each metric has an automatic one (id `metric:<logName>`, in its logGroup's
 * section) unless removed; added panels (id `panel:<n>`) draw the metrics they name and
 * those a regular expression matches, in a "Panels" section above the others.
 *
 * Every function here is pure and returns a new layout (the one given is never changed), so
 * a parent (a saved view) can own the value and compare it by reference.
 */
import type { XMode } from './chart-model';

/** A panel's x axis: step, relative or wall time, or another metric of the run (matched by step). */
export type PanelX = XMode | { metric: string };

/** A panel's own settings; an absent one follows the page's toolbar. */
export interface PanelSettings {
  x?: PanelX;
  /** EMA weight, 0..0.99. */
  smoothing?: number;
  logScale?: boolean;
  /** The y axis' fixed ends; absent: fitted to the data. */
  yMin?: number;
  yMax?: number;
}

export type PanelWidth = 'normal' | 'full';
export type PanelHeight = 'normal' | 'tall';

/** A panel as the layout holds it: only what differs from an automatic chart's defaults. */
export interface Panel {
  id: string;
  /** Metric names it draws (an added panel's). */
  metrics?: string[];
  /** A regular expression: it draws every metric whose whole name matches (an added panel's). */
  pattern?: string;
  width?: PanelWidth;
  height?: PanelHeight;
  settings?: PanelSettings;
}

/** The whole layout of a set of charts (JSON as it is: saved views store it). */
export interface PanelLayout {
  version: 1;
  /** Added panels, and automatic ones with settings or a size of their own. */
  panels: Panel[];
  /** Ids of automatic panels removed. */
  removed: string[];
  /** Panel ids in the order chosen; a panel not listed follows those listed, in name order. */
  order: string[];
  /** Keys of collapsed sections (PanelSection.key). */
  collapsed: string[];
}

/** A panel ready to draw. */
export interface ResolvedPanel {
  id: string;
  /** Its accessible name and title: the metric name, or what an added panel draws. */
  label: string;
  custom: boolean;
  /** The metric names it names itself (for an automatic panel, its metric unless changed). */
  chosen: string[];
  /** Names to draw (explicit ones first, then the pattern's matches), at most MAX_PANEL_METRICS. */
  metrics: string[];
  /** How many names it would draw without the cap. */
  matched: number;
  pattern?: string;
  /** Why the pattern is not a valid regular expression. */
  patternError?: string;
  width: PanelWidth;
  height: PanelHeight;
  settings: PanelSettings;
}

/** A section of panels: a logGroup's charts, or the added panels ("Panels"). */
export interface PanelSection {
  key: string;
  title: string;
  collapsed: boolean;
  panels: ResolvedPanel[];
}

/** The most metrics one panel draws. */
export const MAX_PANEL_METRICS = 20;
/** The added panels' section key. */
export const CUSTOM_SECTION = 'custom';

const METRIC_PREFIX = 'metric:';
const CUSTOM_PREFIX = 'panel:';

/** The id of the automatic panel of `logName`. */
export const metricPanelId = (logName: string): string => METRIC_PREFIX + logName;
/** The section key of a logGroup. */
export const groupSectionKey = (group: string): string => `group:${group}`;
const isCustom = (id: string): boolean => id.startsWith(CUSTOM_PREFIX);

/** A layout with nothing changed: every metric's chart, in name order, all sections open. */
export const emptyLayout = (): PanelLayout => ({ version: 1, panels: [], removed: [], order: [], collapsed: [] });

/** The group of a log name: the part before its last `/` (src/domain/log-group.ts). */
export const logGroupOf = (logName: string): string => {
  const i = logName.lastIndexOf('/');
  return i < 0 ? '' : logName.slice(0, i);
};

/** Code-point order, as the API sorts names. */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The regular expression of a pattern (whole-name match), or the reason it is not one. */
export function compilePattern(pattern: string): RegExp | string {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch (error) {
    return error instanceof Error ? error.message : 'Not a regular expression';
  }
}

/** Adds an empty panel (or one with `init`) at the top of the added panels; returns the layout and its id. */
export function addPanel(layout: PanelLayout, init: Omit<Panel, 'id'> = {}): { layout: PanelLayout; id: string } {
  let n = 1;
  const taken = new Set(layout.panels.map((p) => p.id));
  while (taken.has(`${CUSTOM_PREFIX}${n}`)) n++;
  const id = `${CUSTOM_PREFIX}${n}`;
  return {
    id,
    layout: { ...layout, panels: [...layout.panels, { ...init, id }], order: [id, ...layout.order] },
  };
}

/**
 * Removes a panel: an added one is gone; an automatic one is listed as removed, its settings
 * dropped and its place kept (restoreRemoved brings it back there).
 */
export function removePanel(layout: PanelLayout, id: string): PanelLayout {
  const custom = isCustom(id);
  return {
    ...layout,
    panels: layout.panels.filter((p) => p.id !== id),
    order: custom ? layout.order.filter((o) => o !== id) : layout.order,
    removed: custom || layout.removed.includes(id) ? layout.removed : [...layout.removed, id],
  };
}

/** Brings back every removed automatic panel. */
export const restoreRemoved = (layout: PanelLayout): PanelLayout => ({ ...layout, removed: [] });

/**
 * Moves panel `id` by `delta` places among `sectionIds` (its section's panels in their shown
 * order); unchanged when it would leave the section.
 */
export function movePanel(layout: PanelLayout, sectionIds: readonly string[], id: string, delta: number): PanelLayout {
  const from = sectionIds.indexOf(id);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= sectionIds.length || delta === 0) return layout;
  const next = sectionIds.filter((s) => s !== id);
  next.splice(to, 0, id);
  const moved = new Set(next);
  // Order only matters within a section: the section's ids go last, in their new order.
  return { ...layout, order: [...layout.order.filter((o) => !moved.has(o)), ...next] };
}

/**
 * Changes panel `id` (adding its entry for an automatic one): each key of `patch` replaces
 * the panel's, an undefined one removes it.
 */
export function updatePanel(layout: PanelLayout, id: string, patch: Omit<Partial<Panel>, 'id'>): PanelLayout {
  const old = layout.panels.find((p) => p.id === id);
  const merged: Panel = { ...(old ?? { id }), ...patch, id };
  for (const key of Object.keys(merged) as (keyof Panel)[]) if (merged[key] === undefined) delete merged[key];
  const panels = old ? layout.panels.map((p) => (p === old ? merged : p)) : [...layout.panels, merged];
  return { ...layout, panels };
}

/** Collapses an open section or opens a collapsed one. */
export function toggleSection(layout: PanelLayout, key: string): PanelLayout {
  const collapsed = layout.collapsed.includes(key)
    ? layout.collapsed.filter((k) => k !== key)
    : [...layout.collapsed, key];
  return { ...layout, collapsed };
}

function resolve(panel: Panel, names: readonly string[], fallback: string): ResolvedPanel {
  const explicit = panel.metrics ?? [];
  let matches: string[] = [];
  let patternError: string | undefined;
  if (panel.pattern) {
    const re = compilePattern(panel.pattern);
    if (typeof re === 'string') patternError = re;
    else matches = names.filter((n) => re.test(n) && !explicit.includes(n));
  }
  const all = [...explicit, ...matches];
  const parts = [...explicit, ...(panel.pattern ? [panel.pattern] : [])];
  return {
    id: panel.id,
    label: parts.join(', ') || fallback,
    custom: isCustom(panel.id),
    chosen: explicit,
    metrics: all.slice(0, MAX_PANEL_METRICS),
    matched: all.length,
    ...(panel.pattern ? { pattern: panel.pattern } : {}),
    ...(patternError ? { patternError } : {}),
    width: panel.width ?? 'normal',
    height: panel.height ?? 'normal',
    settings: panel.settings ?? {},
  };
}

/**
 * The sections to draw for metric `names` (sorted): the added panels first ("Panels"), then
 * one section per logGroup in code-point order; in each, panels in the layout's order, the
 * rest by name. `filter` (case-insensitive) keeps the panels whose label contains it; a
 * section left empty is left out.
 */
export function resolveSections(layout: PanelLayout, names: readonly string[], filter = ''): PanelSection[] {
  const byId = new Map(layout.panels.map((p) => [p.id, p]));
  const removed = new Set(layout.removed);
  const rank = new Map(layout.order.map((id, i) => [id, i]));
  const needle = filter.trim().toLowerCase();
  const sections = new Map<string, { title: string; panels: ResolvedPanel[] }>();
  const add = (key: string, title: string, panel: ResolvedPanel) => {
    if (needle && !panel.label.toLowerCase().includes(needle)) return;
    const section = sections.get(key);
    if (section) section.panels.push(panel);
    else sections.set(key, { title, panels: [panel] });
  };
  for (const panel of layout.panels)
    if (isCustom(panel.id)) {
      add(CUSTOM_SECTION, 'Panels', resolve(panel, names, `Panel ${panel.id.slice(CUSTOM_PREFIX.length)}`));
    }
  for (const name of names) {
    const id = metricPanelId(name);
    if (removed.has(id)) continue;
    const group = logGroupOf(name);
    add(groupSectionKey(group), group || 'Ungrouped', resolve({ metrics: [name], ...byId.get(id), id }, names, name));
  }
  const keys = [...sections.keys()].sort((a, b) =>
    a === CUSTOM_SECTION ? -1 : b === CUSTOM_SECTION ? 1 : byCodePoint(a, b),
  );
  return keys.map((key) => {
    const { title, panels } = sections.get(key)!;
    const order = (p: ResolvedPanel) => rank.get(p.id) ?? Infinity;
    // Stable: unlisted panels keep their name order after the listed ones.
    const sorted = panels.map((p, i) => ({ p, i })).sort((a, b) => order(a.p) - order(b.p) || a.i - b.i);
    return { key, title, collapsed: layout.collapsed.includes(key), panels: sorted.map((s) => s.p) };
  });
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function parseX(v: unknown): PanelX | undefined {
  if (v === 'step' || v === 'relative' || v === 'wall') return v;
  if (isRecord(v) && typeof v.metric === 'string' && v.metric) return { metric: v.metric };
  return undefined;
}

function parseSettings(v: unknown): PanelSettings | undefined {
  if (!isRecord(v)) return undefined;
  const smoothing = finite(v.smoothing);
  const out: PanelSettings = {
    x: parseX(v.x),
    smoothing: smoothing === undefined ? undefined : Math.min(0.99, Math.max(0, smoothing)),
    logScale: typeof v.logScale === 'boolean' ? v.logScale : undefined,
    yMin: finite(v.yMin),
    yMax: finite(v.yMax),
  };
  for (const key of Object.keys(out) as (keyof PanelSettings)[]) if (out[key] === undefined) delete out[key];
  return out;
}

function parsePanel(v: unknown): Panel | null {
  if (!isRecord(v) || typeof v.id !== 'string' || !(isCustom(v.id) || v.id.startsWith(METRIC_PREFIX))) return null;
  const panel: Panel = { id: v.id };
  if (Array.isArray(v.metrics)) panel.metrics = strings(v.metrics);
  if (typeof v.pattern === 'string' && v.pattern) panel.pattern = v.pattern;
  if (v.width === 'normal' || v.width === 'full') panel.width = v.width;
  if (v.height === 'normal' || v.height === 'tall') panel.height = v.height;
  const settings = parseSettings(v.settings);
  if (settings) panel.settings = settings;
  return panel;
}

/**
 * A layout from untrusted JSON (local storage, a saved view): what is well formed is kept,
 * the rest dropped; not a layout at all gives the empty layout.
 */
export function parseLayout(value: unknown): PanelLayout {
  if (!isRecord(value) || value.version !== 1) return emptyLayout();
  const seen = new Set<string>();
  const panels: Panel[] = [];
  for (const item of Array.isArray(value.panels) ? value.panels : []) {
    const panel = parsePanel(item);
    if (panel && !seen.has(panel.id)) {
      seen.add(panel.id);
      panels.push(panel);
    }
  }
  return {
    version: 1,
    panels,
    removed: strings(value.removed),
    order: strings(value.order),
    collapsed: strings(value.collapsed),
  };
}
