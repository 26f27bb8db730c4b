/**
 * How the error handler logs: a 503 (overloaded) is expected behaviour and is logged as a
 * warning with its code and reason and no stack; a full disk or database (whichever store
 * says so) is a 507 INSUFFICIENT_STORAGE, logged once per episode as a warning; an
 * unexpected error stays a 500 logged as an error with its stack. The log stream is captured
 * from pino itself.
 */
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BackgroundWriteFailed, installErrorHandlers } from '../../../src/api/hooks/error-handler.js';
import { AppError } from '../../../src/errors.js';

interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
  [field: string]: unknown;
}

const WARN = 40;
const ERROR = 50;

let lines: LogLine[];
let app: FastifyInstance;
let backgroundWriteFailed: BackgroundWriteFailed;
beforeEach(async () => {
  lines = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text !== '') lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  app = Fastify({ logger: { level: 'info', stream }, disableRequestLogging: true });
  backgroundWriteFailed = installErrorHandlers(app);
  app.get('/overloaded', () => {
    throw new AppError('OVERLOADED', 'the server is saturated with writes; retry after the Retry-After delay');
  });
  app.get('/broken', () => {
    throw new Error('a bug');
  });
  app.post('/full/:code', (request) => {
    const { code } = request.params as { code: string };
    throw Object.assign(new Error(`storage said ${code}`), { code });
  });
  app.post('/wrapped', () => {
    throw new Error('upload failed', { cause: Object.assign(new Error('write'), { code: 'ENOSPC' }) });
  });
  app.post('/stored', () => ({ ok: true }));
  await app.ready();
});
afterEach(async () => {
  await app.close();
});

describe('logging of failed requests', () => {
  it('a 503 is logged once as a warning with its code and reason and without a stack', async () => {
    const res = await app.inject({ method: 'GET', url: '/overloaded' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: WARN, code: 'OVERLOADED', reason: expect.stringMatching(/saturated/) });
    expect(line).not.toHaveProperty('err');
    expect(JSON.stringify(line)).not.toMatch(/\n\s+at /);
  });

  it('an unexpected error is a 500 logged as an error with its stack', async () => {
    const res = await app.inject({ method: 'GET', url: '/broken' });
    expect(res.statusCode).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: ERROR, msg: 'request failed' });
    expect(lines[0]!.err?.stack).toMatch(/a bug\n\s+at /);
  });
});

describe('a full disk or database', () => {
  const FULL = { error: expect.stringMatching(/^the server’s storage is full/), code: 'INSUFFICIENT_STORAGE' };

  it.each([
    ['SQLITE_FULL', 'SQLite'],
    ['53100', 'PostgreSQL (disk_full)'],
    ['ENOSPC', 'the file system'],
    ['EDQUOT', 'a disk quota'],
  ])('%s from %s is a 507 INSUFFICIENT_STORAGE with a sentence', async (code) => {
    const res = await app.inject({ method: 'POST', url: `/full/${code}` });
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual(FULL);
  });

  it('is recognised inside the error that wraps it', async () => {
    const res = await app.inject({ method: 'POST', url: '/wrapped' });
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual(FULL);
  });

  it('another store error stays a 500', async () => {
    const res = await app.inject({ method: 'POST', url: '/full/SQLITE_BUSY' });
    expect(res.statusCode).toBe(500);
  });

  it('is logged once per episode as a warning without a stack; a stored write ends the episode', async () => {
    for (let i = 0; i < 5; i++)
      expect((await app.inject({ method: 'POST', url: '/full/ENOSPC' })).statusCode).toBe(507);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: WARN, code: 'INSUFFICIENT_STORAGE' });
    expect(lines[0]).not.toHaveProperty('err');
    expect((await app.inject({ method: 'POST', url: '/stored' })).statusCode).toBe(200);
    expect(lines[1]).toMatchObject({ level: 30, msg: expect.stringMatching(/room again/) });
    await app.inject({ method: 'POST', url: '/full/SQLITE_FULL' });
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ level: WARN, code: 'INSUFFICIENT_STORAGE' });
  });

  it('background writes that fail for want of space join the episode instead of logging a stack each', async () => {
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    for (let i = 0; i < 5; i++) backgroundWriteFailed(full, 'could not record key use');
    expect((await app.inject({ method: 'POST', url: '/full/ENOSPC' })).statusCode).toBe(507);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: WARN, code: 'INSUFFICIENT_STORAGE' });
    expect(lines[0]).not.toHaveProperty('err');
    backgroundWriteFailed(Object.assign(new Error('locked'), { code: 'SQLITE_BUSY' }), 'could not record key use');
    expect(lines[1]).toMatchObject({ level: WARN, msg: 'could not record key use' });
    expect(lines[1]!.err?.stack).toMatch(/locked\n\s+at /);
  });
});
