/**
 * A run of organization `acme` with something in every kind of data (metrics, logs, data
 * lines, a file, a graph, an alert, notes, tags, config, status metadata) and an API key, marked with
 * strings no other organization ever sends, for tenancy and hostile-input tests.
 */
import { expect } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.js';
import { hashApiKey } from '../../src/services/api-keys.js';
import type { MetadataStore } from '../../src/store/metadata-store.js';
import type { App } from '../../src/api/app-types.js';
import { encodeRunId } from '../../src/domain/sqid.js';
import { call, TEST_PASSWORD_COST } from './test-app.js';
import type { Target } from './route-requests.js';

/** Strings that appear only in the victim's data: finding one in an answer is a leak. */
export const MARKERS = [
  'vq7-run-name',
  'vq7-tag',
  'vq7-config',
  'vq7-notes',
  'vq7-status',
  'vq7-log',
  'vq7-data',
  'vq7-graph',
  'vq7-alert',
  'vq7-file',
  'vq7-key',
  'vq7-view',
  'vq7-hook',
];

async function ok(
  app: App,
  key: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await call(app, method, url, key, body, headers);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** Creates the victim run with the owner's key; returns where it is. */
export async function createVictim(app: App, key: string): Promise<Target> {
  const projectName = 'victim-project';
  const externalId = 'victim-ext';
  const metricName = 'victim/loss';
  const run = await ok(app, key, 'POST', '/api/runs/create', {
    runName: 'vq7-run-name',
    projectName,
    externalId,
    tags: ['vq7-tag'],
    config: '{"secret":"vq7-config"}',
  });
  const runId = run.runId as number;
  const ingestHeaders = { 'x-run-id': String(runId), 'x-project-name': projectName };
  const ndjson = async (kind: string, lines: object[]) => {
    const res = await app.inject({
      method: 'POST',
      url: `/ingest/${kind}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson', ...ingestHeaders },
      payload: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  await ndjson(
    'metrics',
    [0, 1, 2].map((step) => ({ time: 1_700_000_000_000 + step, step, data: { [metricName]: step / 2 } })),
  );
  await ndjson('logs', [{ time: 1_700_000_000_000, message: 'vq7-log', lineNumber: 1, logType: 'INFO' }]);
  await ndjson('data', [
    { time: 1_700_000_000_000, step: 0, data: '{"t":"vq7-data"}', dataType: 'TEXT', logName: 'text' },
  ]);
  await ok(app, key, 'POST', '/api/runs/notes/update', { runId, notes: 'vq7-notes' });
  await ok(app, key, 'POST', '/api/runs/modelGraph/create', {
    runId,
    graph: { format: 'torch', nodes: { 'vq7-graph': { edges: [] } } },
  });
  await ok(app, key, 'POST', '/api/runs/alert', { runId, alert: { title: 'vq7-alert', level: 'WARN' } });
  const file = { fileName: 'vq7-file.txt', logName: 'files', fileSize: 5, fileType: 'txt' };
  const links = await ok(app, key, 'POST', '/files', { files: [file] }, ingestHeaders);
  const upload = new URL((links.files as Record<string, string>[])[0]!['vq7-file.txt']!);
  const put = await app.inject({
    method: 'PUT',
    url: upload.pathname + upload.search,
    payload: 'bytes',
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(put.statusCode, put.body).toBe(200);
  const files = await ok(app, key, 'GET', `/api/runs/files?runId=${runId}`);
  const download = new URL((files.files as { url: string }[])[0]!.url);
  await ok(app, key, 'POST', '/api/runs/status/update', {
    runId,
    status: 'RUNNING',
    statusMetadata: '{"m":"vq7-status"}',
  });
  const apiKey = await ok(app, key, 'POST', '/api/keys', { name: 'vq7-key' });
  const saveView = async (name: string) =>
    (await ok(app, key, 'POST', '/api/views', { projectName, name, state: { secret: 'vq7-view' } })).id as number;
  const viewId = await saveView('vq7-view');
  const spareViewIds: number[] = [];
  for (let i = 0; i < 24; i++) spareViewIds.push(await saveView(`vq7-view-spare-${i}`));
  const spareRun = async (projectName: string) =>
    (await ok(app, key, 'POST', '/api/runs/create', { runName: 'spare', projectName })).runId as number;
  const spareRunIds: number[] = [];
  const trashedRunIds: number[] = [];
  const spareProjects: string[] = [];
  for (let i = 0; i < 40; i++) {
    spareRunIds.push(await spareRun('victim-spares'));
    trashedRunIds.push(await spareRun('victim-spares'));
    spareProjects.push(`victim-spare-${i}`);
    await spareRun(`victim-spare-${i}`);
  }
  await ok(app, key, 'POST', '/api/runs/delete', { runIds: trashedRunIds });
  const subscribe = async (path: string) =>
    (await ok(app, key, 'POST', '/api/webhooks', { url: `http://93.184.216.34/${path}`, events: ['run.alert'] }))
      .id as number;
  const webhookId = await subscribe('vq7-hook');
  const spareWebhookIds: number[] = [];
  for (let i = 0; i < 12; i++) spareWebhookIds.push(await subscribe(`vq7-hook-spare-${i}`));
  const addRule = async (threshold: number) =>
    (await ok(app, key, 'POST', '/api/alert-rules', { projectName, logName: metricName, kind: 'above', threshold }))
      .id as number;
  const ruleId = await addRule(1e300);
  const spareRuleIds: number[] = [];
  for (let i = 0; i < 12; i++) spareRuleIds.push(await addRule(1e301 + i));
  // A session of the owner's key, for DELETE /api/account/sessions/{sessionId}.
  const signedIn = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ apiKey: key }),
  });
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const sessions = await ok(app, key, 'GET', '/api/account/sessions');
  // Members who joined by invitation: one to change the role of, spares to remove.
  const join = async (name: string) => {
    const email = `${name}@victim.test`;
    const invite = await ok(app, key, 'POST', '/api/members/invite', { email, role: 'viewer' });
    const token = String(invite.url).split('#token=')[1];
    const res = await call(app, 'POST', '/api/invitations/accept', null, { token, name, password: 'vq7-password' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return email;
  };
  const emails = [await join('vq7-member')];
  for (let i = 0; i < 16; i++) emails.push(await join(`vq7-spare-${i}`));
  const members = (await ok(app, key, 'GET', '/api/members')).members as { userId: number; email: string }[];
  const idOf = (email: string) => members.find((m) => m.email === email)!.userId;
  return {
    spareRunIds,
    trashedRunIds,
    spareProjects,
    ruleId,
    spareRuleIds,
    webhookId,
    spareWebhookIds,
    orgSlug: ((await ok(app, key, 'POST', '/api/slug')).organization as { slug: string }).slug,
    memberUserId: idOf(emails[0]!),
    spareMemberIds: emails.slice(1).map(idOf),
    sessionId: (sessions.sessions as { id: string }[])[0]!.id,
    apiKeyId: apiKey.id as number,
    viewId,
    spareViewIds,
    runId,
    displayId: run.displayId as string,
    sqid: encodeRunId(runId),
    projectName,
    externalId,
    metricName,
    consent: await pendingConsent(app),
    uploadPath: upload.pathname + upload.search,
    downloadPath: download.pathname + download.search,
  };
}

/**
 * An authorization of a newly registered client waiting for consent, as a browser started it:
 * its uid and the browser's interaction cookies (docs/api.md §18).
 */
async function pendingConsent(app: App): Promise<{ uid: string; cookie: string }> {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const reg = await app.inject({
    method: 'POST',
    url: '/oauth/reg',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      client_name: 'probe agent',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(reg.statusCode, reg.body).toBe(201);
  const query = new URLSearchParams({
    client_id: reg.json<{ client_id: string }>().client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'runs:read',
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
  });
  const started = await app.inject({ method: 'GET', url: `/oauth/auth?${query.toString()}` });
  expect(started.statusCode, started.body).toBe(303);
  const uid = String(started.headers.location).split('/consent/')[1]!;
  const setCookies = ([] as string[]).concat(started.headers['set-cookie'] ?? []);
  const cookie = setCookies
    .map((line) => line.split(';')[0]!)
    .filter((pair) => pair.startsWith('oauth_interaction'))
    .join('; ');
  return { uid, cookie };
}

const READS = (id: number, p: string) => [
  `/api/runs/details/${id}`,
  `/api/runs/status/history?runId=${id}`,
  `/api/runs/metrics?runId=${id}`,
  `/api/runs/statistics?runId=${id}`,
  `/api/runs/logs?runId=${id}`,
  `/api/runs/data?runId=${id}`,
  `/api/runs/modelGraph?runId=${id}`,
  `/api/runs/alerts?runId=${id}`,
  `/api/runs/projects`,
  `/api/runs/metric-names?projectName=${p}`,
  `/api/runs/files?runId=${id}`,
  `/api/keys`,
  `/api/members`,
  `/api/views?projectName=${p}`,
  `/api/webhooks`,
  `/api/alert-rules?projectName=${p}`,
];

/**
 * Gives the user of the target's owner key an email and a password (kept in the target), so
 * that POST /api/account/password can succeed for it.
 */
export async function giveOwnerPassword(metadata: MetadataStore, key: string, t: Target): Promise<void> {
  const record = (await metadata.findApiKeyByHash(hashApiKey(key)))!;
  t.password = 'vq7-password-owner';
  const email = `owner-${record.userId}@victim.test`;
  await metadata.updateAccount(record.userId, {
    email,
    passwordHash: await hashPassword(t.password, TEST_PASSWORD_COST),
  });
}

/** An answer of GET /api/keys cut to the keys of the requesting key's user; other answers as they are. */
function ownKeysOnly(answer: Record<string, unknown>): Record<string, unknown> {
  const keys = answer.keys as { userName: string; current: boolean }[] | undefined;
  if (!Array.isArray(keys)) return answer;
  const mine = keys.find((k) => k.current)?.userName;
  return { ...answer, keys: keys.filter((k) => k.userName === mine) };
}

/**
 * Everything the owner can read about the victim (signed URLs and keys' last use, which
 * change, left out; of the keys, the owner's user's own: an owner also lists the keys
 * other users of its organization may make for themselves).
 */
export async function victimSnapshot(app: App, key: string, t: Target): Promise<string> {
  const parts: unknown[] = [];
  for (const url of READS(t.runId, t.projectName)) parts.push(ownKeysOnly(await ok(app, key, 'GET', url)));
  parts.push(await ok(app, key, 'GET', `/api/views/${t.viewId}`));
  parts.push(await ok(app, key, 'GET', `/api/webhooks/${t.webhookId}/deliveries`));
  return JSON.stringify(parts)
    .replace(/"url":"[^"]*"/g, '"url":"…"')
    .replace(/"lastUsedAt":("[^"]*"|null)/g, '"lastUsedAt":"…"');
}
