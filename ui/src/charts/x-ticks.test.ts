import { describe, expect, it } from 'vitest';
import { fittingSpace, LABEL_GAP } from './x-ticks';

/** 1, 2, 2.5, 5 × 10^k: uPlot's numeric increments. */
const INCRS = [-2, -1, 0, 1, 2, 3, 4, 5, 6].flatMap((k) => [1, 2, 2.5, 5].map((m) => m * 10 ** k));
/** About 11px sans-serif: a digit or a comma 6.2 px. */
const measure = (text: string) => text.length * 6.2;
const label = (v: number) => v.toLocaleString('en-US');

/** The splits of `incr` from `min` to `max` (multiples of it), as uPlot's numeric axis has them. */
function splits(min: number, max: number, incr: number): number[] {
  const out: number[] = [];
  for (let v = Math.ceil(min / incr) * incr; v <= max + 1e-9; v += incr) out.push(v);
  return out;
}

/** The increment uPlot takes for `space`: the first whose spacing is at least it. */
function chosen(min: number, max: number, dim: number, space: number): number {
  return INCRS.find((incr) => (dim * incr) / (max - min) >= space)!;
}

/** The labels' boxes on a `dim`-px axis at increment `incr`, each centred on its tick. */
function boxes(min: number, max: number, dim: number, incr: number): [number, number][] {
  return splits(min, max, incr).map((v) => {
    const at = ((v - min) / (max - min)) * dim;
    const half = measure(label(v)) / 2;
    return [at - half, at + half];
  });
}

const overlaps = (b: [number, number][]) => b.some((box, i) => i > 0 && box[0] < b[i - 1]![1]);

describe('fittingSpace', () => {
  const at = (min: number, max: number) => (incr: number) => splits(min, max, incr).map(label);

  it('spaces steps 0–20,000 so that "12,000"-wide labels never meet, at any width from 280 px', () => {
    for (let dim = 200; dim <= 1400; dim += 10) {
      const space = fittingSpace(0, 20_000, dim, INCRS, at(0, 20_000), measure);
      const incr = chosen(0, 20_000, dim, space);
      const drawn = boxes(0, 20_000, dim, incr);
      expect(overlaps(drawn), `${dim} px`).toBe(false);
      const gaps = drawn.slice(1).map((b, i) => b[0] - drawn[i]![1]);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(LABEL_GAP - 1e-6);
    }
  });

  it('takes the smallest increment whose labels fit, so wider charts get more ticks', () => {
    const narrow = chosen(0, 20_000, 330, fittingSpace(0, 20_000, 330, INCRS, at(0, 20_000), measure));
    const wide = chosen(0, 20_000, 1300, fittingSpace(0, 20_000, 1300, INCRS, at(0, 20_000), measure));
    expect(wide).toBeLessThan(narrow);
    // One step smaller would not fit at 330 px: "12,500"-wide labels every 2,500 steps are 41 px apart.
    expect(measure('12,500') + LABEL_GAP).toBeGreaterThan((330 * 2500) / 20_000);
    expect(narrow).toBe(5000);
  });

  it('measures the widest line of two-line labels and skips labels left out', () => {
    const labels = () => ['10:00am\nNov 26', null, '10:30am'];
    const space = fittingSpace(0, 3600, 400, [60, 300, 600, 1800], labels, measure);
    expect(space).toBeGreaterThanOrEqual(measure('10:00am') + LABEL_GAP - 1e-6);
  });

  it('gives the whole length when no increment fits, and a floor for an empty range', () => {
    expect(fittingSpace(0, 10, 100, [1], () => ['a very long label indeed'], measure)).toBe(100);
    expect(fittingSpace(5, 5, 100, INCRS, () => [], measure)).toBeGreaterThan(0);
  });
});
