/**
 * The series writer thread of the embedded store: it owns the only write connection to the
 * series database file and runs the SQL series store's write methods, so SQLite work for
 * ingest runs on its own core while the main thread parses the next requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import type { FileInput } from '../series-store.js';
import { SqlSeriesStore } from '../sql/sql-series-store.js';
import { openSqlite } from './sqlite-db.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

const { file } = workerData as { file: string };
const db = openSqlite(file);
const store = new SqlSeriesStore(db);

async function handle(req: WorkerRequest): Promise<unknown> {
  switch (req.method) {
    case 'appendMetrics':
      return store.appendPackedMetrics(req.args[0], req.args[1]);
    case 'appendConsole':
      return store.appendConsole(req.args[0], req.args[1]);
    case 'appendData':
      return store.appendData(req.args[0], req.args[1]);
    case 'markFileUploaded':
      return store.markFileUploaded(req.args[0], req.args[1], req.args[2]);
    case 'createFiles': {
      const [runId, files, keys] = req.args;
      const byFile = new Map<FileInput, string>(files.map((f, i) => [f, keys[i]!]));
      return store.createFiles(runId, files, (f) => byFile.get(f)!);
    }
    case 'close':
      return db.close();
  }
}

parentPort!.on('message', (req: WorkerRequest) => {
  handle(req).then(
    (result) => parentPort!.postMessage({ id: req.id, ok: true, result } satisfies WorkerReply),
    (err: unknown) => {
      const error =
        err instanceof AppError
          ? { code: err.code, message: err.message }
          : { code: null, message: err instanceof Error ? err.message : String(err) };
      parentPort!.postMessage({ id: req.id, ok: false, error } satisfies WorkerReply);
    },
  );
});
