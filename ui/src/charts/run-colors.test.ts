import { describe, expect, it } from 'vitest';
import { RUN_DASHES, RUN_PALETTE, runStyle, swatchCss } from './run-colors';

describe('runStyle', () => {
  it('gives runs 1..20 twenty different colours, all solid', () => {
    const styles = Array.from({ length: 20 }, (_, i) => runStyle(i + 1));
    expect(new Set(styles.map((s) => s.color)).size).toBe(20);
    expect(styles.every((s) => s.dash.length === 0)).toBe(true);
    expect(runStyle(1).color).toBe(RUN_PALETTE[0]);
  });

  it('repeats the colours with another line style past the palette, distinct up to 80 runs', () => {
    expect(runStyle(21)).toEqual({ color: runStyle(1).color, dash: RUN_DASHES[1] });
    expect(runStyle(41).dash).toBe(RUN_DASHES[2]);
    const looks = Array.from({ length: 80 }, (_, i) => JSON.stringify(runStyle(i + 1)));
    expect(new Set(looks).size).toBe(80);
    expect(runStyle(81)).toEqual(runStyle(1));
  });

  it('is the same for the same number, whatever else is listed', () => {
    expect(runStyle(12)).toEqual(runStyle(12));
    expect(runStyle(12).color).not.toBe(runStyle(2).color);
  });

  it('treats a number below 1 or not an integer as run 1', () => {
    expect(runStyle(0)).toEqual(runStyle(1));
    expect(runStyle(-3)).toEqual(runStyle(1));
    expect(runStyle(Number.NaN)).toEqual(runStyle(1));
  });
});

describe('swatchCss', () => {
  it('is the plain colour for a solid line', () => {
    expect(swatchCss(runStyle(3))).toEqual({ backgroundColor: runStyle(3).color });
  });

  it('keeps the colour and adds gaps for a dashed line', () => {
    const css = swatchCss(runStyle(23));
    expect(css.backgroundColor).toBe(runStyle(3).color);
    expect(css.backgroundImage).toMatch(/^repeating-linear-gradient\(90deg, transparent 0 \d+px, var\(--surface\)/);
  });
});
