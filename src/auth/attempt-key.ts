import { createHash } from 'node:crypto';
import type { AttemptKey } from '../store/metadata-store.js';

/** A limit's key as stored: the sha256 (hex) of the account or address, never the value itself. */
export const attemptKey = (kind: string, value: string): AttemptKey => ({
  kind,
  key: createHash('sha256').update(value).digest('hex'),
});
