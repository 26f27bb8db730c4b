/**
 * Notifications (docs/api.md §15): the organization's alerts, failed and stale runs, newest
 * first, each linking to its run (at the step for a metric alert), read per user.
 */
import { describe, expect, it } from 'vitest';
import type { NotificationList } from '../../src/api/schemas/notifications.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { ingestOk, metricLine, pyNdjson } from '../helpers/ingest-api.js';
import { createRun, setStatus } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';

const t = useTestApp();

async function notifications(key = t.key): Promise<NotificationList> {
  const res = await call(t.app, 'GET', '/api/notifications', key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as NotificationList;
}

describe('notifications', () => {
  it('lists alerts, rule alerts and failed runs newest first, linking to the run, and not run starts', async () => {
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    await call(t.app, 'POST', '/api/runs/alert', t.key, {
      runId: run.runId,
      alert: { title: 'Loss diverged', body: 'NaN at step 9', level: 'ERROR' },
    });
    await call(t.app, 'POST', '/api/alert-rules', t.key, {
      projectName: 'p',
      logName: 'val/loss',
      kind: 'above',
      threshold: 5,
    });
    await ingestOk(t.app, t.key, 'metrics', { runId: run.runId }, pyNdjson([metricLine(12, { 'val/loss': 6 })]));
    await setStatus(t.app, t.key, run.runId, 'FAILED');
    const list = await notifications();
    expect(list.unread).toBe(3);
    expect(list.items.map((n) => [n.kind, n.title, n.unread])).toEqual([
      ['failed', `${run.displayId} r failed`, true],
      ['alert', 'val/loss > 5', true],
      ['alert', 'Loss diverged', true],
    ]);
    expect(list.items[1]).toMatchObject({
      step: 12,
      path: expect.stringMatching(/\/projects\/p\/[^/?]+\?zoom=0-112$/),
    });
    expect(list.items[2]).toMatchObject({ text: 'NaN at step 9', level: 'ERROR', run: { id: run.runId } });
    expect(await notifications(t.otherKey)).toEqual({ unread: 0, items: [] });
  });

  it('marks read per user: another user of the organization still sees them unread', async () => {
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    await setStatus(t.app, t.key, run.runId, 'FAILED');
    const mate = (
      await createApiKey(t.stores.metadata, { orgSlug: t.org, userName: 'cat', name: 'k', expiresAt: null })
    ).key;
    expect((await call(t.app, 'POST', '/api/notifications/read', t.key, {})).status).toBe(200);
    expect(await notifications()).toMatchObject({ unread: 0, items: [{ unread: false }] });
    expect(await notifications(mate)).toMatchObject({ unread: 1, items: [{ unread: true }] });
    const again = await createRun(t.app, t.key, { runName: 'r2', projectName: 'p' });
    await setStatus(t.app, t.key, again.runId, 'FAILED');
    expect((await notifications()).unread).toBe(1);
  });
});
