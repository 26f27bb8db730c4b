/**
 * The dashboard's one door to the server: JSON over the public HTTP API, authenticated by
 * the session cookie (same origin). Errors arrive as ApiError with the server's stable code.
 */

/** A non-2xx answer: the HTTP status and the server's `{error, code}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Query-string values: undefined and empty arrays are left out; arrays join with commas. */
export type QueryParams = Record<string, string | number | boolean | undefined | readonly (string | number)[]>;

/** `path?query` with undefined values skipped. */
export function withQuery(path: string, params: QueryParams = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) search.set(key, value.join(','));
    } else search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  priority?: RequestPriority,
): Promise<T> {
  const response = await fetch(path, {
    method,
    signal,
    priority,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const problem = (parsed ?? {}) as { error?: unknown; code?: unknown };
    const message = typeof problem.error === 'string' ? problem.error : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, typeof problem.code === 'string' ? problem.code : 'HTTP_ERROR', message);
  }
  return parsed as T;
}

/**
 * GET a JSON answer; throws ApiError on a non-2xx status. `priority: 'low'` lets what a person
 * just asked for (a re-sorted table) take the browser's next free connection before it.
 */
export const apiGet = <T>(
  path: string,
  params?: QueryParams,
  signal?: AbortSignal,
  priority?: RequestPriority,
): Promise<T> => request<T>('GET', withQuery(path, params), undefined, signal, priority);

/** POST a JSON body; throws ApiError on a non-2xx status. */
export const apiPost = <T>(path: string, body: unknown): Promise<T> => request<T>('POST', path, body);

/** PATCH a JSON body; throws ApiError on a non-2xx status. */
export const apiPatch = <T>(path: string, body: unknown): Promise<T> => request<T>('PATCH', path, body);

/** DELETE; throws ApiError on a non-2xx status. */
export const apiDelete = <T>(path: string): Promise<T> => request<T>('DELETE', path);

/** True when an error means "not signed in". */
export const isUnauthorized = (error: unknown): boolean => error instanceof ApiError && error.status === 401;
