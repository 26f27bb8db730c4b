/**
 * Large reads against a spawned server while its health is polled: a GET whose answer is
 * counted as it streams in (never held whole unless asked), the slowest /api/health answer
 * meanwhile, and the server's memory from /proc.
 */
import fs from 'node:fs';
import { expect } from 'vitest';

/** What a streamed GET of GET /api/runs/metrics (or any JSON answer) brought. */
export interface StreamedRead {
  status: number;
  headers: Headers;
  bytes: number;
  ms: number;
  /** Occurrences of `"logName":"…"` (one per metric point) and the distinct names among them. */
  points: number;
  names: number;
  /** The first and last 64 characters of the answer. */
  head: string;
  tail: string;
  /** The whole answer, only when asked for (keepText). */
  text: string;
}

const NAME = /"logName":"([^"\\]*)"/g;

/**
 * GETs `url` with a bearer key and reads the answer as it arrives, counting metric points and
 * distinct logNames across chunk boundaries; holds the text only with `keepText`.
 */
export async function streamedGet(base: string, key: string, url: string, keepText = false): Promise<StreamedRead> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(300_000),
  });
  const decoder = new TextDecoder();
  const seen = new Set<string>();
  let [bytes, points, head, carry, text] = [0, 0, '', '', ''];
  for await (const chunk of res.body ?? []) {
    bytes += (chunk as Uint8Array).length;
    const piece = decoder.decode(chunk as Uint8Array, { stream: true });
    if (keepText) text += piece;
    if (head.length < 64) head = (head + piece).slice(0, 64);
    const scanned = carry + piece;
    let end = 0;
    for (const m of scanned.matchAll(NAME)) {
      points++;
      seen.add(m[1]!);
      end = m.index + m[0].length;
    }
    // A match cut by the chunk's end starts in the last characters: scan them again.
    carry = scanned.slice(Math.max(end, scanned.length - 128));
  }
  const rest = decoder.decode();
  if (keepText) text += rest;
  const tail = (carry + rest).slice(-64);
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    ms: performance.now() - started,
    points,
    names: seen.size,
    head,
    tail,
    text,
  };
}

/**
 * Runs `work` (and waits at least minMs) while polling `${base}/api/health` back to back;
 * returns its result, the slowest health answer in ms and the number of health answers.
 */
export async function whileHealthPolled<T>(
  base: string,
  work: () => Promise<T>,
  minMs = 0,
): Promise<{ result: T; worstMs: number; polls: number }> {
  let done = false;
  let worstMs = 0;
  let polls = 0;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      worstMs = Math.max(worstMs, performance.now() - started);
      polls++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const waited = new Promise((r) => setTimeout(r, minMs));
  const result = await work().finally(() => waited.then(() => (done = true)));
  await poller;
  return { result, worstMs, polls };
}

/** A figure of /proc/<pid>/status in MB: VmRSS (now) or VmHWM (the peak since start or resetPeakRss). */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
}

/** Resets the process's VmHWM to its current RSS (Linux clear_refs 5); false when not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Asserts a read (streamedGet with keepText) was refused before anything was sent: a whole
 * 400 RESULT_TOO_LARGE answer with its Content-Length, naming the bound, logName and logGroup.
 */
export function expectRefusedWhole(read: StreamedRead, bound: number): void {
  expect(read.status, read.head).toBe(400);
  expect(read.headers.get('content-length')).toBe(String(read.bytes));
  const body = JSON.parse(read.text) as { error: string; code: string };
  expect(body.code).toBe('RESULT_TOO_LARGE');
  expect(body.error).toContain(String(bound));
  expect(body.error).toContain('logName');
  expect(body.error).toContain('logGroup');
}
