import { isUtf8 } from 'node:buffer';
import { AppError, type ErrorCode } from '../errors.js';

/**
 * The text of a request body; throws `code` (a 400) when the bytes are not valid UTF-8, so
 * broken bytes are refused instead of being stored as U+FFFD.
 */
export function utf8Text(body: Buffer, code: ErrorCode = 'BAD_REQUEST'): string {
  if (!isUtf8(body)) throw new AppError(code, 'body is not valid UTF-8');
  return body.toString('utf8');
}
