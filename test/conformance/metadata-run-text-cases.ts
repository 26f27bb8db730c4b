/**
 * MetadataStore conformance: the reads of bounded answers (run heads with their JSON fields'
 * byte lengths, config texts whole or by key paths, JSON field texts) and the log-name cap.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { T0, newRun, twoOrgs, withStore, type OpenMetadataStore } from './metadata-suite-helpers.js';

const CONFIG = { lr: 0.1, opt: { beta: [0.9, 0.99], name: 'adam', 'a.b': 1 }, s: 'é', nul: null, '0': 'zero' };

/** Registers the bounded-read tests. */
export function runTextCases(open: OpenMetadataStore): void {
  describe('bounded run reads', () => {
    it(
      'listRunHeads keeps the order asked, skips unknown and foreign runs, and measures the JSON fields in bytes',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        const a = await newRun(s, org, 'p', { config: CONFIG, systemMetadata: { os: 'linux' } });
        const b = await newRun(s, org, 'p', { config: null });
        const foreign = await newRun(s, other, 'p', { config: CONFIG });
        const heads = await s.listRunHeads(org, [b.id, 987_654, foreign.id, a.id]);
        expect(heads.map((h) => h.id)).toEqual([b.id, a.id]);
        const { config: _c, systemMetadata: _s, loggerSettings: _l, statusMetadata: _m, ...rest } = a;
        const configBytes = Buffer.byteLength(JSON.stringify(CONFIG));
        const jsonBytes = configBytes + Buffer.byteLength(JSON.stringify({ os: 'linux' }));
        expect(heads[1]).toEqual({ ...rest, configBytes, jsonBytes });
        expect(heads[0]).toMatchObject({ configBytes: 0, jsonBytes: 0 });
        expect(await s.findRunHead(org, { runId: a.id })).toEqual(heads[1]);
        const [prefix, number] = a.displayId.split('-');
        expect(await s.findRunHead(org, { prefix: prefix!, number: Number(number) })).toEqual(heads[1]);
        expect(await s.findRunHead(org, { runId: foreign.id })).toBeUndefined();
      }),
    );

    it(
      'listConfigTexts reads whole configs as JSON text, or only the values at key paths, nested as in the config',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        const a = await newRun(s, org, 'p', { config: CONFIG });
        const b = await newRun(s, org, 'p', { config: null });
        const foreign = await newRun(s, other, 'p', { config: CONFIG });
        const whole = await s.listConfigTexts(org, [a.id, b.id, foreign.id]);
        expect([...whole.keys()].sort()).toEqual([a.id, b.id].sort());
        expect(JSON.parse(whole.get(a.id)!)).toEqual(CONFIG);
        expect(whole.get(b.id)).toBeNull();
        const paths = [
          ['opt', 'beta'],
          ['lr'],
          ['missing'],
          ['opt', 'name', 'x'],
          ['0'],
          ['nul'],
          ['opt', 'a.b'],
          ['s'],
        ];
        const picked = await s.listConfigTexts(org, [a.id, b.id], paths);
        expect(JSON.parse(picked.get(a.id)!)).toEqual({
          opt: { beta: [0.9, 0.99], 'a.b': 1 },
          lr: 0.1,
          '0': 'zero',
          nul: null,
          s: 'é',
        });
        expect(picked.get(b.id)).toBeNull();
        expect(JSON.parse((await s.listConfigTexts(org, [a.id], [['missing']])).get(a.id)!)).toEqual({});
      }),
    );

    it(
      'findRunJsonTexts reads the four JSON fields as stored JSON text',
      withStore(open, async (s) => {
        const { org, other } = await twoOrgs(s);
        const run = await newRun(s, org, 'p', { config: CONFIG, loggerSettings: { a: [1] } });
        const texts = await s.findRunJsonTexts(org, run.id);
        expect(JSON.parse(texts!.config!)).toEqual(CONFIG);
        expect(JSON.parse(texts!.loggerSettings!)).toEqual({ a: [1] });
        expect(texts).toMatchObject({ systemMetadata: null, statusMetadata: null });
        expect(await s.findRunJsonTexts(other, run.id)).toBeUndefined();
      }),
    );

    it(
      'addLogNames refuses, storing none, names that would take a run past maxNames; logNameStats counts them',
      withStore(open, async (s) => {
        const { org } = await twoOrgs(s);
        const run = await newRun(s, org, 'p');
        const entry = (logName: string) => ({ logName, logType: 'METRIC', logGroup: '' });
        await s.addLogNames(org, run.id, [entry('a'), entry('b')], T0, 3);
        const refused = s.addLogNames(org, run.id, [entry('a'), entry('c'), entry('d')], T0, 3);
        await expect(refused).rejects.toBeInstanceOf(AppError);
        await expect(refused).rejects.toMatchObject({
          code: 'BAD_REQUEST',
          message: expect.stringContaining('at most 3 log names'),
        });
        expect((await s.listLogNames(run.id)).map((e) => e.logName)).toEqual(['a', 'b']);
        // Names already there do not count again, so re-sending all of them passes at the cap.
        await s.addLogNames(org, run.id, [entry('a'), entry('b'), entry('c')], T0, 3);
        await s.addLogNames(org, run.id, [entry('a'), entry('b'), entry('c')], T0, 3);
        expect(await s.logNameStats(run.id)).toEqual({ count: 3, bytes: 3 * (1 + 0 + 6) });
      }),
    );
  });
}
