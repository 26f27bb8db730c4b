import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../src/cli/progress-bar.js';

const sink = (isTTY: boolean) => {
  const written: string[] = [];
  return { out: { isTTY, write: (t: string) => written.push(t) }, written };
};

describe('ProgressBar', () => {
  it('prints a line when an item starts and at the end when not on a terminal', () => {
    const { out, written } = sink(false);
    const bar = new ProgressBar('rows', 200, out);
    bar.add(50, 'runs');
    bar.add(50, 'runs');
    bar.add(100, 'series');
    bar.end();
    expect(written).toEqual([
      `rows [${'#'.repeat(8)}${'-'.repeat(22)}]  25%  50/200  runs\n`,
      `rows [${'#'.repeat(30)}] 100%  200/200  series\n`,
      `rows [${'#'.repeat(30)}] 100%  200/200  series\n`,
    ]);
  });

  it('redraws one line on a terminal and ends it', () => {
    const { out, written } = sink(true);
    const bar = new ProgressBar('blobs', 0, out);
    bar.end();
    expect(written[0]).toMatch(/^\rblobs \[#{30}\] 100% {2}0\/0 {2}/);
    expect(written[written.length - 1]).toBe('\n');
  });
});
