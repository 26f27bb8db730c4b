/** MetadataStore conformance: creating runs, numbering, externalId resumes, stored fields. */
import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../../src/domain/types.js';
import {
  apiWrite,
  newRun,
  runInput,
  T0,
  timeline,
  twoOrgs,
  withStore,
  type OpenMetadataStore,
} from './metadata-suite-helpers.js';

const FINISHED: RunStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED'];

/** Registers the run-creation tests. */
export function runCreateCases(open: OpenMetadataStore): void {
  describe('createRun', () => {
    it(
      'a new run is RUNNING with number 1, the given fields, null notes and a null → RUNNING api event',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'vision', {
          name: 'baseline',
          tags: ['b', 'a', 'ü'],
          config: { lr: 0.1, model: { depth: 50, layers: [1, 2] } },
          systemMetadata: { host: 'gpu-1' },
          loggerSettings: { level: 'INFO' },
        });
        expect(run).toMatchObject({
          orgId: org,
          projectName: 'vision',
          number: 1,
          displayId: 'VIS-1',
          name: 'baseline',
          externalId: null,
          status: 'RUNNING',
          tags: ['b', 'a', 'ü'],
          config: { lr: 0.1, model: { depth: 50, layers: [1, 2] } },
          systemMetadata: { host: 'gpu-1' },
          loggerSettings: { level: 'INFO' },
          statusMetadata: null,
          notes: null,
          forkedFromRunId: null,
          forkStep: null,
        });
        expect(await s.getRun(org, run.id)).toEqual(run);
        expect(await timeline(s, org, run.id)).toEqual(['null→RUNNING:api']);
      }),
    );

    it(
      'createdAt and updatedAt are stored as given, 0 included, and the creation event is at createdAt',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        for (const [createdAt, updatedAt] of [
          [0, 0],
          [T0, T0 + 5000],
        ] as const) {
          const run = await newRun(s, org, 'backfill', { createdAt, updatedAt });
          expect(run).toMatchObject({ createdAt, updatedAt, statusUpdated: createdAt });
          const [event] = await s.listStatusEvents(org, run.id);
          expect(event).toMatchObject({ runId: run.id, fromStatus: null, toStatus: 'RUNNING', createdAt });
        }
      }),
    );

    it(
      'runs are numbered 1..n per project and a resume by externalId uses no number',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const p = [await newRun(s, org, 'p'), await newRun(s, org, 'p', { externalId: 'x' })];
        const q = [await newRun(s, org, 'q'), await newRun(s, org, 'q')];
        await s.createRun(runInput(org, 'p', { externalId: 'x' }));
        p.push(await newRun(s, org, 'p'));
        expect(p.map((r) => r.number)).toEqual([1, 2, 3]);
        expect(q.map((r) => r.displayId)).toEqual(['Q-1', 'Q-2']);
        expect(new Set([...p, ...q].map((r) => r.id)).size).toBe(5);
      }),
    );

    it(
      'eight concurrent creates in one new project get the numbers 1..8, each once',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => newRun(s, org, 'burst', { name: `r${i}` })));
        expect(runs.map((r) => r.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        expect(new Set(runs.map((r) => r.projectId)).size).toBe(1);
        expect((await s.findProject(org, 'burst'))?.runCount).toBe(8);
      }),
    );

    it(
      'the same externalId returns the same run with resumed true and ignores the other create fields',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const first = await newRun(s, org, 'p', { externalId: 'ddp-1', name: 'a', tags: ['t'], config: { lr: 1 } });
        const again = await s.createRun(
          runInput(org, 'p', {
            externalId: 'ddp-1',
            name: 'b',
            tags: ['other'],
            config: { lr: 2 },
            systemMetadata: { x: 1 },
            loggerSettings: { y: 2 },
            createdAt: T0 + 999,
          }),
        );
        expect(again.resumed).toBe(true);
        expect(again.run).toMatchObject({ id: first.id, number: 1, name: 'a', tags: ['t'], config: { lr: 1 } });
        expect(again.run).toMatchObject({ systemMetadata: null, loggerSettings: null, createdAt: T0 });
        expect(await timeline(s, org, first.id)).toEqual(['null→RUNNING:api']);
        expect(await s.findRunByExternalId(org, 'p', 'ddp-1')).toMatchObject({ id: first.id });
      }),
    );

    it(
      'eight concurrent creates with one externalId create exactly one run, and exactly one is not resumed',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, rank) =>
            s.createRun(runInput(org, 'ddp', { externalId: 'job', name: `${rank}` })),
          ),
        );
        expect(new Set(results.map((r) => r.run.id)).size).toBe(1);
        expect(results.filter((r) => !r.resumed)).toHaveLength(1);
        expect((await s.findProject(org, 'ddp'))?.runCount).toBe(1);
        expect(await timeline(s, org, results[0]!.run.id)).toEqual(['null→RUNNING:api']);
      }),
    );

    for (const status of FINISHED) {
      it(
        `a ${status} run resumed by externalId is RUNNING again with one resume event`,
        withStore(open, async (s) => {
          const { org } = await twoOrgs(s);
          const run = await newRun(s, org, 'p', { externalId: 'e' });
          await s.updateStatus(org, run.id, apiWrite(status, T0 + 10));
          const { run: resumed } = await s.createRun(runInput(org, 'p', { externalId: 'e' }));
          expect(resumed.status).toBe('RUNNING');
          expect(resumed.statusUpdated).toBeGreaterThan(T0 + 10);
          expect(await timeline(s, org, run.id)).toEqual([
            'null→RUNNING:api',
            `RUNNING→${status}:api`,
            `${status}→RUNNING:resume`,
          ]);
        }),
      );
    }

    it(
      'a resume deep-merges an object configPatch into the config and ignores a missing or null one',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const config = { opt: { lr: 0.1, betas: [0.9, 0.99] }, seed: 1 };
        const run = await newRun(s, org, 'p', { externalId: 'e', config });
        for (const configPatch of [undefined, null]) {
          const { run: same } = await s.createRun(runInput(org, 'p', { externalId: 'e', configPatch }));
          expect(same.config).toEqual(config);
        }
        const patch = { opt: { lr: 0.01, betas: [0.5] }, extra: null };
        const { run: merged } = await s.createRun(runInput(org, 'p', { externalId: 'e', configPatch: patch }));
        const expected = { opt: { lr: 0.01, betas: [0.5] }, seed: 1, extra: null };
        expect(merged.config).toEqual(expected);
        expect((await s.getRun(org, run.id)).config).toEqual(expected);
      }),
    );

    it(
      'the same externalId in another project or another organization makes a separate run',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        const ids = [
          (await s.createRun(runInput(org, 'p', { externalId: 'e' }))).run.id,
          (await s.createRun(runInput(org, 'q', { externalId: 'e' }))).run.id,
          (await s.createRun(runInput(other, 'p', { externalId: 'e' }))).run.id,
        ];
        expect(new Set(ids).size).toBe(3);
        expect((await s.findRunByExternalId(other, 'p', 'e'))?.id).toBe(ids[2]);
        expect((await s.findRunByExternalId(org, 'p', 'e'))?.id).toBe(ids[0]);
      }),
    );

    it(
      'fork fields are stored as given on the child and left null on the parent',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const parent = await newRun(s, org, 'p');
        for (const forkStep of [0, 42]) {
          const child = await newRun(s, org, 'p', { fork: { parentId: parent.id, forkStep } });
          expect(child).toMatchObject({ forkedFromRunId: parent.id, forkStep });
          expect(await s.getRun(org, child.id)).toMatchObject({ forkedFromRunId: parent.id, forkStep });
        }
        expect(await s.getRun(org, parent.id)).toMatchObject({ forkedFromRunId: null, forkStep: null });
      }),
    );
  });
}
