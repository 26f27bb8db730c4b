/**
 * One colour per compared run, by its position in the list: the charts' own palette, given
 * to the charts explicitly (`ChartRun.color`) so swatches, legend and lines always agree.
 */
import { runColor as chartColor } from '../charts/chart-theme';

/** The colour of the run at `index` (the palette repeats after ten runs). */
export const runColor = (index: number): string => chartColor(index);
