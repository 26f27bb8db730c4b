/**
 * Webhooks (docs/api.md §15) with a real receiver on loopback: status writes delivered,
 * signed the Standard Webhooks way, retried after failures, kept within the organization
 * (and project), Slack's format, tests, bounds and another organization's subscriptions.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { CreatedWebhook, WebhookDeliveryList, WebhookList } from '../../src/api/schemas/webhooks.js';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/events/delivery-worker.js';
import { createRun, expectError, itScenarios, scenarioRows, setStatus, sleep } from '../helpers/run-api.js';
import { ingestOk, metricLine, pyNdjson } from '../helpers/ingest-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const t = useTestApp({
  STEPWISE_WEBHOOK_ALLOW_PRIVATE: '1',
  STEPWISE_WEBHOOK_RETRY_DELAYS: '150ms,150ms,150ms',
  STEPWISE_WEBHOOK_POLL: '50ms',
});
let worker: DeliveryWorker;
let receiver: WebhookReceiver;

beforeAll(() => {
  const c = t.deps.config;
  worker = startDeliveryWorker({
    events: t.deps.events,
    publicUrl: c.publicUrl,
    allowPrivate: c.webhookAllowPrivate,
    retryDelaysMs: c.webhookRetryDelaysMs,
    timeoutMs: 2_000,
    pollMs: c.webhookPollMs,
    onError: (err) => console.error(err),
  });
});
afterAll(() => worker.stop());
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

async function subscribe(body: Record<string, unknown>, key = t.key): Promise<CreatedWebhook> {
  const res = await call(t.app, 'POST', '/api/webhooks', key, { url: receiver.url, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as CreatedWebhook;
}

async function deliveries(id: number, key = t.key): Promise<WebhookDeliveryList['deliveries']> {
  const res = await call(t.app, 'GET', `/api/webhooks/${id}/deliveries`, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as unknown as WebhookDeliveryList).deliveries;
}

/**
 * The subscription's deliveries once `count` of them are settled (delivered or failed). The
 * worker records an attempt after the receiver has answered, so a read right after the
 * receiver saw a request can still find the delivery pending.
 */
async function settled(id: number, count = 1): Promise<WebhookDeliveryList['deliveries']> {
  return vi.waitFor(
    async () => {
      const list = await deliveries(id);
      expect(list.filter((d) => d.status !== 'pending')).toHaveLength(count);
      return list;
    },
    { timeout: 5_000, interval: 50 },
  );
}

