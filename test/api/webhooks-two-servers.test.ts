/**
 * Two servers' delivery workers on one database deliver each of 1,000 events exactly once
 * (PostgreSQL: two store connections, as two processes have; SQLite: one process owns the
 * file, so both workers share its stores).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/events/delivery-worker.js';
import type { EventStore } from '../../src/store/event-store.js';
import { openStores, type Stores } from '../../src/store/open-stores.js';
import { sleep } from '../helpers/run-api.js';
import { useTestApp } from '../helpers/test-app.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const t = useTestApp();
const opened: Stores[] = [];
afterAll(() => Promise.all(opened.map((s) => s.close())));

const worker = (events: EventStore): DeliveryWorker =>
  startDeliveryWorker({
    events,
    publicUrl: 'http://stepwise.test',
    allowPrivate: true,
    retryDelaysMs: [100],
    timeoutMs: 5_000,
    pollMs: 20,
    onError: (err) => console.error(err),
  });

describe('two servers on one database', () => {
  it('deliver each of 1,000 events exactly once', async () => {
    const receiver = await startReceiver();
    let second = t.stores;
    if (t.databaseUrl !== undefined) {
      second = await openStores({ dataDir: t.dataDir, databaseUrl: t.databaseUrl });
      opened.push(second);
    }
    const orgId = await t.stores.metadata.ensureOrganization(t.org, Date.now());
    await t.deps.events.createWebhook({
      orgId,
      projectId: null,
      url: receiver.url,
      events: ['run.alert'],
      format: 'standard',
      secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      createdBy: null,
      at: Date.now(),
    });
    const workers = [worker(t.deps.events), worker(second.events)];
    try {
      for (let i = 0; i < 1_000; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            t.deps.events.appendEvent({
              orgId,
              projectId: null,
              runId: null,
              type: 'run.alert',
              data: { n: i + j },
              at: Date.now(),
            }),
          ),
        );
      }
      await receiver.waitFor(1_000, 50_000);
      await sleep(500);
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(1_000);
      expect(new Set(ids).size).toBe(1_000);
      const numbers = receiver.received.map((r) => (r.json.data as { n: number }).n).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await receiver.close();
    }
  });
});
