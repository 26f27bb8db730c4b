/**
 * A connection flood from a child process (its sockets count against its own descriptor
 * limit, not the test's): opens `count` connections to 127.0.0.1:port from 127.0.0.1, a few
 * hundred handshakes at a time; every other one sends half a request line and then trickles
 * a header byte a second, the rest send nothing. It holds whatever the server keeps open.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import readline from 'node:readline';

/** The flood's progress: handshakes completed, connections still open, connect errors. */
export interface FloodCounts {
  opened: number;
  open: number;
  failed: number;
}

/** A running flood. */
export interface Flood {
  /** Settles once every connection was attempted, with the counts a second later. */
  attempted: Promise<FloodCounts>;
  /** The latest counts the child reported (every 500 ms). */
  counts(): FloodCounts;
  /** Kills the child (its sockets close with it). */
  stop(): Promise<void>;
}

const CHILD = `
const net = require('node:net');
const [port, count, pending] = process.argv.slice(1).map(Number);
const c = { opened: 0, open: 0, failed: 0 };
const tricklers = new Set();
const report = (kind) => process.stdout.write(JSON.stringify({ kind, ...c }) + '\\n');
function one(i) {
  return new Promise((resolve) => {
    // No bind(): a bound source port is taken for every destination, and fewer than 20,000 are free.
    const s = net.connect({ port, host: '127.0.0.1' });
    let up = false;
    s.on('connect', () => {
      up = true; c.opened++; c.open++;
      if (i % 2 === 1) { s.write('GET /api/health HTTP/1.1\\r\\nX-Pad: '); tricklers.add(s); }
      resolve();
    });
    s.on('error', () => {});
    s.on('close', () => { tricklers.delete(s); if (up) c.open--; else { c.failed++; resolve(); } });
  });
}
setInterval(() => { for (const s of tricklers) s.write('a'); }, 1000);
setInterval(() => report('progress'), 500);
(async () => {
  let next = 0;
  const lane = async () => { while (next < count) await one(next++); };
  await Promise.all(Array.from({ length: pending }, lane));
  setTimeout(() => report('attempted'), 1000);
})();
`;

/** Starts the flood: `count` connections, at most `pending` handshakes in flight. */
export function startFlood(port: number, count: number, pending = 200): Flood {
  const child = spawn(process.execPath, ['-e', CHILD, String(port), String(count), String(pending)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let latest: FloodCounts = { opened: 0, open: 0, failed: 0 };
  const attempted = new Promise<FloodCounts>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the flood exited (${code}) before it was done`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const { kind, ...counts } = JSON.parse(line) as FloodCounts & { kind: string };
      latest = counts;
      if (kind === 'attempted') resolve(counts);
    });
  });
  attempted.catch(() => {});
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    attempted,
    counts: () => latest,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** One GET on a fresh connection from `localAddress`: its status (0 for a network error) and time. */
export function getFrom(
  localAddress: string,
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; ms: number; error?: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, localAddress, headers, agent: false, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ status: 0, ms: performance.now() - started, error: err.code ?? err.message }),
    );
  });
}
