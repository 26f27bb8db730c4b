/** A real HTTP receiver of webhooks on loopback, answering from a script of status codes. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  headers: Record<string, string>;
  body: string;
  json: Record<string, unknown>;
  at: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  received: Received[];
  /** The statuses the next requests are answered with, in order (200 once they run out). */
  answers: number[];
  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a free port. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // recorded as text only
      }
      received.push({ headers: req.headers as Record<string, string>, body, json, at: Date.now() });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answers,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`got ${received.length} of ${count} webhook requests`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
