/**
 * Metric batches of one run stored together (group commit per run). While a write of a run
 * is in flight, later batches of that run wait; when it ends, those waiting are merged into
 * one batch (in arrival order, so a later line still wins at an equal time) and stored in
 * one transaction: one series lock, one commit flush, one statement per kind for all of
 * them, where concurrent requests would each wait for the run's series locks and flush
 * a commit of their own. Each caller is answered after the commit holding its points.
 * When a merged write fails, its batches are stored again one by one, so a batch the
 * database refuses fails alone.
 */
import type { RunRef } from '../../series-store.js';
import { mergePacked, type PackedPoints } from '../../../domain/packed-points.js';

interface Job {
  points: PackedPoints;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Most points merged into one transaction (keeps a transaction's size and lock time bounded). */
const MAX_MERGED_POINTS = 50_000;

/** Queues the metric writes of each run and stores those that waited together. */
export class RunWriteQueue {
  private readonly waiting = new Map<string, Job[]>();

  constructor(private readonly write: (run: RunRef, points: PackedPoints) => Promise<void>) {}

  /** Stores the batch, alone when its run has no write in flight, else with the others waiting. */
  append(run: RunRef, points: PackedPoints): Promise<void> {
    const key = `${run.id}:${run.projectId}`;
    return new Promise<void>((resolve, reject) => {
      const job = { points, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(job);
        return;
      }
      const fresh = [job];
      this.waiting.set(key, fresh);
      void this.drain(key, run, fresh);
    });
  }

  private async drain(key: string, run: RunRef, queue: Job[]): Promise<void> {
    while (queue.length > 0) {
      let n = 1;
      let size = queue[0]!.points.cols.length;
      while (n < queue.length && size + queue[n]!.points.cols.length <= 4 * MAX_MERGED_POINTS) {
        size += queue[n]!.points.cols.length;
        n++;
      }
      await this.store(run, queue.splice(0, n));
    }
    this.waiting.delete(key);
  }

  private async store(run: RunRef, group: readonly Job[]): Promise<void> {
    if (group.length > 1) {
      try {
        await this.write(run, mergePacked(group.map((j) => j.points)));
        for (const job of group) job.resolve();
        return;
      } catch {
        // Stored again one by one below: only the batches the database refuses fail.
      }
    }
    for (const job of group) {
      try {
        await this.write(run, job.points);
        job.resolve();
      } catch (err) {
        job.reject(err);
      }
    }
  }
}
