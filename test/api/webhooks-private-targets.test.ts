/**
 * Without STEPWISE_WEBHOOK_ALLOW_PRIVATE, webhooks never reach the network Stepwise runs in:
 * loopback, private, link-local and metadata targets (or names resolving to them) are refused
 * at creation, and a stored one is refused again at delivery.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/events/delivery-worker.js';
import { createRun, expectError } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const t = useTestApp({ STEPWISE_WEBHOOK_POLL: '50ms' });
let worker: DeliveryWorker;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  worker = startDeliveryWorker({
    events: t.deps.events,
    publicUrl: t.deps.config.publicUrl,
    allowPrivate: t.deps.config.webhookAllowPrivate,
    retryDelaysMs: [60_000],
    timeoutMs: 2_000,
    pollMs: 50,
    onError: (err) => console.error(err),
  });
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
});

describe('private targets', () => {
  for (const url of [
    'http://127.0.0.1:9/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://localhost:8080/hook',
  ]) {
    it(`refuses to create a webhook to ${url}`, async () => {
      const res = await call(t.app, 'POST', '/api/webhooks', t.key, { url, events: ['run.created'] });
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error).toMatch(/does not resolve|loopback, private/);
      expect((await call(t.app, 'GET', '/api/webhooks', t.key)).body.webhooks).toEqual([]);
    });
  }

  it('refuses at delivery a stored target that is private, sending nothing', async () => {
    const org = await t.stores.metadata.ensureOrganization(t.org, Date.now());
    const id = await t.deps.events.createWebhook({
      orgId: org,
      projectId: null,
      url: receiver.url,
      events: ['run.created'],
      format: 'standard',
      secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      createdBy: null,
      at: Date.now(),
    });
    await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    // The refused attempt is recorded by the worker's next pass (every 50 ms), so wait for it.
    const attempted = await vi.waitFor(
      async () => {
        const res = await call(t.app, 'GET', `/api/webhooks/${id}/deliveries`, t.key);
        const list = res.body.deliveries as { attempts: number }[];
        expect(list[0]?.attempts).toBeGreaterThan(0);
        return list;
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(receiver.received).toEqual([]); // an attempt is recorded after its request would have gone
    expect(attempted).toMatchObject([
      { status: 'pending', attempts: 1, lastStatusCode: null, lastError: expect.stringContaining('127.0.0.1') },
    ]);
  });
});
