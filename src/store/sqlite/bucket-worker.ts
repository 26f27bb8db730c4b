/**
 * A bucket thread of the embedded store (bucket-threads.ts): it owns one read-only, mapped
 * connection to the series file and sums runs' metrics per step bucket (groups/metrics) the
 * way the main thread would (sql/metrics/bucket-sums.ts), answering each run's sums as
 * arrays moved, not copied. A job past its deadline answers QUERY_TIMEOUT. It also reads a
 * metric of a run sampled (a SampleJob), as the main thread's queryMetrics would.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RunBucketSums } from '../../domain/step-buckets.js';
import { queryTimeout } from '../../errors.js';
import { addMetric } from '../sql/metrics/bucket-sums.js';
import { queryMetrics } from '../sql/metrics/metric-read.js';
import { packSeries } from './sampled-wire.js';
import { openReadOnly } from './sqlite-db.js';
import { errorReply, type BucketJob, type BucketRunSums, type SampleJob, type WorkerReply } from './worker-protocol.js';

const { file } = workerData as { file: string };
const db = openReadOnly(file);

/** Each run's sums, in the job's order. */
async function sumJob(job: BucketJob): Promise<BucketRunSums[]> {
  const out: BucketRunSums[] = [];
  for (const { runId, metric } of job.metrics) {
    if (job.deadline > 0 && Date.now() > job.deadline) throw queryTimeout(job.timeoutMs);
    const sums = new RunBucketSums(job.buckets.count);
    await addMetric(db, metric, job.buckets, sums);
    out.push({ runId, sum: sums.sum, comp: sums.comp, count: sums.count, nonFinite: sums.nonFinite });
  }
  return out;
}

parentPort!.on('message', (job: BucketJob | SampleJob) => {
  if (job.kind === 'sample') {
    queryMetrics(db, job.lineage, job.query).then(
      (series) => {
        const packed = packSeries(series);
        const moved = packed.map((s) => s.cols.buffer as ArrayBuffer);
        parentPort!.postMessage({ id: job.id, ok: true, result: packed } satisfies WorkerReply, moved);
      },
      (err: unknown) => parentPort!.postMessage(errorReply(job.id, err)),
    );
    return;
  }
  sumJob(job).then(
    (runs) => {
      const moved = runs.flatMap((r) => [r.sum.buffer, r.comp.buffer, r.count.buffer, r.nonFinite.buffer]);
      parentPort!.postMessage({ id: job.id, ok: true, result: runs } satisfies WorkerReply, moved as ArrayBuffer[]);
    },
    (err: unknown) => parentPort!.postMessage(errorReply(job.id, err)),
  );
});
