/** MetadataStore conformance: fork lineages through several generations and depth limits. */
import { describe, expect, it } from 'vitest';
import type { MetadataStore } from '../../src/store/metadata-store.js';
import { expectNotFound, newRun, twoOrgs, withStore, type OpenMetadataStore } from './metadata-suite-helpers.js';

/** Grandparent A, parent B forked from A at `bStep`, child C forked from B at `cStep`. */
async function threeGenerations(s: MetadataStore, bStep: number, cStep: number) {
  const { org, other } = await twoOrgs(s);
  const a = await newRun(s, org, 'p');
  const b = await newRun(s, org, 'p', { fork: { parentId: a.id, forkStep: bStep } });
  const c = await newRun(s, org, 'p', { fork: { parentId: b.id, forkStep: cStep } });
  return { org, other, a: a.id, b: b.id, c: c.id };
}

/** Fork steps of B and C, and the visible maxStep of B and A seen from C. */
const GENERATIONS: { bStep: number; cStep: number; bMax: number; aMax: number }[] = [
  { bStep: 50, cStep: 30, bMax: 30, aMax: 30 },
  { bStep: 20, cStep: 30, bMax: 30, aMax: 20 },
  { bStep: 0, cStep: 0, bMax: 0, aMax: 0 },
  { bStep: 7, cStep: 7, bMax: 7, aMax: 7 },
];

/** Registers the lineage tests. */
export function lineageCases(open: OpenMetadataStore): void {
  describe('getLineage', () => {
    for (const { bStep, cStep, bMax, aMax } of GENERATIONS) {
      it(
        `a child forked at ${cStep} from a parent forked at ${bStep} sees the parent to ${bMax} and the grandparent to ${aMax}`,
        withStore(open, async (s) => {
          const { org, a, b, c } = await threeGenerations(s, bStep, cStep);
          expect(await s.getLineage(org, c, 10)).toEqual([
            { runId: c, maxStep: Infinity },
            { runId: b, maxStep: bMax },
            { runId: a, maxStep: aMax },
          ]);
          expect(await s.getLineage(org, b, 10)).toEqual([
            { runId: b, maxStep: Infinity },
            { runId: a, maxStep: bStep },
          ]);
          expect(await s.getLineage(org, a, 10)).toEqual([{ runId: a, maxStep: Infinity }]);
        }),
      );
    }

    it(
      'getLineage returns at most depth links, nearest first',
      withStore(open, async (s) => {
        const { org, b, c } = await threeGenerations(s, 50, 30);
        expect(await s.getLineage(org, c, 2)).toEqual([
          { runId: c, maxStep: Infinity },
          { runId: b, maxStep: 30 },
        ]);
        expect(await s.getLineage(org, c, 1)).toEqual([{ runId: c, maxStep: Infinity }]);
        expect(await s.getLineage(org, c, 3)).toHaveLength(3);
      }),
    );

    it(
      'a twelve-generation chain is followed to a depth of at least ten',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const ids = [(await newRun(s, org, 'deep')).id];
        for (let i = 1; i < 12; i++) {
          ids.push((await newRun(s, org, 'deep', { fork: { parentId: ids[i - 1]!, forkStep: 100 - i } })).id);
        }
        const lineage = await s.getLineage(org, ids[11]!, 12);
        expect(lineage.map((l) => l.runId)).toEqual([...ids].reverse());
        expect(lineage.map((l) => l.maxStep)).toEqual([Infinity, 89, 89, 89, 89, 89, 89, 89, 89, 89, 89, 89]);
        expect(await s.getLineage(org, ids[11]!, 10)).toHaveLength(10);
      }),
    );

    it(
      'getLineage of an unknown run or another organization’s run is NOT_FOUND',
      withStore(open, async (s) => {
        const { org, other, c } = await threeGenerations(s, 50, 30);
        await expectNotFound(s.getLineage(other, c, 10));
        await expectNotFound(s.getLineage(org, c + 1000, 10));
      }),
    );
  });
}
