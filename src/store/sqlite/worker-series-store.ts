import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import type {
  ConsoleLine,
  DataLine,
  FileInput,
  FileRecord,
  MetricPointInput,
  RunRef,
  SeriesStore,
} from '../series-store.js';
import { SqlSeriesStore } from '../sql/sql-series-store.js';
import { packPoints } from '../sql/packed-points.js';
import type { SqlDb } from '../sql/sql-db.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

type Call = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** The compiled worker script (tests run this module from source; the worker runs from dist/). */
function workerScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const sibling = path.join(here, 'series-worker.js');
  if (fs.existsSync(sibling)) return sibling;
  return path.resolve(here, '../../../dist/store/sqlite/series-worker.js');
}

/**
 * The embedded SeriesStore: reads run on the main thread over a read connection; writes are
 * sent to a writer thread that owns the series file's write connection. A write resolves
 * once the writer thread has committed it, so acknowledged data is durable and readable.
 */
export class WorkerSeriesStore extends SqlSeriesStore implements SeriesStore {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 1;
  private failure: Error | null = null;

  /** Starts the writer thread on `file`; `reader` is the main thread's connection for reads. */
  constructor(reader: SqlDb, file: string) {
    super(reader);
    this.worker = new Worker(workerScript(), { workerData: { file } });
    this.worker.on('message', (reply: WorkerReply) => {
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if (reply.ok) call.resolve(reply.result);
      else
        call.reject(
          reply.error.code ? new AppError(reply.error.code, reply.error.message) : new Error(reply.error.message),
        );
    });
    const fail = (err: Error) => {
      this.failure = err;
      for (const call of this.pending.values()) call.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`series writer thread exited (${code})`)));
  }

  private call<T>(c: Call, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, ...c } as WorkerRequest, transfer);
    });
  }

  /** Sends the points packed (one Float64Array moved, not 4 fields per point cloned). */
  override appendMetrics(run: RunRef, points: readonly MetricPointInput[]): Promise<void> {
    const packed = packPoints(points);
    const buffer = packed.cols.buffer as ArrayBuffer;
    return this.call({ method: 'appendMetrics', args: [{ id: run.id, projectId: run.projectId }, packed] }, [buffer]);
  }
  override appendConsole(runId: number, lines: readonly ConsoleLine[]): Promise<void> {
    return this.call({ method: 'appendConsole', args: [runId, lines] });
  }
  override appendData(runId: number, lines: readonly DataLine[]): Promise<void> {
    return this.call({ method: 'appendData', args: [runId, lines] });
  }
  override markFileUploaded(blobKey: string, size: number, at: number): Promise<boolean> {
    return this.call({ method: 'markFileUploaded', args: [blobKey, size, at] });
  }
  override createFiles(
    runId: number,
    files: readonly FileInput[],
    blobKey: (f: FileInput) => string,
  ): Promise<FileRecord[]> {
    return this.call({ method: 'createFiles', args: [runId, files, files.map(blobKey)] });
  }

  /** Finishes queued writes, stops the writer thread, then closes the read connection. */
  override async close(): Promise<void> {
    if (!this.failure) await this.call({ method: 'close', args: [] });
    this.failure ??= new Error('series store is closed');
    await this.worker.terminate();
    await super.close();
  }
}
