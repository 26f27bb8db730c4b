/** Colours for charts: a run palette that reads on light and dark, and the page's CSS variables. */

/** Run colours, one per run index (cycled). Mid-tone so they read on both themes. */
export const PALETTE = [
  '#3b82f6',
  '#f97316',
  '#22a06b',
  '#e5484d',
  '#8b5cf6',
  '#0ea5b7',
  '#d97706',
  '#db2777',
  '#65a30d',
  '#6366f1',
] as const;

/** The colour of the run at `index` unless the run brings its own. */
export const runColor = (index: number, own?: string): string => own ?? PALETTE[index % PALETTE.length]!;

/** The theme colours a canvas needs, read from the page's CSS variables. */
export interface ChartTheme {
  text: string;
  muted: string;
  grid: string;
  surface: string;
  danger: string;
  font: string;
}

/** Reads the current theme from CSS variables on the root element. */
export function readTheme(): ChartTheme {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const family = style.fontFamily || 'system-ui, sans-serif';
  return {
    text: v('--text', '#1b1f24'),
    muted: v('--muted', '#5d6673'),
    grid: v('--border', '#d9dde3'),
    surface: v('--surface', '#ffffff'),
    danger: v('--danger', '#c62828'),
    font: `11px ${family}`,
  };
}
