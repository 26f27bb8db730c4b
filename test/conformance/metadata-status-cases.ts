/** MetadataStore conformance: status writes, precedence, no-op writes, races and the timeline. */
import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../../src/domain/types.js';
import {
  apiWrite,
  newRun,
  T0,
  timeline,
  twoOrgs,
  withStore,
  type OpenMetadataStore,
} from './metadata-suite-helpers.js';

/** Terminal statuses from lowest to highest precedence. */
const RANKED: RunStatus[] = ['COMPLETED', 'TERMINATED', 'CANCELLED', 'FAILED'];

/** Every ordered pair of distinct terminal statuses, and the status an api write leaves. */
const PRECEDENCE = RANKED.flatMap((from, i) =>
  RANKED.flatMap((to, j) => (i === j ? [] : [{ from, to, after: j > i ? to : from }])),
);

/** Metadata writes on a COMPLETED run with statusMetadata {v:1}, and what each leaves. */
const METADATA: { label: string; value: unknown; after: unknown }[] = [
  { label: 'undefined keeps it', value: undefined, after: { v: 1 } },
  { label: 'null clears it', value: null, after: null },
  { label: 'a value replaces it', value: { w: [2] }, after: { w: [2] } },
  { label: 'a scalar replaces it', value: 'oom', after: 'oom' },
];

