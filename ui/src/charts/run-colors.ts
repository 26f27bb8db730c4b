/**
 * The one home of run colours: a run's look (colour, then line style past the palette) comes
 * from the run itself, its number in the project, so it is the same in every legend, chart,
 * tooltip, swatch and compare page whatever the list it appears in.
 */

/**
 * Twenty colours, mid-tone so they read on light and dark, told apart by hue first and then
 * by lightness. The first ten are the charts' earlier palette (run 1 is still blue).
 */
export const RUN_PALETTE = [
  '#3b82f6', // blue
  '#f97316', // orange
  '#22a06b', // green
  '#e5484d', // red
  '#8b5cf6', // violet
  '#0ea5b7', // cyan
  '#d97706', // amber
  '#db2777', // pink
  '#65a30d', // lime
  '#6366f1', // indigo
  '#a0522d', // sienna
  '#64748b', // slate
  '#c026d3', // fuchsia
  '#0f766e', // dark teal
  '#7c7c12', // olive
  '#f472b6', // light pink
  '#9f1239', // maroon
  '#38bdf8', // sky
  '#4ade80', // mint
  '#a78bfa', // lavender
] as const;

/** Line dashes (CSS px, on/off), one per trip through the palette: solid, dashed, dotted, dash-dot. */
export const RUN_DASHES: readonly (readonly number[])[] = [[], [7, 4], [2, 3], [8, 3, 2, 3]];

/** How a run is drawn: its colour and its line dash (empty: solid). */
export interface RunStyle {
  color: string;
  dash: readonly number[];
}

/**
 * The look of the run numbered `number` (1-based, `RunDetails.number`): runs 1..20 get the
 * twenty colours solid, 21..40 the same colours dashed, and so on; after 80 the looks repeat.
 * A number below 1 or not an integer is treated as 1.
 */
export function runStyle(number: number): RunStyle {
  const index = Number.isSafeInteger(number) && number >= 1 ? number - 1 : 0;
  const size = RUN_PALETTE.length;
  return {
    color: RUN_PALETTE[index % size]!,
    dash: RUN_DASHES[Math.floor(index / size) % RUN_DASHES.length]!,
  };
}

/**
 * The CSS of a run's swatch: its colour as the background, and for a dashed line gaps of the
 * page's surface colour across it (so a dashed run's swatch looks dashed and keeps its colour).
 */
export function swatchCss(style: RunStyle): { backgroundColor: string; backgroundImage?: string } {
  if (style.dash.length === 0) return { backgroundColor: style.color };
  const [on = 4, off = 3] = style.dash;
  // Half scale, at least 2px of colour so a small swatch keeps its colour.
  const stop = Math.max(2, Math.round(on / 2));
  const gap = stop + Math.max(1, Math.round(off / 2));
  return {
    backgroundColor: style.color,
    backgroundImage: `repeating-linear-gradient(90deg, transparent 0 ${stop}px, var(--surface) ${stop}px ${gap}px)`,
  };
}
