/**
 * Long file names: every name POST /files accepts (up to 255 UTF-16 units, up to 765 bytes
 * in UTF-8) uploads, lists and downloads under its own name, although a file system allows
 * at most 255 bytes per name (the local store keeps long names under a hash on disk).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createRun } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { getOk } from '../helpers/ingest-api.js';
import type { RunFile } from '../../src/api/schemas/files.js';
import type { RunRef } from '../../src/api/schemas/runs.js';

const t = useTestApp();
let run: RunRef;
beforeEach(async () => {
  run = await createRun(t.app, t.key, { runName: 'r', projectName: 'media' });
});

/** The path and query of an absolute URL (inject needs no origin). */
const local = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('file names up to the longest POST /files accepts', () => {
  it.each([
    ['209 ASCII characters plus .txt (213 bytes, the longest kept as it is on disk)', `${'a'.repeat(209)}.txt`],
    ['210 ASCII characters plus .txt (214 bytes)', `${'b'.repeat(210)}.txt`],
    ['255 ASCII characters', `${'c'.repeat(251)}.bin`],
    ['255 accented letters (510 bytes)', 'é'.repeat(255)],
    ['127 emoji (508 bytes)', '😀'.repeat(127)],
    ['255 CJK characters (765 bytes)', '图'.repeat(255)],
  ])('a file named with %s uploads, lists and downloads under its name', async (_name, fileName) => {
    const bytes = Buffer.from(`bytes of ${fileName.length}`);
    const file = { fileName, logName: 'attachments', fileSize: bytes.length, fileType: 'bin', step: 0, time: 1 };
    const headers = { 'x-run-id': String(run.runId), 'x-project-name': 'media' };
    const posted = await call(t.app, 'POST', '/files', t.key, { files: [file] }, headers);
    expect(posted.status, JSON.stringify(posted.body).slice(0, 200)).toBe(200);
    const link = (posted.body.attachments as Record<string, string>[])[0]![fileName]!;

    const put = await t.app.inject({ method: 'PUT', url: local(link), payload: bytes });
    expect(put.statusCode, put.body).toBe(200);

    const { files } = await getOk<{ files: RunFile[] }>(t.app, t.key, `/api/runs/files?runId=${run.runId}`);
    expect(files.map((f) => [f.fileName, f.fileSize])).toEqual([[fileName, bytes.length]]);
    const download = await t.app.inject({ method: 'GET', url: local(files[0]!.url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    );
  });
});
