import fs from 'node:fs';

/** Times `fn` `n` times (after `warm` warm-up calls); returns milliseconds per call. */
export async function timeCalls(n: number, fn: () => Promise<unknown>, warm = 2): Promise<number[]> {
  for (let i = 0; i < warm; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** The q-quantile (0..1) of the samples, nearest rank. */
export function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** "p50 x ms, p95 y ms" of samples. */
export const p50p95 = (s: readonly number[]): string =>
  `p50 ${quantile(s, 0.5).toFixed(2)} ms, p95 ${quantile(s, 0.95).toFixed(2)} ms`;

/** Resident set size of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system, all threads) a process has used so far, in ms; NaN when unreadable. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const CLOCK_TICKS = 100;
