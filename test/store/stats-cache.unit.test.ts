import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkStats, type ChunkPoints, type ChunkStats } from '../../src/store/sql/chunks/chunk-codec.js';
import type { ChunkKey } from '../../src/store/sql/chunks/chunk-rows.js';
import { stateOfChunks } from '../../src/store/sql/metrics/metric-recompute.js';
import { SeriesStats } from '../../src/store/sql/chunks/stats-cache.js';

/** The statistics of a chunk of `n` points from `step`, values drawn from `seed` (NaN among them). */
function statsAt(step: number, n: number, seed: number): ChunkStats {
  const c: ChunkPoints = { steps: [], times: [], values: [] };
  for (let i = 0; i < n; i++) {
    c.steps.push(step + i);
    c.times.push(1.7e12 + ((seed * 7919 + i * 104729) % 100_000));
    const v = Math.sin(seed + i) * 10 ** (seed % 5);
    c.values.push((seed + i) % 11 === 0 ? NaN : v);
  }
  return chunkStats(c);
}

/** What SeriesStats must agree with: a plain map folded in key order. */
function expected(model: Map<string, { key: ChunkKey; stats: ChunkStats }>) {
  const ordered = [...model.values()].sort((a, b) => a.key.step - b.key.step || a.key.tie - b.key.tie);
  return stateOfChunks(ordered.map((c) => c.stats));
}

describe('SeriesStats', () => {
  it('summarises its chunks as a fold in key order does, through sets, appends and deletes', () => {
    const op = fc.record({
      kind: fc.constantFrom('set', 'append', 'delete'),
      at: fc.nat({ max: 60 }),
      n: fc.integer({ min: 1, max: 128 }),
      seed: fc.nat({ max: 1000 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const index = new SeriesStats();
        const model = new Map<string, { key: ChunkKey; stats: ChunkStats }>();
        let next = 1000;
        for (const o of ops) {
          const keys = [...model.values()].map((c) => c.key);
          if (o.kind === 'delete' && keys.length > 0) {
            const key = keys[o.at % keys.length]!;
            index.delete(key);
            model.delete(`${key.step}:${key.tie}`);
          } else {
            // 'set' rewrites an existing chunk or inserts one between others; 'append' adds one after the last.
            const key =
              o.kind === 'append' || keys.length === 0 ? { step: next, tie: 0 } : { step: o.at * 16, tie: o.seed % 2 };
            next += 200;
            const stats = statsAt(key.step, o.n, o.seed);
            index.set(key, stats);
            model.set(`${key.step}:${key.tie}`, { key, stats });
          }
          const want = expected(model);
          const have = index.summary();
          expect(index.size).toBe(model.size);
          expect({ ...have, moments: undefined }).toEqual({ ...want, moments: undefined });
          expect(have.moments.count).toBe(want.moments.count);
          expect([have.moments.min, have.moments.max]).toEqual([want.moments.min, want.moments.max]);
          const scale = Math.max(1, Math.abs(want.moments.mean));
          expect(Math.abs(have.moments.mean - want.moments.mean)).toBeLessThanOrEqual(1e-12 * scale);
          expect(Math.abs(have.moments.m2 - want.moments.m2)).toBeLessThanOrEqual(1e-9 * Math.max(1, want.moments.m2));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('an empty index summarises to nothing', () => {
    const s = new SeriesStats().summary();
    expect([s.points, s.firstStep, s.maxStep, s.lastStep, s.moments.count]).toEqual([0, null, null, null, 0]);
  });
});
