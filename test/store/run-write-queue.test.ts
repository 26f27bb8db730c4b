/**
 * RunWriteQueue: a run's batches that wait for its write in flight are stored together, in
 * arrival order; other runs are not held up; a merged write that fails is retried batch by
 * batch so only the refused batch fails.
 */
import { describe, expect, it } from 'vitest';
import { mergePacked, packPoints, type PackedPoints } from '../../src/domain/packed-points.js';
import { RunWriteQueue } from '../../src/store/sql/metrics/run-write-queue.js';
import type { MetricPointInput } from '../../src/domain/types.js';
import type { RunRef } from '../../src/store/series-store.js';

const unpack = (b: PackedPoints): MetricPointInput[] => {
  const out: MetricPointInput[] = [];
  for (let k = 0; k < b.cols.length; k += 4) {
    out.push({ logName: b.names[b.cols[k]!]!, step: b.cols[k + 1]!, time: b.cols[k + 2]!, value: b.cols[k + 3]! });
  }
  return out;
};
const batch = (name: string, step: number): MetricPointInput[] => [{ logName: name, step, time: step, value: step }];

describe('RunWriteQueue', () => {
  it('merges packed batches in order, each name once', () => {
    const a = [...batch('a', 1), ...batch('b', 2)];
    const b = [...batch('b', 3), ...batch('c', 4), ...batch('a', 5)];
    const merged = mergePacked([packPoints(a), packPoints(b)]);
    expect(merged.names).toEqual(['a', 'b', 'c']);
    expect(unpack(merged)).toEqual([...a, ...b]);
  });

  it('stores batches waiting on a run together, after the write in flight, and answers each', async () => {
    const writes: [number, MetricPointInput[]][] = [];
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    const queue = new RunWriteQueue(async (run, points) => {
      writes.push([run.id, unpack(points)]);
      if (writes.length === 1) await first;
    });
    const run: RunRef = { id: 1, projectId: 1 };
    const other: RunRef = { id: 2, projectId: 1 };
    const done = [
      queue.append(run, packPoints(batch('m', 0))),
      queue.append(run, packPoints(batch('m', 1))),
      queue.append(run, packPoints(batch('m', 2))),
      queue.append(other, packPoints(batch('m', 9))),
    ];
    await new Promise((r) => setTimeout(r, 0));
    expect(writes).toEqual([
      [1, batch('m', 0)],
      [2, batch('m', 9)],
    ]);
    release();
    await Promise.all(done);
    expect(writes[2]).toEqual([1, [...batch('m', 1), ...batch('m', 2)]]);
    expect(writes).toHaveLength(3);
  });

  it('fails only the batch the store refuses when a merged write fails', async () => {
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    let calls = 0;
    const queue = new RunWriteQueue(async (_run, points) => {
      if (++calls === 1) await first;
      if (unpack(points).some((p) => p.step === 13)) throw new Error('refused');
    });
    const run: RunRef = { id: 1, projectId: 1 };
    const head = queue.append(run, packPoints(batch('m', 0)));
    const good = queue.append(run, packPoints(batch('m', 1)));
    const bad = queue.append(run, packPoints(batch('m', 13)));
    const late = queue.append(run, packPoints(batch('m', 2)));
    release();
    await expect(head).resolves.toBeUndefined();
    await expect(good).resolves.toBeUndefined();
    await expect(bad).rejects.toThrow('refused');
    await expect(late).resolves.toBeUndefined();
    // The first alone, the merged three (refused), then each of them again.
    expect(calls).toBe(5);
  });
});
