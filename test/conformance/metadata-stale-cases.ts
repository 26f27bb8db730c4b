/** MetadataStore conformance: the stale-run rule's store side (list, fail, resume). */
import { describe, expect, it } from 'vitest';
import {
  apiWrite,
  newRun,
  T0,
  timeline,
  twoOrgs,
  withStore,
  type OpenMetadataStore,
} from './metadata-suite-helpers.js';

const REASON = { reason: 'stale' };

/** Registers the stale-run tests. */
export function staleCases(open: OpenMetadataStore): void {
  describe('stale runs', () => {
    it(
      'lists RUNNING runs silent since before the cut-off, longest silent first, and not finished ones',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        const a = await newRun(s, org, 'p');
        const b = await newRun(s, other, 'p');
        const done = await newRun(s, org, 'p');
        await s.updateStatus(org, done.id, apiWrite('COMPLETED', T0 + 1));
        const now = Date.now();
        await s.touchRun(a.id, now + 10);
        await s.touchRun(b.id, now + 5);
        await s.touchRun(done.id, now + 1);
        expect(await s.listStaleRuns(now + 5, 10)).toEqual([]);
        expect(await s.listStaleRuns(now + 11, 10)).toEqual([
          { runId: b.id, lastSeenAt: now + 5 },
          { runId: a.id, lastSeenAt: now + 10 },
        ]);
        expect(await s.listStaleRuns(now + 11, 1)).toHaveLength(1);
      }),
    );

    it(
      'counts a new run as seen at its creation, even with a backfilled createdAt',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const before = Date.now();
        await newRun(s, org, 'p', { createdAt: 0, updatedAt: 0 });
        expect(await s.listStaleRuns(before - 1, 10)).toEqual([]);
      }),
    );

    it(
      'fails a silent run once, with source system and the reason as statusMetadata',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        const cut = Date.now() + 1000;
        const results = await Promise.all([1, 2, 3].map(() => s.failStaleRun(run.id, cut, REASON, cut + 1)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await s.getRun(org, run.id)).toMatchObject({ status: 'FAILED', statusMetadata: REASON });
        expect(await timeline(s, org, run.id)).toEqual(['null→RUNNING:api', 'RUNNING→FAILED:system']);
        expect((await s.listStatusEvents(org, run.id))[1]?.metadata).toEqual(REASON);
      }),
    );

    it(
      'does not fail a run seen after the cut-off, nor one that is no longer RUNNING',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const alive = await newRun(s, org, 'p');
        const done = await newRun(s, org, 'p');
        const cut = Date.now() + 1000;
        await s.touchRun(alive.id, cut + 1);
        await s.updateStatus(org, done.id, apiWrite('COMPLETED', T0 + 1));
        expect(await s.failStaleRun(alive.id, cut, REASON, cut + 2)).toBe(false);
        expect(await s.failStaleRun(done.id, cut, REASON, cut + 2)).toBe(false);
        expect((await s.getRun(org, done.id)).status).toBe('COMPLETED');
      }),
    );

    it(
      'resumes a run failed by the system with a resume event and cleared statusMetadata, once',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        const cut = Date.now() + 1000;
        await s.failStaleRun(run.id, cut, REASON, cut + 1);
        expect(await s.resumeStaleRun(other, run.id, cut + 2)).toBe(false);
        expect(await s.resumeStaleRun(org, run.id, cut + 2)).toBe(true);
        expect(await s.resumeStaleRun(org, run.id, cut + 3)).toBe(false);
        expect(await s.getRun(org, run.id)).toMatchObject({
          status: 'RUNNING',
          statusMetadata: null,
          statusUpdated: cut + 2,
        });
        expect(await timeline(s, org, run.id)).toEqual([
          'null→RUNNING:api',
          'RUNNING→FAILED:system',
          'FAILED→RUNNING:resume',
        ]);
        expect(await s.listStaleRuns(cut + 2, 10)).toEqual([]);
      }),
    );

    it(
      'does not resume a run its client failed',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        await s.updateStatus(org, run.id, apiWrite('FAILED', T0 + 1));
        expect(await s.resumeStaleRun(org, run.id, T0 + 2)).toBe(false);
        expect((await s.getRun(org, run.id)).status).toBe('FAILED');
      }),
    );
  });
}
