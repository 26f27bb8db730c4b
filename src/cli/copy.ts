import path from 'node:path';
import { blobChecksum, copyBlob } from '../blob/copy-blob.js';
import type { BlobStore } from '../blob/blob-store.js';
import { LocalBlobStore } from '../blob/local-blob-store.js';
import { UrlSigner } from '../blob/url-signer.js';
import { ConfigError, storageConfig } from '../config.js';
import type { BlobRef, Check, EmbeddedCopy } from '../store/copy/embedded-copy.js';
import { option, required } from './args.js';
import { ProgressBar } from './progress-bar.js';

const USAGE =
  'stepwise copy --data DIR --to-database-url postgres://... [--to-blob-url s3://bucket/prefix?endpoint=...] [--batch-rows N]';

/** Blobs copied or checked at once. */
const PARALLEL = 8;

/** Runs fn over items PARALLEL at a time, group after group; after each group, calls done with it. */
async function inGroups<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, done?: (group: T[]) => Promise<void>) {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL) {
    const group = items.slice(i, i + PARALLEL);
    results.push(...(await Promise.all(group.map(fn))));
    await done?.(group);
  }
  return results;
}

async function collect(refs: AsyncGenerator<BlobRef>): Promise<BlobRef[]> {
  const out: BlobRef[] = [];
  for await (const r of refs) out.push(r);
  return out;
}

/** Copies the blobs not yet recorded as copied, then checks every blob on both sides. */
async function copyBlobs(job: EmbeddedCopy, from: BlobStore, to: BlobStore): Promise<Check[]> {
  const all = await collect(job.blobs({ resume: false }));
  const left = await collect(job.blobs({ resume: true }));
  const bar = new ProgressBar('blobs', all.length);
  bar.add(all.length - left.length, 'files');
  await inGroups(
    left,
    (ref) => copyBlob(from, to, ref.key),
    async (group) => {
      await job.blobCopied(group[group.length - 1]!);
      bar.add(group.length, 'files');
    },
  );
  bar.end();
  return inGroups(all, async (ref) => {
    const [a, b] = await Promise.all([blobChecksum(from, ref.key), blobChecksum(to, ref.key).catch(() => undefined)]);
    return {
      name: `blob ${ref.key}`,
      source: { count: a.size, checksum: a.sha256 },
      target: { count: b?.size ?? 0, checksum: b?.sha256 ?? 'missing' },
      ok: b !== undefined && a.size === b.size && a.sha256 === b.sha256,
    };
  });
}

const line = (c: Check): string =>
  `${c.ok ? 'ok      ' : 'MISMATCH'} ${c.name}  ${c.source.count} ${c.source.checksum}  →  ${c.target.count} ${c.target.checksum}`;

/**
 * `stepwise copy --data DIR --to-database-url postgres://… [--to-blob-url s3://…]`: copies an
 * embedded install into an empty team deployment (every table with its ids, then the blobs'
 * bytes), showing a progress bar on stderr; run again after a kill, it resumes. Prints the
 * verification (rows and checksum per table, points and checksum per series, bytes and
 * SHA-256 per blob). Returns 0 when every check matches, 1 otherwise.
 */
export async function copy(args: readonly string[], out: (line: string) => void): Promise<number> {
  const dataDir = path.resolve(required(args, 'data', USAGE));
  const databaseUrl = required(args, 'to-database-url', USAGE);
  const blobUrl = option(args, 'to-blob-url');
  const batchRows = Number(option(args, 'batch-rows') ?? 2000);
  if (!Number.isInteger(batchRows) || batchRows < 1) throw new ConfigError('--batch-rows must be a positive integer');
  if (blobUrl !== undefined && !/^s3:\/\/[^/?#]+/i.test(blobUrl)) throw new ConfigError(`--to-blob-url: ${USAGE}`);
  const { openEmbeddedCopy, CopyRefused } = await import('../store/copy/embedded-copy.js');
  const job = await openEmbeddedCopy(dataDir, databaseUrl).catch((err: unknown) => {
    throw err instanceof CopyRefused ? new ConfigError(err.message) : err;
  });
  try {
    for (const t of job.unknownTables) out(`warning: table ${t} is not in the target's schema: not copied`);
    const bar = new ProgressBar('rows ', job.totalRows);
    await job.copyTables(batchRows, (n, item) => bar.add(n, item));
    bar.end();
    const checks = await job.verifyTables();
    if (blobUrl !== undefined) {
      const { S3BlobStore } = await import('../blob/s3-blob-store.js');
      const { s3Credentials, s3Region } = storageConfig([], process.env);
      const from = new LocalBlobStore(path.join(dataDir, 'blobs'), 'http://localhost', new UrlSigner('copy'));
      const to = new S3BlobStore(blobUrl, { credentials: s3Credentials, region: s3Region });
      try {
        checks.push(...(await copyBlobs(job, from, to)));
      } finally {
        await to.close();
      }
    } else {
      out(`blobs: not copied (no --to-blob-url); a server on the copy finds them with --data ${dataDir}`);
    }
    for (const c of checks) out(line(c));
    const failed = checks.filter((c) => !c.ok).length;
    if (failed > 0) {
      out(`verification FAILED: ${failed} of ${checks.length} checks differ`);
      return 1;
    }
    await job.finish();
    out(`verification ok: ${checks.length} checks (tables, series${blobUrl ? ', blobs' : ''}) match`);
    return 0;
  } finally {
    await job.close();
  }
}
