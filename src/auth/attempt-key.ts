import { createHash } from 'node:crypto';
import type { AttemptKey } from '../store/metadata-store.js';

/** A limit's key as stored: the sha256 (hex) of the account or address, never the value itself. */
export const attemptKey = (kind: string, value: string): AttemptKey => ({
  kind,
  key: createHash('sha256').update(value).digest('hex'),
});

/**
 * Keys a kind of limit counts at most (rows of attempt_counts, swept once their window
 * ended): past it a new account or address is not counted (sign-in) or refused (registration).
 */
export const MAX_KEYS = 100_000;
