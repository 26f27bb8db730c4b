/**
 * Bidirectional controls in names (issue 25, finding 6): U+202E and its kin are invisible
 * and reorder the text around them (`a\u202Eb` shows as `ab` backwards), so a key name or a
 * new project name holding one is a 400 {error, code} and nothing is created.
 */
import { describe, expect, it } from 'vitest';
import { expectError, listProjects } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';

const t = useTestApp();

const CONTROLS: [string, string][] = [
  ['U+202E (right-to-left override)', '\u202e'],
  ['U+202A (left-to-right embedding)', '\u202a'],
  ['U+2066 (left-to-right isolate)', '\u2066'],
  ['U+2069 (pop directional isolate)', '\u2069'],
  ['U+200F (right-to-left mark)', '\u200f'],
  ['U+061C (Arabic letter mark)', '\u061c'],
];

describe('bidirectional controls in names', () => {
  it.each(CONTROLS)('a key name with %s is a 400 and creates no key', async (_label, control) => {
    const before = (await call(t.app, 'GET', '/api/keys', t.key)).body.keys as unknown[];
    const res = await call(t.app, 'POST', '/api/keys', t.key, { name: `a${control}b` });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error).toMatch(/^name must not contain bidirectional control characters/);
    expect((await call(t.app, 'GET', '/api/keys', t.key)).body.keys).toHaveLength(before.length);
  });

  it.each(CONTROLS)('a new projectName with %s is a 400 and creates no project', async (_label, control) => {
    const res = await call(t.app, 'POST', '/api/runs/create', t.key, { runName: 'r', projectName: `a${control}b` });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error).toMatch(/^projectName must not contain bidirectional control characters/);
    expect(await listProjects(t.app, t.key)).toEqual([]);
  });

  it('names in right-to-left scripts, without controls, are accepted', async () => {
    const key = await call(t.app, 'POST', '/api/keys', t.key, { name: 'מפתח' });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const run = await call(t.app, 'POST', '/api/runs/create', t.key, { runName: 'r', projectName: 'مشروع' });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
  });
});
