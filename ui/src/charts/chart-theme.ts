/** The page's CSS variables as a chart's canvas needs them (run colours: run-colors.ts). */

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
