/** MetadataStore conformance: another organization's run is indistinguishable from none. */
import { describe, expect, it } from 'vitest';
import type { MetadataStore } from '../../src/store/metadata-store.js';
import { apiWrite, newRun, outcome, T0, twoOrgs, withStore, type OpenMetadataStore } from './metadata-suite-helpers.js';

type Call = (s: MetadataStore, orgId: number, runId: number) => Promise<unknown>;

/** Run-level calls that must throw NOT_FOUND for a run the organization does not own. */
const THROWING: [string, Call][] = [
  ['getRun', (s, o, r) => s.getRun(o, r)],
  ['getRunTarget', (s, o, r) => s.getRunTarget(o, r)],
  ['updateStatus', (s, o, r) => s.updateStatus(o, r, apiWrite('FAILED', T0 + 1, { statusMetadata: { x: 1 } }))],
  ['listStatusEvents', (s, o, r) => s.listStatusEvents(o, r)],
  ['updateNotes', (s, o, r) => s.updateNotes(o, r, 'hijacked', T0 + 1)],
  ['updateConfig', (s, o, r) => s.updateConfig(o, r, { hijacked: true }, T0 + 1)],
  ['updateTags', (s, o, r) => s.updateTags(o, r, ['hijacked'], T0 + 1)],
  ['addLogNames', (s, o, r) => s.addLogNames(o, r, [{ logName: 'x', logType: 'METRIC', logGroup: '' }], T0 + 1)],
  ['setModelGraph', (s, o, r) => s.setModelGraph(o, r, { format: 'x', nodes: {} }, T0 + 1)],
  ['findModelGraph', (s, o, r) => s.findModelGraph(o, r)],
  ['getLineage', (s, o, r) => s.getLineage(o, r, 10)],
  [
    'createAlert',
    (s, o, r) => s.createAlert(o, r, { level: null, title: 'x', body: null, payload: {}, alertTime: 1 }, 1),
  ],
];

/** Run-level reads that return undefined or [] for a run the organization does not own. */
const EMPTY: [string, Call, unknown][] = [
  ['findRun', (s, o, r) => s.findRun(o, r), undefined],
  ['listRunsByIds', (s, o, r) => s.listRunsByIds(o, [r]), []],
  ['listProjectRuns', (s, o) => s.listProjectRuns(o, 'secret', 100, 0), []],
  ['findRunByDisplayId', (s, o) => s.findRunByDisplayId(o, 'SEC', 1), undefined],
  ['findRunByDisplayId with the project', (s, o) => s.findRunByDisplayId(o, 'SEC', 1, 'secret'), undefined],
  ['findRunByExternalId', (s, o) => s.findRunByExternalId(o, 'secret', 'ext'), undefined],
  ['findProject', (s, o) => s.findProject(o, 'secret'), undefined],
  ['findProjectId', (s, o) => s.findProjectId(o, 'secret'), undefined],
  ['listProjects', (s, o) => s.listProjects(o), []],
];

/** Acme's run in project `secret` (prefix SEC), with a graph, a log name and an alert. */
async function acmeRun(s: MetadataStore) {
  const orgs = await twoOrgs(s);
  const run = await newRun(s, orgs.org, 'secret', { externalId: 'ext', config: { a: 1 }, tags: ['t'] });
  await s.setModelGraph(orgs.org, run.id, { format: 'torch', nodes: { n: { edges: [] } } }, T0);
  await s.addLogNames(orgs.org, run.id, [{ logName: 'loss', logType: 'METRIC', logGroup: '' }], T0);
  await s.createAlert(orgs.org, run.id, { level: 'INFO', title: 't', body: 'b', payload: {}, alertTime: 1 }, T0);
  return { ...orgs, run };
}

/** Registers the tenancy tests. */
export function isolationCases(open: OpenMetadataStore): void {
  describe('tenancy', () => {
    for (const [name, call] of THROWING) {
      it(
        `${name} on another organization’s run throws NOT_FOUND and changes nothing`,
        withStore(open, async (s) => {
          const { org, other, run } = await acmeRun(s);
          const events = await s.listStatusEvents(org, run.id);
          expect(await outcome(call(s, other, run.id))).toEqual({ code: 'NOT_FOUND' });
          expect(await outcome(call(s, other, run.id + 1000))).toEqual({ code: 'NOT_FOUND' });
          expect(await s.getRun(org, run.id)).toEqual(run);
          expect(await s.listStatusEvents(org, run.id)).toEqual(events);
          expect((await s.listLogNames(run.id)).map((e) => e.logName)).toEqual(['loss']);
          expect((await s.findModelGraph(org, run.id))?.format).toBe('torch');
          expect(await s.listAlerts(org, run.id)).toHaveLength(1);
        }),
      );
    }

    for (const [name, call, empty] of EMPTY) {
      it(
        `${name} shows another organization nothing of the run`,
        withStore(open, async (s) => {
          const { org, other, run } = await acmeRun(s);
          expect(await call(s, other, run.id)).toEqual(empty);
          expect(await call(s, org, run.id)).not.toEqual(empty);
        }),
      );
    }

    it(
      'listAlerts of another organization’s run answers exactly as for a run that does not exist',
      withStore(open, async (s) => {
        const { other, run } = await acmeRun(s);
        const foreign = await outcome(s.listAlerts(other, run.id));
        expect(foreign).toEqual(await outcome(s.listAlerts(other, run.id + 1000)));
        expect([{ value: [] }, { code: 'NOT_FOUND' }]).toContainEqual(foreign);
      }),
    );

    it(
      'createRun in another organization with the same project name and externalId does not touch the run',
      withStore(open, async (s) => {
        const { org, other, run } = await acmeRun(s);
        const { run: theirs, resumed } = await s.createRun({
          orgId: other,
          projectName: 'secret',
          name: 'theirs',
          externalId: 'ext',
          tags: [],
          config: null,
          configPatch: { hijacked: true },
          systemMetadata: null,
          loggerSettings: null,
          createdAt: T0,
          updatedAt: T0,
          fork: null,
        });
        expect(resumed).toBe(false);
        expect(theirs).toMatchObject({ orgId: other, number: 1, config: null, displayId: 'SEC-1' });
        expect(theirs.id).not.toBe(run.id);
        expect(await s.getRun(org, run.id)).toEqual(run);
      }),
    );
  });
}
