/** One HTTP POST of a webhook delivery to an address that was checked (address-guard.ts). */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './address-guard.js';

/** What one attempt got: the response status, or the error that stopped it. */
export interface SendResult {
  statusCode: number | null;
  error: string | null;
}

/** The most response body bytes read (and thrown away) before the connection is let go. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs `body` to the target, connecting to its checked address (TLS still verifies the
 * URL's host name), without following redirects. Resolves with the status, or with the
 * error when there was no answer within `timeoutMs` (the whole attempt) or no connection.
 */
export function sendWebhook(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const { url } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Stepwise-Webhooks/1',
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) finish({ statusCode: response.statusCode ?? null, error: null });
        });
        response.on('end', () => finish({ statusCode: response.statusCode ?? null, error: null }));
        response.on('error', (err) => finish({ statusCode: response.statusCode ?? null, error: err.message }));
      },
    );
    const timer = setTimeout(() => finish({ statusCode: null, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    request.on('error', (err) => finish({ statusCode: null, error: err.message }));
    request.end(body);
  });
}
