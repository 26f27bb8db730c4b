import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { DOWNLOAD_PATH, UPLOAD_PATH } from '../../blob/local-blob-store.js';
import { forbidden } from '../../errors.js';
import type { Deps } from '../../services/context.js';
import { listRunFiles, MAX_FILES_PER_READ, openDownload, requestUploads } from '../../services/files.js';
import { ingestRun } from '../../services/ingest.js';
import { receiveUpload } from '../../services/upload-receive.js';
import { admitRequest } from '../hooks/ingest-admission.js';
import { admissionOf } from './ingest.js';
import type { App } from '../app-types.js';
import { RunFileList, UploadLinks } from '../schemas/files.js';
import { fileView } from '../views/file-view.js';
import { jsonStream, objectMembers, sendJsonStream } from '../sliced-json.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Opt, QueryInt, RunId, Step } from '../schema-helpers.js';

const FileBody = Type.Object({
  fileName: Type.String({ minLength: 1, maxLength: 255 }),
  logName: Type.String({ minLength: 1, maxLength: 1024 }),
  fileSize: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  fileType: Type.String({ maxLength: 128 }),
  step: Opt(Step),
  time: Opt(Type.Integer({ minimum: 0, maximum: 8.64e15 })),
  caption: Opt(Type.String({ maxLength: 10_000 })),
  sampleIndex: Opt(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});

/** What an upload in flight is counted as by admission: bytes stream through, about this much at a time. */
const UPLOAD_WINDOW = 1024 * 1024;

/** The blob key of a signed link, after checking its signature; throws FORBIDDEN. */
function verifiedKey(deps: Deps, request: FastifyRequest, method: string, prefix: string): string {
  const raw = request.raw.url ?? '';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const verdict = deps.signer.verify(method, path, q < 0 ? '' : raw.slice(q + 1), Date.now());
  if (verdict === 'expired') throw forbidden('this link has expired');
  if (verdict !== 'ok') throw forbidden('this link is not valid');
  try {
    return path.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    throw forbidden('this link is not valid');
  }
}

/** POST /files (upload links), PUT/GET of signed links, GET /api/runs/files. */
export async function registerFileRoutes(app: App, deps: Deps): Promise<void> {
  app.post(
    '/files',
    {
      config: { role: 'member' },
      schema: {
        body: Type.Object({ files: Type.Array(FileBody, { maxItems: 10_000 }) }),
        response: { 200: UploadLinks },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const h = (name: string) => [request.headers[name]].flat()[0];
      const run = await ingestRun(ctx, { runId: h('x-run-id'), projectName: h('x-project-name') });
      return requestUploads(ctx, run, request.body.files);
    },
  );

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.put(`${UPLOAD_PATH}*`, { config: { public: true } }, async (request, reply) => {
      const key = verifiedKey(deps, request, 'PUT', UPLOAD_PATH);
      const body = (request.body as Readable | undefined) ?? request.raw;
      const length = request.headers['content-length'];
      // Upload bodies stream to the blob store: admitted like ingest bodies, holding one stream window.
      const admit = (tenant: string) =>
        admitRequest(admissionOf(deps), request, reply, tenant, Number.POSITIVE_INFINITY, UPLOAD_WINDOW);
      const size = await receiveUpload(deps, key, body, length === undefined ? undefined : Number(length), admit);
      return { success: true, size };
    });
  });

  app.get(`${DOWNLOAD_PATH}*`, { config: { public: true } }, async (request, reply) => {
    const key = verifiedKey(deps, request, 'GET', DOWNLOAD_PATH);
    const { stream, size } = await openDownload(deps, key);
    const fileName = key.split('/').pop() ?? 'file';
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', size)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .send(stream);
  });

  app.get(
    '/api/runs/files',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          "A run's uploaded files by step, sampleIndex, fileName, each with a download link valid 5 days; " +
          '`logName` and `logGroup` filter exactly; `limit` (at most 10,000) and `offset` page the listing ' +
          '(without `limit`, every file). One answer holds at most 10,000 files and STEPWISE_READ_MAX_BYTES ' +
          'bytes (default 64 MB): a larger one is refused with 400 `RESULT_TOO_LARGE`, whose error asks for ' +
          '`logName`, `logGroup` or paging.',
        querystring: Type.Object({
          runId: RunId,
          projectName: Type.Optional(Type.String({ maxLength: 256 })),
          logName: Type.Optional(Type.String({ maxLength: 1024 })),
          logGroup: Type.Optional(Type.String({ maxLength: 1024 })),
          limit: Type.Optional(QueryInt(1, MAX_FILES_PER_READ)),
          offset: Type.Optional(QueryInt(0, Number.MAX_SAFE_INTEGER)),
        }),
        response: { 200: RunFileList },
      },
    },
    async (request, reply) => {
      const files = await listRunFiles(ctxOf(deps, request), request.query);
      return sendJsonStream(reply, jsonStream<RunFileList>({ files: objectMembers([files], fileView) }));
    },
  );
}