describe('delivery', () => {
  it('delivers a FAILED status write within 5 s, signed so the library verifies it', async () => {
    const hook = await subscribe({ events: ['run.status_changed'] });
    expect(hook.secret).toMatch(/^whsec_/);
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const written = Date.now();
    await setStatus(t.app, t.key, run.runId, 'FAILED', { statusMetadata: JSON.stringify({ reason: 'oom' }) });
    const [got] = await receiver.waitFor(1, 5_000);
    expect(got!.at - written).toBeLessThan(5_000);
    const verified = new Webhook(hook.secret).verify(got!.body, got!.headers) as Record<string, unknown>;
    expect(verified).toMatchObject({
      type: 'run.status_changed',
      data: { from: 'RUNNING', to: 'FAILED', source: 'api', metadata: { reason: 'oom' } },
    });
    expect((verified.data as { run: { id: number; url: string } }).run).toMatchObject({ id: run.runId });
    expect(() => new Webhook(`whsec_${Buffer.alloc(32).toString('base64')}`).verify(got!.body, got!.headers)).toThrow();
    expect(await settled(hook.id)).toMatchObject([{ status: 'delivered', attempts: 1, lastStatusCode: 200 }]);
  });

  it('retries a receiver that answers 500 twice and delivers on the third attempt', async () => {
    const hook = await subscribe({ events: ['run.created'] });
    receiver.answers.push(500, 500);
    await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const got = await receiver.waitFor(3, 5_000);
    expect(got.map((r) => r.headers['webhook-id'])).toEqual(Array(3).fill(got[0]!.headers['webhook-id']));
    expect(await settled(hook.id)).toMatchObject([{ status: 'delivered', attempts: 3, lastStatusCode: 200 }]);
    await sleep(100); // no fourth attempt after the delivery was recorded
    expect(receiver.received).toHaveLength(3);
  });

  it('marks a delivery failed after its last retry and disables the webhook after 5 such deliveries', async () => {
    const hook = await subscribe({ events: ['run.created'] });
    receiver.answers.push(...Array(40).fill(503));
    for (let i = 0; i < 5; i++) await createRun(t.app, t.key, { runName: `r${i}`, projectName: 'p' });
    await receiver.waitFor(20, 8_000);
    const list = await settled(hook.id, 5);
    expect(list.map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual(Array(5).fill(['failed', 4, 503]));
    const hooks = (await call(t.app, 'GET', '/api/webhooks', t.key)).body as unknown as WebhookList;
    expect(hooks.webhooks[0]).toMatchObject({ id: hook.id, enabled: false, failedDeliveries: 5 });
    await createRun(t.app, t.key, { runName: 'after', projectName: 'p' });
    await sleep(300);
    expect(receiver.received).toHaveLength(20);
  });

  it('never delivers another organization’s events, nor another project’s to a project webhook', async () => {
    await createRun(t.app, t.key, { runName: 'first', projectName: 'p' });
    await subscribe({ events: ['run.created', 'run.alert'] });
    await subscribe({ events: ['run.status_changed'], projectName: 'p' });
    const x = await createRun(t.app, t.key, { runName: 'x', projectName: 'other' });
    await setStatus(t.app, t.key, x.runId, 'FAILED');
    const theirs = await createRun(t.app, t.otherKey, { runName: 'theirs', projectName: 'p' });
    await setStatus(t.app, t.otherKey, theirs.runId, 'FAILED');
    const alert = { runId: theirs.runId, alert: { title: 'theirs', body: 'b', level: 'ERROR' } };
    expect((await call(t.app, 'POST', '/api/runs/alert', t.otherKey, alert)).status).toBe(200);
    const mine = await createRun(t.app, t.key, { runName: 'mine', projectName: 'p' });
    await setStatus(t.app, t.key, mine.runId, 'FAILED');
    await receiver.waitFor(3, 5_000);
    await sleep(300);
    const seen = receiver.received.map((r) => {
      const data = r.json.data as { run: { name: string; projectName: string } };
      return `${String(r.json.type)} ${data.run.projectName}/${data.run.name}`;
    });
    expect(seen.sort()).toEqual(['run.created other/x', 'run.created p/mine', 'run.status_changed p/mine']);
  });

  it('sends client alerts and a Slack-formatted message to a slack webhook', async () => {
    await subscribe({ events: ['run.alert'], format: 'slack' });
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const res = await call(t.app, 'POST', '/api/runs/alert', t.key, {
      runId: run.runId,
      alert: { title: 'Loss diverged', body: 'loss is NaN', level: 'ERROR' },
    });
    expect(res.status).toBe(200);
    const [got] = await receiver.waitFor(1, 5_000);
    expect(got!.json.text).toContain('Loss diverged');
    expect(JSON.stringify(got!.json.blocks)).toContain(`/projects/p/`);
  });

  it('delivers alert_rule.triggered when a rule fires on ingested points', async () => {
    await subscribe({ events: ['alert_rule.triggered'] });
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const rule = { projectName: 'p', logName: 'val/loss', kind: 'above', threshold: 5 };
    expect((await call(t.app, 'POST', '/api/alert-rules', t.key, rule)).status).toBe(200);
    await ingestOk(t.app, t.key, 'metrics', { runId: run.runId }, pyNdjson([metricLine(3, { 'val/loss': 7 })]));
    const [got] = await receiver.waitFor(1, 5_000);
    expect(got!.json).toMatchObject({
      type: 'alert_rule.triggered',
      data: { title: 'val/loss > 5', step: 3, value: '7', rule: { logName: 'val/loss' }, run: { id: run.runId } },
    });
  });

  it('delivers run.deleted for a deleted run and for each run of a deleted project', async () => {
    await subscribe({ events: ['run.deleted'] });
    const a = await createRun(t.app, t.key, { runName: 'a', projectName: 'gone' });
    const b = await createRun(t.app, t.key, { runName: 'b', projectName: 'gone' });
    expect((await call(t.app, 'POST', '/api/runs/delete', t.key, { runIds: [a.runId] })).status).toBe(200);
    const [first] = await receiver.waitFor(1, 5_000);
    expect(first!.json).toMatchObject({ type: 'run.deleted', data: { run: { id: a.runId, name: 'a' } } });
    expect((await call(t.app, 'POST', '/api/runs/projects/delete', t.key, { projectName: 'gone' })).status).toBe(200);
    const got = await receiver.waitFor(2, 5_000);
    expect(got[1]!.json).toMatchObject({ type: 'run.deleted', data: { run: { id: b.runId, projectName: 'gone' } } });
  });

  it('sends a test event to one webhook on request and lists it among its deliveries', async () => {
    const hook = await subscribe({ events: ['run.deleted'] });
    const res = await call(t.app, 'POST', `/api/webhooks/${hook.id}/test`, t.key);
    expect(res.status).toBe(200);
    const [got] = await receiver.waitFor(1, 5_000);
    expect(got!.json.type).toBe('webhook.test');
    expect(await settled(hook.id)).toMatchObject([
      { id: res.body.deliveryId, eventType: 'webhook.test', status: 'delivered' },
    ]);
  });
});

describe('managing webhooks', () => {
  it('lists webhooks without their secret, newest first, and deletes one', async () => {
    const a = await subscribe({ events: ['run.created'] });
    const b = await subscribe({ events: ['run.stale', 'run.alert'], format: 'slack', projectName: 'p' }).catch(
      () => undefined,
    );
    expect(b).toBeUndefined(); // project p does not exist yet
    await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const c = await subscribe({ events: ['run.stale', 'run.alert'], format: 'slack', projectName: 'p' });
    const list = (await call(t.app, 'GET', '/api/webhooks', t.key)).body as unknown as WebhookList;
    expect(list.webhooks.map((w) => w.id)).toEqual([c.id, a.id]);
    expect(list.webhooks[0]).toMatchObject({ projectName: 'p', format: 'slack', enabled: true });
    expect(JSON.stringify(list)).not.toContain('whsec_');
    expect((await call(t.app, 'DELETE', `/api/webhooks/${a.id}`, t.key)).status).toBe(204);
    expect((await call(t.app, 'GET', '/api/webhooks', t.otherKey)).body.webhooks).toEqual([]);
  });

  it('answers 404 for another organization’s webhook', async () => {
    const hook = await subscribe({ events: ['run.created'] });
    for (const [method, url] of [
      ['DELETE', `/api/webhooks/${hook.id}`],
      ['POST', `/api/webhooks/${hook.id}/test`],
      ['GET', `/api/webhooks/${hook.id}/deliveries`],
    ] as const) {
      expectError(await call(t.app, method, url, t.otherKey), 404, 'NOT_FOUND');
    }
  });

  const row = scenarioRows('POST', '/api/webhooks');
  itScenarios(t, [
    row('refuses a URL that is not absolute', { url: 'hook', events: ['run.created'] }, 400, 'BAD_REQUEST'),
    row('refuses a scheme other than http(s)', { url: 'ftp://example.com/', events: ['run.created'] }, 400),
    row('refuses credentials in the URL', { url: 'http://a:b@127.0.0.1/', events: ['run.created'] }, 400),
    row('refuses an empty event list', { url: 'http://127.0.0.1/', events: [] }, 400),
    row('refuses an unknown event type', { url: 'http://127.0.0.1/', events: ['run.exploded'] }, 400),
    row('refuses an unknown format', { url: 'http://127.0.0.1/', events: ['run.created'], format: 'xml' }, 400),
    row(
      'answers 404 for an unknown project',
      { url: 'http://127.0.0.1/', events: ['run.created'], projectName: 'nope' },
      404,
    ),
  ]);
});

describe('the OpenAPI document', () => {
  it('lists the webhook routes', async () => {
    const doc = await call(t.app, 'GET', '/api/openapi.json', null);
    const paths = Object.keys(doc.body.paths as object);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/webhooks',
        '/api/webhooks/{webhookId}',
        '/api/webhooks/{webhookId}/test',
        '/api/webhooks/{webhookId}/deliveries',
      ]),
    );
  });
});
