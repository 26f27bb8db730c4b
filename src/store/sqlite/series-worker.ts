/**
 * The series writer thread of the embedded store: it owns the only write connection to the
 * series database file and runs the SQL series store's write methods, so SQLite work for
 * ingest runs on its own core while the main thread parses the next requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqlSeriesStore } from '../sql/series-store.js';
import { orStorageFull } from '../storage-full.js';
import { openSqlite } from './sqlite-db.js';
import { SERIES_WRITES, errorReply, type WorkerReply, type WorkerRequest } from './worker-protocol.js';

const { file } = workerData as { file: string };
// Its reads are the main thread's; it needs no search threads of its own.
const db = openSqlite(file, { searchThreads: 0, mapReads: true });
// Requests of one run that queue up behind its write are stored together (sql/metrics/run-write-queue.ts).
const store = new SqlSeriesStore(db, { mergeRunWrites: true });

/** Runs one write of the store (or closes the database) with the arguments as they came. */
function handle(req: WorkerRequest): Promise<unknown> {
  if (req.method === 'close') return db.close();
  if (!SERIES_WRITES.includes(req.method)) return Promise.reject(new Error(`not a series write: ${req.method}`));
  const write = store[req.method] as (...args: unknown[]) => Promise<unknown>;
  return write.apply(store, req.args);
}

parentPort!.on('message', (req: WorkerRequest) => {
  handle(req).then(
    (result) => parentPort!.postMessage({ id: req.id, ok: true, result } satisfies WorkerReply),
    // Only the code of an AppError crosses the thread: a full disk must become one here.
    (err: unknown) => parentPort!.postMessage(errorReply(req.id, orStorageFull(err))),
  );
});
