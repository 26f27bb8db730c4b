/** A small fetch wrapper for tests against a spawned server over real HTTP. */

export interface HttpAnswer {
  status: number;
  /** The body parsed as JSON, or `{raw: text}` when it is not JSON. */
  body: Record<string, unknown>;
  headers: Headers;
}

export interface HttpOptions {
  key?: string;
  /** Sent as JSON with content-type application/json. */
  json?: unknown;
  /** Sent as is (set content-type in headers). */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Aborts after this long (default 30 s). */
  timeoutMs?: number;
}

/** A fetch body from text or bytes (bytes are copied into a fresh Uint8Array). */
export const toBody = (b: string | Buffer | undefined): string | Uint8Array<ArrayBuffer> | undefined =>
  b === undefined || typeof b === 'string' ? b : new Uint8Array(b);

/**
 * One request to `base + url`; resolves with the answer, rejects on a network error or
 * timeout (the request's fate is then unknown to the caller).
 */
export async function http(base: string, method: string, url: string, o: HttpOptions = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key !== undefined) headers.authorization = `Bearer ${o.key}`;
  if (o.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${url}`, {
    method,
    headers,
    body: o.json !== undefined ? JSON.stringify(o.json) : toBody(o.body),
    signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    body = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    body = { raw: text };
  }
  return { status: res.status, body, headers: res.headers };
}

/** An ingest POST as the Python client sends it: NDJSON with X-Run-Id and X-Project-Name. */
export function ingestHttp(
  base: string,
  key: string,
  kind: 'metrics' | 'logs' | 'data',
  runId: number,
  projectName: string,
  ndjson: string,
  timeoutMs?: number,
): Promise<HttpAnswer> {
  return http(base, 'POST', `/ingest/${kind}`, {
    key,
    body: ndjson,
    headers: { 'content-type': 'application/x-ndjson', 'x-run-id': String(runId), 'x-project-name': projectName },
    timeoutMs,
  });
}

/** Waits ms milliseconds. */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
