import type { RunStatus, StatusSource } from './types.js';

/** Terminal statuses by precedence: a higher one is never replaced by a lower one via `api`. */
const PRECEDENCE: Partial<Record<RunStatus, number>> = {
  COMPLETED: 1,
  TERMINATED: 2,
  CANCELLED: 3,
  FAILED: 4,
};

/** True for the statuses a run ends in. */
export const isTerminal = (status: RunStatus): boolean => PRECEDENCE[status] !== undefined;

/**
 * What a status write does to a run currently in `current`:
 * - `ignore`: a lower terminal status over a higher one by `api`; nothing changes at all;
 * - `same`: the status is unchanged; no event, but metadata/settings may be stored;
 * - `transition`: the status changes and an event is recorded.
 */
export function decideStatusWrite(
  current: RunStatus,
  next: RunStatus,
  source: StatusSource,
): 'ignore' | 'same' | 'transition' {
  if (current === next) return 'same';
  const from = PRECEDENCE[current];
  const to = PRECEDENCE[next];
  if (source === 'api' && from !== undefined && to !== undefined && to < from) return 'ignore';
  return 'transition';
}
