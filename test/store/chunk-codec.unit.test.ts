import { describe, expect, it } from 'vitest';
import { decodeChunk, encodeChunk, viewChunk, type ChunkPoints } from '../../src/store/sql/chunks/chunk-codec.js';

/** A chunk of n points from step0 by `stride`, times from time0 by `tick`, values from `value`. */
function chunk(n: number, step0: number, stride: number, time0: number, tick: number, value: (i: number) => number) {
  const c: ChunkPoints = { steps: [], times: [], values: [] };
  for (let i = 0; i < n; i++) {
    c.steps.push(step0 + i * stride);
    c.times.push(time0 + i * tick);
    c.values.push(value(i));
  }
  return c;
}

const same = (a: ChunkPoints, b: ChunkPoints): void => {
  expect(b.steps).toEqual(a.steps);
  expect(b.times).toEqual(a.times);
  expect(b.values.map(String)).toEqual(a.values.map(String)); // NaN and ±Infinity too
};

describe('chunk codec', () => {
  const cases: [string, ChunkPoints, number][] = [
    ['steps one apart, whole-ms times', chunk(128, 1000, 1, 1.7e12, 37, (i) => Math.sin(i)), 12],
    ['steps five apart', chunk(128, 0, 5, 1.7e12, 1, (i) => i / 3), 12],
    ['one step (a sys/ series at step 0)', chunk(60, 0, 0, 1.7e12, 1000, (i) => i), 12],
    ['irregular steps', { steps: [0, 1, 3, 7, 8], times: [1, 2, 3, 4, 5], values: [1, 2, 3, 4, 5] }, 20],
    ['fractional times', chunk(128, 0, 1, 1.7e12 + 0.25, 0.5, (i) => i), 16],
    ['times over 24 days apart', chunk(4, 0, 1, 0, 3e9, (i) => i), 16],
    ['non-finite values', chunk(6, 0, 1, 5, 1, (i) => [NaN, Infinity, -Infinity, 0, -0, 1e308][i]!), 12],
    ['one point', chunk(1, -7, 1, -3, 1, () => 42), 12],
    ['negative steps and times', chunk(10, -100, 3, -1e6, -7, (i) => -i), 12],
  ];
  for (const [name, c, bytesPerPoint] of cases) {
    it(`reads back ${name} exactly, in ${bytesPerPoint} bytes a point plus a 40-byte header`, () => {
      const bytes = encodeChunk(c);
      same(c, decodeChunk(bytes));
      const v = viewChunk(bytes);
      same(c, { steps: Array.from(v.steps), times: Array.from(v.times), values: Array.from(v.values) });
      const n = c.steps.length;
      // int32 time offsets are padded to whole 8 bytes.
      const padded = bytesPerPoint === 12 || bytesPerPoint === 20 ? Math.ceil(n / 2) * 8 - 4 * n : 0;
      expect(bytes.byteLength).toBe(40 + n * bytesPerPoint + padded);
    });
  }

  it('encodes a slice [from, to) of a chunk', () => {
    const c = chunk(10, 0, 1, 100, 1, (i) => i * 2);
    const back = decodeChunk(encodeChunk(c, 3, 7));
    same({ steps: [3, 4, 5, 6], times: [103, 104, 105, 106], values: [6, 8, 10, 12] }, back);
  });

  it('reads bytes that do not start on an 8-byte boundary (as a driver may hand them)', () => {
    const c = chunk(9, 0, 2, 1, 1, (i) => i);
    const bytes = encodeChunk(c);
    const shifted = Buffer.alloc(bytes.byteLength + 3);
    bytes.copy(shifted, 3);
    same(c, decodeChunk(shifted.subarray(3)));
  });
});
