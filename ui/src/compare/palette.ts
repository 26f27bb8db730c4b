/**
 * One colour per compared run, by its position in the list; the same colour is given to
 * the charts (`ChartRun.color`) so swatches, legend and lines agree. Readable on the light
 * and the dark background.
 */
export const RUN_COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#59a14f',
  '#b07aa1',
  '#76b7b2',
  '#edc948',
  '#ff9da7',
  '#9c755f',
  '#8c8c8c',
] as const;

/** The colour of the run at `index` (the palette repeats after ten runs). */
export const runColor = (index: number): string => RUN_COLORS[index % RUN_COLORS.length]!;
