import type { FastifyInstance } from 'fastify';
import { jsonValueProblem } from '../../domain/json-field.js';
import { LONE_SURROGATE_RULE } from '../../domain/unicode-text.js';
import { AppError } from '../../errors.js';

/**
 * A `\uD800`-`\uDFFF` escape in JSON text. Bodies must be valid UTF-8, so an escape is the
 * only way a lone surrogate reaches a parsed body; text without one needs no walk.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Runs of percent-encoded bytes in a URL. */
const PERCENT_BYTES = /(?:%[0-9a-fA-F]{2})+/g;

/**
 * The 400 for a parsed JSON body that holds a lone surrogate anywhere (value or key), or
 * undefined. Only walks the value when `jsonText` has a surrogate escape.
 */
export function loneSurrogateError(jsonText: string, value: unknown): AppError | undefined {
  if (!SURROGATE_ESCAPE.test(jsonText) || jsonValueProblem(value, Infinity) === undefined) return undefined;
  return new AppError('BAD_REQUEST', `text in the body must not contain ${LONE_SURROGATE_RULE}`);
}

/** True when every run of percent-encoded bytes in the text decodes as UTF-8. */
function decodesAsUtf8(text: string): boolean {
  try {
    for (const match of text.matchAll(PERCENT_BYTES)) decodeURIComponent(match[0]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses with a 400, before routing, a query string whose percent-encoding is not UTF-8
 * (`%ED%A0%80` is how a lone surrogate would be sent), instead of using it as literal text.
 */
export function installQueryUtf8Guard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const q = request.url.indexOf('?');
    const bad = q >= 0 && request.url.includes('%', q) && !decodesAsUtf8(request.url.slice(q + 1));
    done(bad ? new AppError('BAD_REQUEST', 'the query string must be percent-encoded UTF-8') : undefined);
  });
}
