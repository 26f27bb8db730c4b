import { describe, expect, it } from 'vitest';
import { packPoints } from '../../src/domain/packed-points.js';
import { batchColumns } from '../../src/store/sql/metrics/batch-columns.js';
import type { PointColumns } from '../../src/store/sql/chunks/chunk-merge.js';

const rows = (c: PointColumns | undefined) => Array.from(c!.steps, (step, i) => [step, c!.times[i], c!.values[i]]);

describe('batchColumns', () => {
  it('splits a batch by series, each in the order sent when its steps ascend', () => {
    const batch = packPoints([
      { logName: 'loss', step: 0, time: 10, value: 1 },
      { logName: 'acc', step: 0, time: 10, value: NaN },
      { logName: 'loss', step: 1, time: 11, value: 2 },
      { logName: 'acc', step: 5, time: 12, value: Infinity },
    ]);
    const out = batchColumns(batch);
    expect([...out.keys()]).toEqual(['loss', 'acc']);
    expect(rows(out.get('loss'))).toEqual([
      [0, 10, 1],
      [1, 11, 2],
    ]);
    expect(rows(out.get('acc'))).toEqual([
      [0, 10, NaN],
      [5, 12, Infinity],
    ]);
  });

  it('keeps one point per step, the later time winning and at equal times the later line, in step order', () => {
    const batch = packPoints([
      { logName: 'loss', step: 3, time: 20, value: 1 },
      { logName: 'loss', step: 1, time: 5, value: 2 },
      { logName: 'loss', step: 3, time: 19, value: 3 },
      { logName: 'loss', step: 1, time: 5, value: 4 },
      { logName: 'loss', step: 2, time: 1, value: 5 },
    ]);
    expect(rows(batchColumns(batch).get('loss'))).toEqual([
      [1, 5, 4],
      [2, 1, 5],
      [3, 20, 1],
    ]);
  });

  it('keys a sys/ series by step and time: every sample kept, in step-then-time order', () => {
    const batch = packPoints([
      { logName: 'sys/cpu', step: 0, time: 30, value: 1 },
      { logName: 'sys/cpu', step: 0, time: 10, value: 2 },
      { logName: 'sys/cpu', step: 0, time: 30, value: 3 },
      { logName: 'sys/cpu', step: 0, time: 20, value: 4 },
    ]);
    expect(rows(batchColumns(batch).get('sys/cpu'))).toEqual([
      [0, 10, 2],
      [0, 20, 4],
      [0, 30, 3],
    ]);
  });
});
