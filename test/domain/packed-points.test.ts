import { describe, expect, it } from 'vitest';
import { packLines, packPoints } from '../../src/domain/packed-points.js';

describe('packLines', () => {
  it('packs lines as packPoints packs their points: names once in first-seen order, values as sent', () => {
    const lines = [
      {
        step: 0,
        time: 1000,
        values: [
          { logName: 'loss', value: 0.5 },
          { logName: 'acc', value: NaN },
        ],
      },
      { step: 1, time: 1001, values: [] },
      {
        step: 1,
        time: 1002,
        values: [
          { logName: 'acc', value: -Infinity },
          { logName: 'sys/cpu', value: 3 },
        ],
      },
    ];
    const points = lines.flatMap((l) =>
      l.values.map((v) => ({ logName: v.logName, step: l.step, time: l.time, value: v.value })),
    );
    const packed = packLines(lines);
    expect(packed.names).toEqual(['loss', 'acc', 'sys/cpu']);
    expect(Array.from(packed.cols)).toEqual(Array.from(packPoints(points).cols));
    expect(Array.from(packed.cols)).toEqual([0, 0, 1000, 0.5, 1, 0, 1000, NaN, 1, 1, 1002, -Infinity, 2, 1, 1002, 3]);
  });

  it('packs no lines as no points', () => {
    const packed = packLines([]);
    expect(packed.names).toEqual([]);
    expect(packed.cols.length).toBe(0);
  });
});
