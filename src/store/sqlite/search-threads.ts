/**
 * The embedded store's search threads: a small pool of threads (search-worker.ts), each with
 * its own read-only connection, that run ad-hoc reads so a costly search never holds the
 * event loop. A read waits in a queue for a free thread; it is answered OVERLOADED when its
 * deadline passes before one is free, QUERY_TIMEOUT when the thread stops it at the deadline,
 * and QUERY_TIMEOUT too when the thread has not answered GRACE_MS later (stuck in one long
 * step of SQLite): that thread is then terminated and replaced. Rows that outgrow a thread's
 * heap are RESULT_TOO_LARGE (the thread is replaced).
 */
import { Worker } from 'node:worker_threads';
import { queryTimeout, readersBusy, resultTooLarge } from '../../errors.js';
import type { SqlValue } from '../sql/sql-value.js';
import {
  type AdHocColumns,
  replyError,
  rowsOf,
  type SearchRequest,
  type WorkerReply,
  workerScript,
} from './worker-protocol.js';

/** How long past its deadline a thread may take to answer before it is given up. */
const GRACE_MS = 1000;
/** A thread's heap: its reads answer ids; past this it dies alone (the read fails), not the process. */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 };
const OUT_OF_MEMORY =
  `the rows of this read do not fit a search thread's ${THREAD_LIMITS.maxOldGenerationSizeMb} MB: ` +
  'ask for fewer runs (a lower limit) or fewer or smaller configKeys';

interface Job {
  req: SearchRequest;
  resolve: (rows: unknown[]) => void;
  reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
  thread?: Thread;
}

interface Thread {
  worker: Worker;
  job: Job | undefined;
}

/** A pool of search threads over one database file (started when first used). */
export class SearchThreads {
  private readonly threads: (Thread | undefined)[];
  private readonly queue: Job[] = [];
  private next = 1;
  private closed = false;

  /** `size` threads on `file`; each read is stopped `timeoutMs` after it was asked for (0 = never). */
  constructor(
    private readonly file: string,
    size: number,
    private readonly timeoutMs: number,
  ) {
    this.threads = Array.from({ length: size }, () => undefined);
  }

  /** All rows of a read, run on a search thread. Throws QUERY_TIMEOUT, OVERLOADED, or the engine's error. */
  all<T>(sql: string, params: readonly SqlValue[]): Promise<T[]> {
    if (this.closed) return Promise.reject(new Error('the search threads are closed'));
    return new Promise<T[]>((resolve, reject) => {
      const deadline = this.timeoutMs > 0 ? Date.now() + this.timeoutMs : 0;
      const job: Job = { req: { id: this.next++, sql, params, deadline }, resolve: resolve as Job['resolve'], reject };
      if (deadline !== 0) job.timer = setTimeout(() => this.expire(job), this.timeoutMs);
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Stops every thread; queued reads are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, new Error('the search threads are closed'));
    await Promise.all(this.threads.map((t) => t?.worker.terminate()));
  }

  /** Hands queued reads to idle threads, starting threads as needed. */
  private dispatch(): void {
    for (let i = 0; i < this.threads.length && this.queue.length > 0 && !this.closed; i++) {
      const thread = this.threads[i] ?? (this.threads[i] = this.start());
      if (thread.job) continue;
      const job = this.queue.shift()!;
      thread.job = job;
      job.thread = thread;
      thread.worker.postMessage(job.req);
    }
  }

  /** At a read's deadline: a queued read is refused; a running one gets GRACE_MS to be answered. */
  private expire(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, readersBusy(this.timeoutMs));
      return;
    }
    job.timer = setTimeout(() => {
      const thread = job.thread;
      if (!thread || thread.job !== job) return;
      // Stuck in SQLite past the deadline: answer now, let the thread go, start another.
      this.drop(thread);
      this.settle(job, queryTimeout(this.timeoutMs));
    }, GRACE_MS);
  }

  private start(): Thread {
    const worker = new Worker(workerScript('search-worker.js'), {
      workerData: { file: this.file, timeoutMs: this.timeoutMs },
      resourceLimits: THREAD_LIMITS,
    });
    // A thread never keeps the process alive: close() ends them, and an abandoned one dies with it.
    worker.unref();
    const thread: Thread = { worker, job: undefined };
    worker.on('message', (reply: WorkerReply) => {
      const job = thread.job;
      if (!job || job.req.id !== reply.id) return;
      thread.job = undefined;
      this.settle(
        job,
        reply.ok ? undefined : replyError(reply.error),
        reply.ok ? rowsOf(reply.result as AdHocColumns) : [],
      );
      this.dispatch();
    });
    const lost = (err: Error & { code?: string }) => {
      const job = thread.job;
      this.drop(thread);
      // A read whose rows outgrow the thread's heap (configKeys picking 8 MB values, say) is
      // the client's to narrow, not a server fault.
      const tooLarge = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (job) this.settle(job, tooLarge ? resultTooLarge(OUT_OF_MEMORY) : err);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`a search thread exited (${code})`)));
    return thread;
  }

  /** Forgets a thread (terminating it) and hands the queue to the others. */
  private drop(thread: Thread): void {
    const i = this.threads.indexOf(thread);
    if (i >= 0) this.threads[i] = undefined;
    thread.job = undefined;
    void thread.worker.terminate();
    this.dispatch();
  }

  private settle(job: Job, err: Error | undefined, rows: unknown[] = []): void {
    clearTimeout(job.timer);
    if (err) job.reject(err);
    else job.resolve(rows);
  }
}
