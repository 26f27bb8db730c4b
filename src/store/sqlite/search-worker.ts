/**
 * A search thread of the embedded store: it owns one read-only connection to the database
 * file and runs ad-hoc reads (run search), and sampled metric reads of the series file, one
 * at a time, off the main thread's event loop. Each ad-hoc read is stopped at its deadline by the connection's search functions (sqlite-search.ts);
 * the thread then answers QUERY_TIMEOUT and takes the next read.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { queryMetrics } from '../sql/metrics/metric-read.js';
import { adHocError, openConnection, readOnlyDb } from './sqlite-db.js';
import { toWire } from './series-wire.js';
import { StatementDeadline } from './sqlite-search.js';
import { errorReply, type SearchRequest, type WorkerReply } from './worker-protocol.js';

const { file, timeoutMs } = workerData as { file: string; timeoutMs: number };
const deadline = new StatementDeadline(timeoutMs);
const db = openConnection(file, true, deadline);

const reads = readOnlyDb(db);

parentPort!.on('message', (req: SearchRequest) => {
  if ('lineage' in req) {
    void readSeries(req);
    return;
  }
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

/** Answers a sampled metric read in its wire form, the points' arrays moved. */
async function readSeries(req: Extract<SearchRequest, { lineage: unknown }>): Promise<void> {
  try {
    const series = toWire(await queryMetrics(reads, req.lineage, req.query));
    const reply: WorkerReply = { id: req.id, ok: true, result: series };
    parentPort!.postMessage(
      reply,
      series.map((s) => s.cols.buffer as ArrayBuffer),
    );
  } catch (err) {
    parentPort!.postMessage(errorReply(req.id, err));
  }
}
