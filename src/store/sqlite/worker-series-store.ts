import { Worker } from 'node:worker_threads';
import type { SeriesStore } from '../series-store.js';
import { SqlSeriesStore } from '../sql/series-store.js';
import { bucketSums } from '../sql/metrics/bucket-sums.js';
import { BucketThreads } from './bucket-threads.js';
import type { SqlDb } from '../sql/db.js';
import {
  WIRE_FORMS,
  type SeriesWrite,
  type WorkerReply,
  type WorkerRequest,
  replyError,
  workerScript,
} from './worker-protocol.js';

/**
 * The writer thread's young generation, capped at 24 MB: its new space then stays at 16 MB,
 * where V8's default lets it grow to 32 MB. Peak RSS during the bench's SQLite ingest:
 * 177.7 / 180.4 MB against 195.6 / 194.3 MB, at the same rate within noise (1,129,140 /
 * 1,145,195 points/s against 1,214,796 / 1,066,493).
 */
const WRITER_LIMITS = { maxYoungGenerationSizeMb: 24 };
/** Threads that sum groups/metrics' buckets (bucket-threads.ts): one per core of the 2 measured on. */
const BUCKET_THREADS = 2;

/**
 * The embedded SeriesStore: reads run on the main thread over a read connection; writes are
 * posted to a writer thread that owns the series file's write connection. A write resolves
 * once the writer thread has committed it, so acknowledged data is durable and readable.
 * Starts the writer thread on `file`; `reader` is the main thread's connection for reads.
 */
export function workerSeriesStore(reader: SqlDb, file: string): SeriesStore {
  const thread = new WriterThread(file);
  const reads = new SqlSeriesStore(reader);
  const buckets = new BucketThreads(file, BUCKET_THREADS);
  // The writes (SERIES_WRITES), each posted to the writer thread (series-worker.ts), which runs
  // the same method of its own SqlSeriesStore. A write missing here fails to compile.
  const writes = {
    appendMetrics: (...args) => thread.post('appendMetrics', args),
    appendConsole: (...args) => thread.post('appendConsole', args),
    appendData: (...args) => thread.post('appendData', args),
    createFiles: (...args) => thread.post('createFiles', args),
    markFileUploaded: (...args) => thread.post('markFileUploaded', args),
    setRunSeriesHidden: (...args) => thread.post('setRunSeriesHidden', args),
    purgeRunData: (...args) => thread.post('purgeRunData', args),
    reclaimSpace: (...args) => thread.post('reclaimSpace', args),
  } satisfies Pick<SeriesStore, SeriesWrite>;
  return {
    // Every other method reads on this thread (SqlSeriesStore's methods are own properties).
    ...reads,
    ...writes,
    // One metric's sampled read on a bucket thread (a chart's series: the compare page reads
    // ten metrics of twelve runs at once, 2.4 million stored points, on both cores).
    queryMetrics: (lineage, q) =>
      q.logNames?.length === 1 && q.logGroup === undefined
        ? buckets.sample(lineage, q)
        : reads.queryMetrics(lineage, q),
    // Runs' sums per bucket on the bucket threads, off the event loop and on both cores.
    bucketSums: (runs, logName, window) =>
      bucketSums(reader, runs, logName, window, (metrics, b, range) => buckets.sum(metrics, b, range)),
    /** Finishes queued writes, stops the writer and bucket threads, then closes the read connection. */
    close: async () => {
      await buckets.close();
      await thread.close();
      await reads.close();
    },
  };
}

/** The series writer thread: runs the writes posted to it, one reply per call. */
class WriterThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 1;
  private failure: Error | null = null;

  /** Starts the thread on the series file. */
  constructor(file: string) {
    this.worker = new Worker(workerScript('series-worker.js'), { workerData: { file }, resourceLimits: WRITER_LIMITS });
    this.worker.on('message', (reply: WorkerReply) => {
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if (reply.ok) call.resolve(reply.result);
      else call.reject(replyError(reply.error));
    });
    const fail = (err: Error) => {
      this.failure = err;
      for (const call of this.pending.values()) call.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`series writer thread exited (${code})`)));
  }

  /** Runs one write on the thread; resolves with the method's result once committed. */
  post<M extends SeriesWrite>(method: M, args: Parameters<SeriesStore[M]>): ReturnType<SeriesStore[M]> {
    return this.call(method, args) as ReturnType<SeriesStore[M]>;
  }

  /** Finishes queued writes and stops the thread. */
  async close(): Promise<void> {
    if (!this.failure) await this.call('close', []);
    this.failure ??= new Error('series store is closed');
    await this.worker.terminate();
  }

  /** Sends one call to the thread; resolves with its result once committed. */
  private call(method: SeriesWrite | 'close', args: unknown[]): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const wire = (method !== 'close' && WIRE_FORMS[method]?.(args)) || { args, transfer: [] };
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, args: wire.args } satisfies WorkerRequest, wire.transfer);
    });
  }
}
