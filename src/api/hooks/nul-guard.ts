import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

/** A `\u0000` escape in JSON text (an even run of backslashes before it would make it literal text). */
const ESCAPED_NUL = /(?<!\\)(?:\\\\)*\\u0000/i;

/**
 * True when JSON text encodes a U+0000 character. Text cannot hold U+0000 on every
 * engine (PostgreSQL refuses it), so bodies carrying one are refused the same way everywhere.
 */
export const hasNulEscape = (jsonText: string): boolean => jsonText.includes('u0000') && ESCAPED_NUL.test(jsonText);

/** The 400 for a body or URL carrying U+0000. */
export const nulError = (where: string): AppError =>
  new AppError('BAD_REQUEST', `${where} must not contain the NUL character (U+0000)`);

/** Refuses any URL (path or query) containing an encoded NUL (`%00`) with a 400, before routing. */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.url.includes('%00') ? nulError('the URL') : undefined);
  });
}
