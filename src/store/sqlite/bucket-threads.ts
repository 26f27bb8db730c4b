/**
 * The embedded store's bucket threads (bucket-worker.ts): groups/metrics sums its runs'
 * metrics per step bucket on them instead of the event loop, a batch of runs split between
 * the threads so both cores read and sum. Each run gets the same additions in the same order
 * as on the main thread, so the answers are the same to the bit. Measured in-process on the
 * bench's 100 runs × 100,000 steps (load average ~15 on 2 cores): see the commit message.
 */
import { Worker } from 'node:worker_threads';
import { RunBucketSums, type StepBuckets } from '../../domain/step-buckets.js';
import type { LineageLink, MetricPoint } from '../../domain/types.js';
import type { BucketWindow, MetricQuery } from '../series-store.js';
import type { RunMetric } from '../sql/metrics/bucket-sums.js';
import type { LineageMetric } from '../sql/metrics/lineage-series.js';
import { unpackSeries } from './sampled-wire.js';
import {
  replyError,
  type BucketJob,
  type BucketRunSums,
  type SampledSeries,
  type SampleJob,
  type WorkerReply,
  workerScript,
} from './worker-protocol.js';

/** Sums one batch holds at most (runs × buckets; 32 bytes each: 32 MB). */
const BATCH_SUMS = 1_000_000;

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve: (result: unknown) => void; reject: (err: Error) => void }>;
}

/** The runs of a batch in up to `parts` runs of runs, each with about the same steps. */
function partsOf(metrics: readonly { runId: number; metric: LineageMetric }[], parts: number) {
  const weight = (m: LineageMetric) =>
    m.sources.reduce((n, s) => n + Math.max(0, Number(s.row.max_step ?? 0) - Number(s.row.first_step ?? 0) + 1), 0);
  const total = metrics.reduce((n, m) => n + weight(m.metric), 0);
  const out: { runId: number; metric: LineageMetric }[][] = [[]];
  let done = 0;
  for (const m of metrics) {
    if (out.length < parts && done >= (total * out.length) / parts && out.at(-1)!.length > 0) out.push([]);
    out.at(-1)!.push(m);
    done += weight(m.metric);
  }
  return out.filter((p) => p.length > 0);
}

/** A pool of bucket threads over the series file (started when first used). */
export class BucketThreads {
  private readonly threads: (Thread | undefined)[];
  private next = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    size: number,
  ) {
    this.threads = Array.from({ length: size }, () => undefined);
  }

  /**
   * Each run's sums (bucket-sums.ts RunSummer), in the order of `metrics`, runs without the
   * metric left out; batches of runs, each split between the threads. Throws QUERY_TIMEOUT
   * past the window's deadline, or a thread's error.
   */
  async *sum(
    metrics: readonly RunMetric[],
    b: StepBuckets,
    range: BucketWindow,
  ): AsyncGenerator<{ runId: number; sums: RunBucketSums }> {
    const present = metrics.filter((m): m is { runId: number; metric: LineageMetric } => m.metric !== undefined);
    const per = Math.max(1, Math.floor(BATCH_SUMS / b.count));
    for (let at = 0; at < present.length; at += per) {
      const parts = partsOf(present.slice(at, at + per), this.threads.length);
      const answers = await Promise.all(
        parts.map((part, i) =>
          this.run<BucketRunSums[]>(i, {
            id: 0,
            kind: 'sums',
            metrics: part,
            buckets: b,
            deadline: range.deadline,
            timeoutMs: range.timeoutMs,
          }),
        ),
      );
      for (const runs of answers) {
        for (const r of runs) {
          yield { runId: r.runId, sums: new RunBucketSums(b.count, r) };
        }
      }
    }
  }

  /**
   * One metric of a lineage sampled as SeriesStore.queryMetrics reads it, on the thread with
   * the fewest jobs in flight: the series requests of a chart page are read on both cores.
   */
  async sample(
    lineage: readonly LineageLink[],
    query: MetricQuery,
  ): Promise<{ logName: string; points: MetricPoint[] }[]> {
    let i = 0;
    for (let k = 1; k < this.threads.length; k++) {
      if ((this.threads[k]?.pending.size ?? 0) < (this.threads[i]?.pending.size ?? 0)) i = k;
    }
    return unpackSeries(await this.run<SampledSeries[]>(i, { id: 0, kind: 'sample', lineage, query }));
  }

  /** Stops every thread; jobs in flight are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t && this.drop(t, new Error('the bucket threads are closed'))));
  }

  /** Runs a job on thread i (started when needed). */
  private run<T>(i: number, job: BucketJob | SampleJob): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the bucket threads are closed'));
    const thread = this.threads[i] ?? (this.threads[i] = this.start());
    const id = this.next++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      thread.worker.postMessage({ ...job, id } satisfies BucketJob | SampleJob);
    });
  }

  private start(): Thread {
    const worker = new Worker(workerScript('bucket-worker.js'), { workerData: { file: this.file } });
    // A thread never keeps the process alive: close() ends them.
    worker.unref();
    const thread: Thread = { worker, pending: new Map() };
    worker.on('message', (reply: WorkerReply) => {
      const job = thread.pending.get(reply.id);
      if (!job) return;
      thread.pending.delete(reply.id);
      if (reply.ok) job.resolve(reply.result);
      else job.reject(replyError(reply.error));
    });
    const lost = (err: Error) => void this.drop(thread, err);
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`a bucket thread exited (${code})`)));
    return thread;
  }

  /** Forgets a thread (terminating it), refusing its jobs in flight with `err`. */
  private async drop(thread: Thread, err: Error): Promise<void> {
    const i = this.threads.indexOf(thread);
    if (i >= 0) this.threads[i] = undefined;
    for (const job of thread.pending.values()) job.reject(err);
    thread.pending.clear();
    await thread.worker.terminate();
  }
}
