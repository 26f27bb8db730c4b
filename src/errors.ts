/**
 * Errors are values with stable codes. Stores, domain and ingest code throw AppError;
 * the HTTP error handler maps `code` to a status with HTTP_STATUS and writes {error, code}.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION_FAILED'
  | 'INVALID_JSON'
  | 'RESULT_TOO_LARGE'
  | 'QUERY_TIMEOUT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'CROSS_ORIGIN'
  | 'FORBIDDEN_ROLE'
  | 'INSUFFICIENT_SCOPE'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'REQUEST_TIMEOUT'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'OVERLOADED'
  | 'INSUFFICIENT_STORAGE'
  | 'INTERNAL';

/** The HTTP status each error code is answered with. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  RESULT_TOO_LARGE: 400,
  // 400 like RESULT_TOO_LARGE: the remedy is a narrower request. A 503 would carry
  // Retry-After and invite clients to send the same costly search again every second.
  QUERY_TIMEOUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CROSS_ORIGIN: 403,
  /** The requester's role (its user's, narrowed by its key's) is too narrow for the request. */
  FORBIDDEN_ROLE: 403,
  /** An OAuth access token lacks the scope the request needs (runs:read, runs:write; docs/api.md §17). */
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  /** The path exists but not for this method (GET and DELETE /mcp: the endpoint is stateless). */
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  OVERLOADED: 503,
  /** The disk (or database) is full: the write was not stored. */
  INSUFFICIENT_STORAGE: 507,
  INTERNAL: 500,
};

/** An error a client can be told about: a sentence plus a stable code. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Shorthand constructors, so call sites read as sentences. */
export const badRequest = (message: string): AppError => new AppError('BAD_REQUEST', message);
export const notFound = (message: string): AppError => new AppError('NOT_FOUND', message);
export const conflict = (message: string): AppError => new AppError('CONFLICT', message);
export const unauthorized = (message: string): AppError => new AppError('UNAUTHORIZED', message);
export const forbidden = (message: string): AppError => new AppError('FORBIDDEN', message);
export const forbiddenRole = (message: string): AppError => new AppError('FORBIDDEN_ROLE', message);
export const insufficientScope = (message: string): AppError => new AppError('INSUFFICIENT_SCOPE', message);
/** A read whose answer would exceed the per-response bound; the message says how to narrow it. */
export const resultTooLarge = (message: string): AppError => new AppError('RESULT_TOO_LARGE', message);
/** A read stopped at its deadline (STEPWISE_QUERY_TIMEOUT, `ms`); the message asks for a narrower one. */
export const queryTimeout = (ms: number): AppError =>
  new AppError(
    'QUERY_TIMEOUT',
    `the search was stopped after ${ms} ms, its time limit; narrow it (fewer conditions, fewer $regex, a more specific filter or search) and try again`,
  );
/** A read that waited its whole deadline (`ms`) for a free reader while others ran: retry later. */
export const readersBusy = (ms: number): AppError =>
  new AppError(
    'OVERLOADED',
    `the server's search readers were busy for ${ms} ms, this search's time limit; retry later`,
  );
