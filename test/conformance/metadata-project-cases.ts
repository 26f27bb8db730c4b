/** MetadataStore conformance: projects made on demand, display-id prefixes, listings. */
import { describe, expect, it } from 'vitest';
import { newRun, T0, twoOrgs, withStore, type OpenMetadataStore } from './metadata-suite-helpers.js';

/** Project names created in this order in one organization, and the prefixes they get. */
const PREFIXES: { names: string[]; prefixes: string[] }[] = [
  { names: ['my-test', 'mte', 'mighty-tree-elf'], prefixes: ['MTE', 'MTE2', 'MTE3'] },
  { names: ['my-ml_project.v2', 'm.m.p.v', 'mmpx'], prefixes: ['MMPV', 'MMP2', 'MMP'] },
  { names: ['ai', 'a-i'], prefixes: ['AI', 'AI2'] },
  { names: ['training', 'image-classification', 'resnet-50'], prefixes: ['TRA', 'ICL', 'R50'] },
];

/** Registers the project tests. */
export function projectCases(open: OpenMetadataStore): void {
  describe('projects and display-id prefixes', () => {
    for (const { names, prefixes } of PREFIXES) {
      it(
        `projects ${names.join(', ')} created in turn get the unique prefixes ${prefixes.join(', ')}`,
        withStore(open, async (s) => {
          const { org } = await twoOrgs(s);
          for (const [i, name] of names.entries()) {
            const run = await newRun(s, org, name);
            expect(run.displayId).toBe(`${prefixes[i]}-1`);
            expect((await s.findProject(org, name))?.prefix).toBe(prefixes[i]);
          }
        }),
      );
    }

    it(
      'the prefix another organization uses is free in this one',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        await newRun(s, org, 'my-test');
        await newRun(s, org, 'mte');
        expect((await newRun(s, other, 'mte')).displayId).toBe('MTE-1');
        expect((await newRun(s, other, 'my-test')).displayId).toBe('MTE2-1');
      }),
    );

    it(
      'projects with one derived prefix created concurrently still get distinct prefixes',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const names = ['my-test', 'mte', 'mighty-tree-elf', 'm.t.e'];
        const runs = await Promise.all(names.map((name) => newRun(s, org, name)));
        const prefixes = runs.map((r) => r.displayId.replace(/-1$/, '')).sort();
        expect(prefixes).toEqual(['MTE', 'MTE2', 'MTE3', 'MTE4']);
      }),
    );

    it(
      'createRun makes the project on first use and reuses it afterwards',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        expect(await s.findProject(org, 'vision')).toBeUndefined();
        const first = await newRun(s, org, 'vision');
        const second = await newRun(s, org, 'vision');
        expect(second.projectId).toBe(first.projectId);
        expect(first.projectName).toBe('vision');
        expect(await s.findProject(org, 'vision')).toMatchObject({
          id: first.projectId,
          name: 'vision',
          prefix: 'VIS',
          runCount: 2,
        });
      }),
    );

    it(
      'listProjects lists the organization’s projects newest first with their run counts',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        const counts: [string, number][] = [
          ['alpha', 3],
          ['beta', 1],
          ['gamma', 2],
        ];
        for (const [name, n] of counts) {
          for (let i = 0; i < n; i++) await newRun(s, org, name);
        }
        await newRun(s, other, 'foreign');
        const listed = await s.listProjects(org);
        expect(listed.map((p) => [p.name, p.runCount])).toEqual([
          ['gamma', 2],
          ['beta', 1],
          ['alpha', 3],
        ]);
        for (let i = 1; i < listed.length; i++) {
          expect(listed[i - 1]!.createdAt).toBeGreaterThanOrEqual(listed[i]!.createdAt);
        }
        expect((await s.listProjects(other)).map((p) => p.name)).toEqual(['foreign']);
        expect(await s.listProjects(await s.ensureOrganization('empty', T0))).toEqual([]);
      }),
    );

    it(
      'findProject finds only the organization’s own project of that exact name',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        const run = await newRun(s, org, 'vision');
        expect(await s.findProject(other, 'vision')).toBeUndefined();
        expect(await s.findProject(org, 'Vision')).toBeUndefined();
        expect(await s.findProject(org, 'visio')).toBeUndefined();
        expect(await s.findProjectId(org, 'vision')).toBe(run.projectId);
        expect(await s.findProjectId(other, 'vision')).toBeUndefined();
        expect(await s.findProjectId(org, 'Vision')).toBeUndefined();
      }),
    );

    it(
      'listForkedRunIds lists the project’s forks and nothing of other projects',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const root = await newRun(s, org, 'p');
        const a = await newRun(s, org, 'p', { fork: { parentId: root.id, forkStep: 5 } });
        await newRun(s, org, 'p');
        const b = await newRun(s, org, 'p', { fork: { parentId: a.id, forkStep: 0 } });
        const elsewhere = await newRun(s, org, 'q');
        await newRun(s, org, 'q', { fork: { parentId: elsewhere.id, forkStep: 1 } });
        expect([...(await s.listForkedRunIds(root.projectId))].sort((x, y) => x - y)).toEqual([a.id, b.id]);
        const fresh = await newRun(s, org, 'r');
        expect(await s.listForkedRunIds(fresh.projectId)).toEqual([]);
      }),
    );
  });
}
