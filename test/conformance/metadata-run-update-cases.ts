/** MetadataStore conformance: notes, config, tags, log names, model graphs, alerts, liveness. */
import { describe, expect, it } from 'vitest';
import type { LogNameEntry } from '../../src/domain/types.js';
import { newRun, T0, twoOrgs, withStore, type OpenMetadataStore } from './metadata-suite-helpers.js';

/** Config deep-merge cases: stored config, patch, result (docs/api.md §3.6). */
const MERGES: { label: string; base: unknown; patch: Record<string, unknown>; after: unknown }[] = [
  { label: 'nested objects merge', base: { a: { b: 1, c: 2 } }, patch: { a: { c: 3 } }, after: { a: { b: 1, c: 3 } } },
  { label: 'arrays replace', base: { xs: [1, 2, 3], k: 1 }, patch: { xs: [4] }, after: { xs: [4], k: 1 } },
  { label: 'a null value replaces', base: { a: { b: 1 }, k: 1 }, patch: { a: null }, after: { a: null, k: 1 } },
  { label: 'a scalar replaces an object', base: { a: { b: 1 } }, patch: { a: 5 }, after: { a: 5 } },
  { label: 'an object replaces a scalar', base: { a: 5 }, patch: { a: { b: 1 } }, after: { a: { b: 1 } } },
  { label: 'a run without config takes the patch', base: null, patch: { a: { b: 1 } }, after: { a: { b: 1 } } },
  { label: 'an empty patch keeps everything', base: { a: [1] }, patch: {}, after: { a: [1] } },
];

const entry = (logName: string, logType: string): LogNameEntry => {
  const slash = logName.lastIndexOf('/');
  return { logName, logType, logGroup: slash < 0 ? '' : logName.slice(0, slash) };
};

/** Registers the per-run update tests. */
export function runUpdateCases(open: OpenMetadataStore): void {
  describe('notes, config and tags', () => {
    it(
      'updateNotes replaces the notes, null clears them, and updatedAt becomes the write time',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        await s.updateNotes(org, run.id, 'first', T0 + 1);
        await s.updateNotes(org, run.id, 'second ✓', T0 + 2);
        expect(await s.getRun(org, run.id)).toMatchObject({ notes: 'second ✓', updatedAt: T0 + 2 });
        await s.updateNotes(org, run.id, null, T0 + 3);
        expect(await s.getRun(org, run.id)).toMatchObject({ notes: null, updatedAt: T0 + 3 });
      }),
    );

    for (const { label, base, patch, after } of MERGES) {
      it(
        `updateConfig deep-merges: ${label}`,
        withStore(open, async (s) => {
          const { org } = await twoOrgs(s);
          const run = await newRun(s, org, 'p', { config: base });
          await s.updateConfig(org, run.id, patch, T0 + 7);
          expect(await s.getRun(org, run.id)).toMatchObject({ config: after, updatedAt: T0 + 7 });
        }),
      );
    }

    it(
      'updateTags replaces all tags in the order given, and an empty list removes them',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p', { tags: ['a', 'b'] });
        await s.updateTags(org, run.id, ['z', 'é', 'a'], T0 + 1);
        expect(await s.getRun(org, run.id)).toMatchObject({ tags: ['z', 'é', 'a'], updatedAt: T0 + 1 });
        await s.updateTags(org, run.id, [], T0 + 2);
        expect((await s.getRun(org, run.id)).tags).toEqual([]);
      }),
    );
  });

  describe('log names', () => {
    it(
      'addLogNames keeps the first type of a name, across calls and within one call',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        await s.addLogNames(
          org,
          run.id,
          [entry('train/loss', 'METRIC'), entry('img', 'IMAGE'), entry('img', 'FILE')],
          T0,
        );
        await s.addLogNames(org, run.id, [entry('train/loss', 'HISTOGRAM'), entry('a/b/c', 'TEXT')], T0 + 1);
        await s.addLogNames(org, run.id, [], T0 + 2);
        expect(await s.listLogNames(run.id)).toEqual([
          entry('a/b/c', 'TEXT'),
          entry('img', 'IMAGE'),
          entry('train/loss', 'METRIC'),
        ]);
        expect(await s.listLogNames((await newRun(s, org, 'p')).id)).toEqual([]);
      }),
    );

    it(
      'listLogNames sorts by code point: B < a < a/b < é < U+FFFD < an astral character',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        const names = ['\u{1F600}', 'é', '\uFFFD', 'a/b', 'a', 'B'];
        await s.addLogNames(
          org,
          run.id,
          names.map((n) => entry(n, 'METRIC')),
          T0,
        );
        const listed = (await s.listLogNames(run.id)).map((e) => e.logName);
        expect(listed).toEqual(['B', 'a', 'a/b', 'é', '\uFFFD', '\u{1F600}']);
      }),
    );
  });

  describe('model graphs, alerts and liveness', () => {
    it(
      'setModelGraph stores a graph that findModelGraph returns, and a second call replaces it',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        expect(await s.findModelGraph(org, run.id)).toBeUndefined();
        const first = { format: 'torch', nodes: { conv: { type: 'Conv2d', edges: [[0, 1]] }, fc: { edges: [] } } };
        await s.setModelGraph(org, run.id, first, T0);
        expect(await s.findModelGraph(org, run.id)).toEqual(first);
        const second = { format: 'onnx', nodes: { only: { edges: [[1, 2]], params: 3 } } };
        await s.setModelGraph(org, run.id, second, T0 + 1);
        expect(await s.findModelGraph(org, run.id)).toEqual(second);
        expect(await s.findModelGraph(org, (await newRun(s, org, 'p')).id)).toBeUndefined();
      }),
    );

    it(
      'createAlert stores alerts that listAlerts returns oldest first, per run',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        const otherRun = await newRun(s, org, 'p');
        const a1 = { level: 'WARN', title: 'slow', body: 'step time up', payload: { extra: [1, 'x'] }, alertTime: 5 };
        const a2 = { level: null, title: null, body: null, payload: null, alertTime: T0 + 9 };
        await s.createAlert(org, run.id, a1, T0 + 1);
        await s.createAlert(org, otherRun.id, { ...a1, title: 'elsewhere' }, T0 + 2);
        await s.createAlert(org, run.id, a2, T0 + 3);
        const alerts = await s.listAlerts(org, run.id);
        expect(alerts).toMatchObject([
          { ...a1, runId: run.id, createdAt: T0 + 1 },
          { ...a2, runId: run.id, createdAt: T0 + 3 },
        ]);
        expect(alerts[0]!.id).toBeLessThan(alerts[1]!.id);
        expect((await s.listAlerts(org, otherRun.id)).map((a) => a.title)).toEqual(['elsewhere']);
      }),
    );

    it(
      'touchRun records liveness without changing the run’s status or fields',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p', { config: { a: 1 } });
        await s.touchRun(run.id, T0 + 50);
        await s.touchRun(run.id, T0 + 60);
        const after = await s.getRun(org, run.id);
        expect(after).toMatchObject({ status: 'RUNNING', config: { a: 1 }, statusUpdated: run.statusUpdated });
        expect(await s.listStatusEvents(org, run.id)).toHaveLength(1);
      }),
    );
  });
}
