/**
 * Which metric series keep a point per (step, time) instead of one per step (docs/api.md
 * §4.2): the `sys/` group, whose samples the pluto client sends all at step 0.
 */

/** True when the logName's points are keyed by (step, time): it starts with `sys/`. */
export function keyedByTime(logName: string): boolean {
  return logName.startsWith('sys/');
}

/**
 * Returns the second part of a point's order key: its time in a series keyed by time, else 0
 * (one point per step: the step alone orders and identifies it).
 */
export function tieOf(byTime: boolean, time: number): number {
  return byTime ? time : 0;
}

/** Compares two (step, tie) keys: negative, zero or positive. */
export function compareKeys(stepA: number, tieA: number, stepB: number, tieB: number): number {
  return stepA !== stepB ? stepA - stepB : tieA - tieB;
}
