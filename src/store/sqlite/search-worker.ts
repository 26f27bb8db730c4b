/**
 * A search thread of the embedded store: it owns one read-only connection to the database
 * file and runs ad-hoc reads (run search) one at a time, off the main thread's event loop.
 * Each read is stopped at its deadline by the connection's search functions (sqlite-search.ts);
 * the thread then answers QUERY_TIMEOUT and takes the next read.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { adHocError, openConnection } from './sqlite-db.js';
import { StatementDeadline } from './sqlite-search.js';
import { errorReply, type SearchRequest, type WorkerReply } from './worker-protocol.js';

const { file, timeoutMs } = workerData as { file: string; timeoutMs: number };
const deadline = new StatementDeadline(timeoutMs);
const db = openConnection(file, true, deadline);

parentPort!.on('message', (req: SearchRequest) => {
  let reply: WorkerReply;
  try {
    // Prepared per read and not kept: ad-hoc texts would fill a statement cache.
    const rows = deadline.run(req.deadline, () => db.prepare(req.sql).all(...req.params));
    reply = { id: req.id, ok: true, result: rows };
  } catch (err) {
    reply = errorReply(req.id, adHocError(err));
  }
  parentPort!.postMessage(reply);
});
