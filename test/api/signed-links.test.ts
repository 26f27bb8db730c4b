import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { createRun } from '../helpers/run-api.js';

let t: TestApp;
/** Signed download and upload links (path?query) of files `a.txt` and `b.txt` of one run, and `c.txt` of another organization. */
const links: Record<string, { upload: string; download: string }> = {};
const local = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

async function addFile(key: string, runId: number, project: string, fileName: string): Promise<void> {
  const headers = { 'x-run-id': String(runId), 'x-project-name': project };
  const res = await call(
    t.app,
    'POST',
    '/files',
    key,
    { files: [{ fileName, logName: 'f', fileSize: fileName.length, fileType: 'txt' }] },
    headers,
  );
  const upload = local((res.body.f as Record<string, string>[])[0]![fileName]!);
  const put = await t.app.inject({
    method: 'PUT',
    url: upload,
    payload: fileName,
    headers: { 'content-type': 'text/plain' },
  });
  expect(put.statusCode).toBe(200);
  const files = await call(t.app, 'GET', `/api/runs/files?runId=${runId}`, key);
  const download = local(
    (files.body.files as { fileName: string; url: string }[]).find((f) => f.fileName === fileName)!.url,
  );
  links[fileName] = { upload, download };
}

beforeAll(async () => {
  t = await makeTestApp();
  const mine = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
  await addFile(t.key, mine.runId, 'p', 'a.txt');
  await addFile(t.key, mine.runId, 'p', 'b.txt');
  const theirs = await createRun(t.app, t.otherKey, { runName: 'r', projectName: 'q' });
  await addFile(t.otherKey, theirs.runId, 'q', 'c.txt');
});
afterAll(() => t.close());

const pathOf = (link: string) => link.split('?')[0]!;
const queryOf = (link: string) => link.split('?')[1]!;

describe('signed file links', () => {
  it('serve their own file', async () => {
    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      const res = await t.app.inject({ method: 'GET', url: links[name]!.download });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(name);
    }
  });

  const retargets = [
    { name: 'another file of the same run', from: 'a.txt', to: 'b.txt' },
    { name: "another organization's file", from: 'a.txt', to: 'c.txt' },
    { name: 'a file of ours, from theirs', from: 'c.txt', to: 'a.txt' },
  ];
  it.each(retargets)('cannot be re-targeted to $name, for download or upload', async ({ from, to }) => {
    const download = `${pathOf(links[to]!.download)}?${queryOf(links[from]!.download)}`;
    const res = await t.app.inject({ method: 'GET', url: download });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', error: 'this link is not valid' });
    const upload = `${pathOf(links[to]!.upload)}?${queryOf(links[from]!.upload)}`;
    const put = await t.app.inject({
      method: 'PUT',
      url: upload,
      payload: 'evil',
      headers: { 'content-type': 'text/plain' },
    });
    expect(put.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: links[to]!.download })).body).toBe(to);
  });

  it('expire: a link past its expiry is a 403 that says so, one second before it is still good', async () => {
    const path = pathOf(links['a.txt']!.download);
    const expired = `${path}?${t.deps.signer.sign('GET', path, Date.now() - 1000)}`;
    const res = await t.app.inject({ method: 'GET', url: expired });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', error: 'this link has expired' });
    const fresh = `${path}?${t.deps.signer.sign('GET', path, Date.now() + 2000)}`;
    expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
  });
});
