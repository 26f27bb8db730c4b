import { expect, it } from 'vitest';
import type { App } from '../../src/api/app-types.js';
import type { Project } from '../../src/api/schemas/projects.js';
import type { RunDetails, RunRef } from '../../src/api/schemas/runs.js';
import type { StatusEvent } from '../../src/api/schemas/status-events.js';
import { call, type Reply, type TestApp } from './test-app.js';

/** The response must be a 200; otherwise the test fails showing the body. */
function ok(res: Reply, what: string): Reply['body'] {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** POST /api/runs/create that must succeed. */
export async function createRun(app: App, key: string, body: Record<string, unknown>): Promise<RunRef> {
  return ok(await call(app, 'POST', '/api/runs/create', key, body), 'create') as unknown as RunRef;
}

/**
 * make(0) … make(count - 1), ten at a time (started in index order), their results in index
 * order: seeding hundreds of runs waits on one request at a time otherwise (on PostgreSQL
 * each is several round trips, which the pool's connections answer side by side).
 */
export async function tenAtATime<T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += 10) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, k) => make(i + k)))));
  }
  return out;
}

/** GET /api/runs/details/{runId} that must succeed. */
export async function getDetails(app: App, key: string, runId: number): Promise<RunDetails> {
  return ok(await call(app, 'GET', `/api/runs/details/${runId}`, key), 'details') as unknown as RunDetails;
}

/** GET /api/runs/status/history?runId= that must succeed; returns the events. */
export async function getHistory(app: App, key: string, runId: number): Promise<StatusEvent[]> {
  const body = ok(await call(app, 'GET', `/api/runs/status/history?runId=${runId}`, key), 'history');
  expect(body.runId).toBe(runId);
  return body.events as StatusEvent[];
}

/** GET /api/runs/projects that must succeed; returns the projects. */
export async function listProjects(app: App, key: string): Promise<Project[]> {
  return ok(await call(app, 'GET', '/api/runs/projects', key), 'projects').projects as Project[];
}

/** POST /api/runs/status/update that must answer {success: true}. */
export async function setStatus(
  app: App,
  key: string,
  runId: number,
  status: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const body = ok(
    await call(app, 'POST', '/api/runs/status/update', key, { runId, status, ...extra }),
    'status/update',
  );
  expect(body).toEqual({ success: true });
}

/** A POST to one of the `{success: true}` update endpoints that must succeed. */
export async function update(app: App, key: string, url: string, body: Record<string, unknown>): Promise<void> {
  expect(ok(await call(app, 'POST', url, key, body), url)).toEqual({ success: true });
}

/** Checks the error shape of docs/api.md §1.6: the status, a string `error` and an UPPER_SNAKE `code`. */
export function expectError(res: Reply, status: number, code?: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(typeof res.body.error, JSON.stringify(res.body)).toBe('string');
  expect(res.body.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
  if (code !== undefined) expect(res.body.code).toBe(code);
}

/** One API scenario of a table: a request and what it must be answered with. */
export interface Scenario {
  /** A sentence that names the behaviour. */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path, or a function giving it when the test runs (for fixtures made before each test). */
  url: string | (() => string);
  /** The JSON body; a function is called when the test runs (for fixtures made before each test). */
  body?: unknown;
  status: number;
  /** Error code the answer must carry (error answers). */
  code?: string;
  /** Fields the answer body must contain (toMatchObject). */
  expected?: Record<string, unknown>;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Sends the key of the other organization instead of the test's own. */
  asOther?: boolean;
}

/** The app and the two organizations' keys that scenarios are sent with. */
export type ScenarioApp = Pick<TestApp, 'app' | 'key' | 'otherKey'>;

/** Sends one scenario's request and checks status, error shape and expected fields; returns the answer. */
async function runScenario(t: ScenarioApp, s: Scenario): Promise<Reply> {
  const url = typeof s.url === 'function' ? s.url() : s.url;
  const body: unknown = typeof s.body === 'function' ? (s.body as () => unknown)() : s.body;
  const res = await call(t.app, s.method, url, s.asOther ? t.otherKey : t.key, body, s.headers);
  if (s.status >= 400) expectError(res, s.status, s.code);
  else expect(res.status, `${s.method} ${url}: ${JSON.stringify(res.body)}`).toBe(s.status);
  if (s.expected !== undefined) expect(res.body).toMatchObject(s.expected);
  return res;
}

/** A row maker for a table whose requests share a method and url: `row(name, body, status, code?)`. */
export function scenarioRows(
  method: Scenario['method'],
  url: Scenario['url'],
): (name: string, body: unknown, status: number, code?: string) => Scenario {
  return (name, body, status, code) => ({ name, method, url, body, status, code });
}

/**
 * One test per scenario, named by it. `before` runs ahead of the request; `after` checks what
 * must hold once it is answered (nothing stored, the fixture untouched). `t` is read when the
 * tests run, so a useTestApp object whose keys change before each test is right; an app made
 * in a beforeAll is given as a function.
 */
export function itScenarios(
  t: ScenarioApp | (() => ScenarioApp),
  scenarios: Scenario[],
  hooks: { before?: () => Promise<unknown>; after?: (res: Reply) => Promise<void> | void } = {},
): void {
  for (const s of scenarios) {
    it(s.name, async () => {
      await hooks.before?.();
      const res = await runScenario(typeof t === 'function' ? t() : t, s);
      await hooks.after?.(res);
    });
  }
}

/** Waits ms milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