/** Registers the status tests. */
export function statusCases(open: OpenMetadataStore): void {
  describe('updateStatus precedence for api writes', () => {
    for (const { from, to, after } of PRECEDENCE) {
      it(
        `an api write of ${to} over ${from} ${after === to ? `moves the run to ${to}` : 'changes nothing'}`,
        withStore(open, async (s) => {
          const { org } = await twoOrgs(s);
          const run = await newRun(s, org, 'p');
          const before = await s.updateStatus(org, run.id, apiWrite(from, T0 + 10, { statusMetadata: { by: 1 } }));
          const write = apiWrite(to, T0 + 20, { statusMetadata: { by: 2 }, loggerSettings: { x: 1 } });
          const returned = await s.updateStatus(org, run.id, write);
          expect(returned.status).toBe(after);
          expect(await s.getRun(org, run.id)).toEqual(returned);
          const events = ['null→RUNNING:api', `RUNNING→${from}:api`];
          if (after === to) {
            expect(returned).toMatchObject({
              statusUpdated: T0 + 20,
              statusMetadata: { by: 2 },
              loggerSettings: { x: 1 },
            });
            events.push(`${from}→${to}:api`);
          } else {
            expect(returned).toEqual(before);
          }
          expect(await timeline(s, org, run.id)).toEqual(events);
        }),
      );
    }

    for (const status of RANKED) {
      it(
        `an api write of RUNNING over ${status} reopens the run`,
        withStore(open, async (s) => {
          const { org } = await twoOrgs(s);
          const run = await newRun(s, org, 'p');
          await s.updateStatus(org, run.id, apiWrite(status, T0 + 10));
          expect((await s.updateStatus(org, run.id, apiWrite('RUNNING', T0 + 20))).status).toBe('RUNNING');
          expect((await timeline(s, org, run.id)).at(-1)).toBe(`${status}→RUNNING:api`);
        }),
      );
    }
  });

  describe('updateStatus writes of the current status', () => {
    it(
      'a write of the current status records no event and keeps statusUpdated, but stores statusMetadata',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        await s.updateStatus(org, run.id, apiWrite('COMPLETED', T0 + 10, { statusMetadata: { first: true } }));
        const after = await s.updateStatus(org, run.id, apiWrite('COMPLETED', T0 + 20, { statusMetadata: { n: 2 } }));
        expect(after).toMatchObject({ status: 'COMPLETED', statusUpdated: T0 + 10, statusMetadata: { n: 2 } });
        const running = await s.updateStatus(org, (await newRun(s, org, 'p')).id, apiWrite('RUNNING', T0 + 30));
        expect(running.statusUpdated).toBe(T0);
        expect(await timeline(s, org, running.id)).toEqual(['null→RUNNING:api']);
        const events = await s.listStatusEvents(org, run.id);
        expect(events.map((e) => [e.toStatus, e.metadata, e.createdAt])).toEqual([
          ['RUNNING', null, T0],
          ['COMPLETED', { first: true }, T0 + 10],
        ]);
      }),
    );

    for (const { label, value, after } of METADATA) {
      it(
        `statusMetadata ${label}`,
        withStore(open, async (s) => {
          const { org } = await twoOrgs(s);
          const run = await newRun(s, org, 'p');
          await s.updateStatus(org, run.id, apiWrite('COMPLETED', T0 + 10, { statusMetadata: { v: 1 } }));
          const same = await s.updateStatus(org, run.id, apiWrite('COMPLETED', T0 + 20, { statusMetadata: value }));
          expect(same.statusMetadata).toEqual(after);
          const moved = await s.updateStatus(org, run.id, apiWrite('FAILED', T0 + 30, { statusMetadata: undefined }));
          expect(moved.statusMetadata).toEqual(after);
        }),
      );
    }

    it(
      'loggerSettings are deep-merged into the stored settings, and null or undefined keeps them',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p', { loggerSettings: { a: { b: 1, c: 2 }, list: [1, 2], keep: 'k' } });
        const write = (loggerSettings: unknown, at: number) =>
          s.updateStatus(org, run.id, apiWrite('RUNNING', at, { loggerSettings }));
        await write({ a: { c: 3, d: 4 }, list: [9], gone: null }, T0 + 10);
        const expected = { a: { b: 1, c: 3, d: 4 }, list: [9], keep: 'k', gone: null };
        expect((await s.getRun(org, run.id)).loggerSettings).toEqual(expected);
        await write(null, T0 + 20);
        await write(undefined, T0 + 30);
        expect((await s.getRun(org, run.id)).loggerSettings).toEqual(expected);
      }),
    );
  });

  describe('updateStatus races and sources', () => {
    it(
      'eight concurrent identical writes record exactly one event',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'ddp');
        await Promise.all(
          Array.from({ length: 8 }, (_, rank) => s.updateStatus(org, run.id, apiWrite('COMPLETED', T0 + 10 + rank))),
        );
        expect(await timeline(s, org, run.id)).toEqual(['null→RUNNING:api', 'RUNNING→COMPLETED:api']);
        expect((await s.getRun(org, run.id)).status).toBe('COMPLETED');
      }),
    );

    for (const position of [0, 3, 7]) {
      it(
        `seven COMPLETED writes racing one FAILED write (at position ${position}) always end FAILED`,
        withStore(open, async (s) => {
          const { org } = await twoOrgs(s);
          const run = await newRun(s, org, 'ddp');
          const statuses: RunStatus[] = Array.from({ length: 8 }, (_, i) => (i === position ? 'FAILED' : 'COMPLETED'));
          await Promise.all(statuses.map((status) => s.updateStatus(org, run.id, apiWrite(status, T0 + 10))));
          expect((await s.getRun(org, run.id)).status).toBe('FAILED');
          const events = await timeline(s, org, run.id);
          expect(events.at(-1)).toMatch(/→FAILED:api$/);
          expect(events.length).toBeLessThanOrEqual(3);
        }),
      );
    }

    it(
      'resume and system writes are recorded with their source, oldest event first',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        const steps: [RunStatus, 'api' | 'resume' | 'system', number][] = [
          ['COMPLETED', 'api', T0 + 1],
          ['RUNNING', 'resume', T0 + 2],
          ['TERMINATED', 'system', T0 + 3],
          ['RUNNING', 'resume', T0 + 4],
          ['FAILED', 'api', T0 + 5],
        ];
        for (const [status, source, at] of steps) {
          expect((await s.updateStatus(org, run.id, apiWrite(status, at, { source }))).statusUpdated).toBe(at);
        }
        const events = await s.listStatusEvents(org, run.id);
        expect(events.map((e) => [e.fromStatus, e.toStatus, e.source, e.createdAt, e.runId])).toEqual([
          [null, 'RUNNING', 'api', T0, run.id],
          ['RUNNING', 'COMPLETED', 'api', T0 + 1, run.id],
          ['COMPLETED', 'RUNNING', 'resume', T0 + 2, run.id],
          ['RUNNING', 'TERMINATED', 'system', T0 + 3, run.id],
          ['TERMINATED', 'RUNNING', 'resume', T0 + 4, run.id],
          ['RUNNING', 'FAILED', 'api', T0 + 5, run.id],
        ]);
        expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
      }),
    );
  });
}
