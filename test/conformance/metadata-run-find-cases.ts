/** MetadataStore conformance: reading runs by id, ids, project, display id and externalId. */
import { describe, expect, it } from 'vitest';
import type { Run } from '../../src/domain/types.js';
import type { MetadataStore } from '../../src/store/metadata-store.js';
import {
  apiWrite,
  expectNotFound,
  newRun,
  twoOrgs,
  withStore,
  type OpenMetadataStore,
} from './metadata-suite-helpers.js';

/** Runs for the lookups: vision (VIS) 1..3, audio (AUD) 1..2, and globex's vision (VIS) 1. */
async function fixture(s: MetadataStore) {
  const { org, other } = await twoOrgs(s);
  const vision: Run[] = [];
  const audio: Run[] = [];
  for (let i = 0; i < 3; i++) vision.push(await newRun(s, org, 'vision', { externalId: `v${i}` }));
  for (let i = 0; i < 2; i++) audio.push(await newRun(s, org, 'audio'));
  const foreign = await newRun(s, other, 'vision', { externalId: 'v0' });
  return { org, other, vision, audio, foreign };
}

const ids = (runs: readonly Run[]): number[] => runs.map((r) => r.id);

/** Registers the run lookup tests. */
export function runFindCases(open: OpenMetadataStore): void {
  describe('run lookups', () => {
    it(
      'getRun and findRun return the organization’s run; an unknown id is NOT_FOUND or undefined',
      withStore(open, async (s) => {
        const { org, vision, foreign } = await fixture(s);
        const [run] = vision;
        expect(await s.getRun(org, run!.id)).toEqual(run);
        expect(await s.findRun(org, run!.id)).toEqual(run);
        const unknown = foreign.id + 1000;
        expect(await s.findRun(org, unknown)).toBeUndefined();
        await expectNotFound(s.getRun(org, unknown));
      }),
    );

    it(
      'getRunTarget returns the ids, project and current status of the organization’s run',
      withStore(open, async (s) => {
        const { org, vision, foreign } = await fixture(s);
        const run = vision[1]!;
        const { id, orgId, projectId, projectName, status } = run;
        expect(await s.getRunTarget(org, run.id)).toEqual({ id, orgId, projectId, projectName, status });
        await s.updateStatus(org, run.id, apiWrite('FAILED', run.createdAt + 1));
        expect(await s.getRunTarget(org, run.id)).toMatchObject({ status: 'FAILED' });
        await expectNotFound(s.getRunTarget(org, foreign.id + 1000));
      }),
    );

    it(
      'listRunsByIds keeps the order asked and skips unknown ids and other organizations’ runs',
      withStore(open, async (s) => {
        const { org, vision, audio, foreign } = await fixture(s);
        const asked = [audio[1]!.id, 987_654, vision[0]!.id, foreign.id, vision[2]!.id, audio[0]!.id];
        const listed = await s.listRunsByIds(org, asked);
        expect(ids(listed)).toEqual([audio[1]!.id, vision[0]!.id, vision[2]!.id, audio[0]!.id]);
        expect(listed[1]).toEqual(vision[0]);
        expect(await s.listRunsByIds(org, [])).toEqual([]);
        expect(await s.listRunsByIds(org, [foreign.id])).toEqual([]);
      }),
    );

    it(
      'listProjectRuns pages through one project’s runs by id, each run once',
      withStore(open, async (s) => {
        const { org, other, vision } = await fixture(s);
        const pages = [
          await s.listProjectRuns(org, 'vision', 2, 0),
          await s.listProjectRuns(org, 'vision', 2, 2),
          await s.listProjectRuns(org, 'vision', 2, 4),
        ];
        expect(pages.map((p) => p.length)).toEqual([2, 1, 0]);
        const all = ids(pages.flat());
        const ascending = [...ids(vision)].sort((a, b) => a - b);
        expect([ascending, [...ascending].reverse()]).toContainEqual(all);
        expect(pages.flat().every((r) => r.projectName === 'vision' && r.orgId === org)).toBe(true);
        expect(await s.listProjectRuns(org, 'missing', 10, 0)).toEqual([]);
        expect(ids(await s.listProjectRuns(other, 'vision', 10, 0))).toHaveLength(1);
      }),
    );

    it(
      'findRunByDisplayId finds a run by prefix and number, with or without its project name',
      withStore(open, async (s) => {
        const { org, other, vision, audio, foreign } = await fixture(s);
        expect(await s.findRunByDisplayId(org, 'VIS', 2)).toEqual(vision[1]);
        expect(await s.findRunByDisplayId(org, 'VIS', 2, 'vision')).toEqual(vision[1]);
        expect(await s.findRunByDisplayId(org, 'AUD', 2, 'audio')).toEqual(audio[1]);
        expect(await s.findRunByDisplayId(other, 'VIS', 1)).toEqual(foreign);
      }),
    );

    it(
      'findRunByDisplayId returns undefined for a wrong number, prefix or project name',
      withStore(open, async (s) => {
        const { org, other } = await fixture(s);
        const misses: [number, string, number, string | undefined][] = [
          [org, 'VIS', 4, undefined],
          [org, 'VIS', 0, undefined],
          [org, 'XYZ', 1, undefined],
          [org, 'VIS', 1, 'audio'],
          [org, 'VIS', 1, 'nowhere'],
          [other, 'VIS', 2, undefined],
          [other, 'AUD', 1, undefined],
        ];
        for (const [orgId, prefix, number, project] of misses) {
          expect(await s.findRunByDisplayId(orgId, prefix, number, project), `${prefix}-${number}`).toBeUndefined();
        }
      }),
    );

    it(
      'findRunByExternalId is scoped to the organization and the project',
      withStore(open, async (s) => {
        const { org, other, vision, foreign } = await fixture(s);
        expect(await s.findRunByExternalId(org, 'vision', 'v1')).toEqual(vision[1]);
        expect(await s.findRunByExternalId(other, 'vision', 'v0')).toEqual(foreign);
        expect(await s.findRunByExternalId(other, 'vision', 'v1')).toBeUndefined();
        expect(await s.findRunByExternalId(org, 'audio', 'v1')).toBeUndefined();
        expect(await s.findRunByExternalId(org, 'vision', 'v9')).toBeUndefined();
      }),
    );
  });
}
