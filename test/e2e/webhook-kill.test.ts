/**
 * The outbox survives a crash: a server SIGKILLed after a FAILED status write was answered,
 * before its worker delivered the event, delivers it after restart on the same data dir.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let server: SpawnedServer | undefined;
let receiver: WebhookReceiver;

beforeAll(async () => {
  await buildDist();
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.stop();
  await receiver.close();
});

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${server!.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server!.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

describe('a server killed between a status write and its delivery', () => {
  it('delivers the event after restart', async () => {
    // The first server looks for due deliveries once at start, then not for an hour.
    const env = { STEPWISE_WEBHOOK_ALLOW_PRIVATE: '1', STEPWISE_WEBHOOK_POLL: '1h' };
    server = await spawnServer([], { env });
    const hook = await post('/api/webhooks', { url: receiver.url, events: ['run.status_changed'] });
    const run = await post('/api/runs/create', { runName: 'doomed', projectName: 'kill' });
    await post('/api/runs/status/update', { runId: run.runId, status: 'FAILED' });
    const { dataDir, key, port } = server;
    await server.kill();
    expect(receiver.received).toEqual([]);
    server = await spawnServer([], { dataDir, key, port, env: { ...env, STEPWISE_WEBHOOK_POLL: '100ms' } });
    const [got] = await receiver.waitFor(1, 10_000);
    const event = new Webhook(String(hook.secret)).verify(got!.body, got!.headers);
    expect(event).toMatchObject({ type: 'run.status_changed', data: { to: 'FAILED', run: { id: run.runId } } });
  });
});
