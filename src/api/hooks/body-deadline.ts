/**
 * Request bodies must keep arriving. A body gets `timeoutMs`, plus one second for every
 * `minRate` bytes it has delivered (Apache's mod_reqtimeout `body=T,MinRate=R` rule): a fast
 * upload of any size finishes, while a body that trickles or stalls is answered 408 and its
 * connection closed once it falls behind, giving back its admission and its socket.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { chargeReceived } from './ingest-admission.js';

export interface BodyDeadlineLimits {
  /** The time a body gets before its bytes earn more; 0 turns the deadline off. */
  timeoutMs: number;
  /** Bytes per second that earn one more second. */
  minRate: number;
}

/** How long after a missed deadline a connection whose reply never started is dropped. */
const GRACE_MS = 1000;
/** How long the rest of a body answered early is read and dropped before the connection is closed. */
const LINGER_MS = 2000;

/** Closes the request's connection (in-process requests of `inject()` have none to close). */
const dropConnection = (request: FastifyRequest): void => {
  const socket = request.raw.socket as { destroy?: unknown } | null;
  if (typeof socket?.destroy === 'function') request.raw.socket.destroy();
};

/** True when the request announces a body (a positive Content-Length, or Transfer-Encoding). */
export const announcesBody = (headers: IncomingHttpHeaders): boolean =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > 0;

/** The request body as it arrives: counts its bytes, charges admission, fails when late. */
class WatchedBody extends Transform {
  /** Read by Fastify's body parser to enforce the body limit. */
  receivedEncodedLength = 0;
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly limits: BodyDeadlineLimits,
  ) {
    super();
    this.on('error', () => {}); // reported to whoever reads the body; never an uncaught error
    if (limits.timeoutMs > 0) this.arm(limits.timeoutMs);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), ms);
    this.timer.unref();
  }

  private check(): void {
    const allowed = this.limits.timeoutMs + (this.receivedEncodedLength * 1000) / this.limits.minRate;
    const late = Date.now() - this.started;
    if (late < allowed) return this.arm(Math.ceil(allowed - late));
    const seconds = Math.round(late / 1000);
    void this.reply.header('connection', 'close');
    this.destroy(
      new AppError(
        'REQUEST_TIMEOUT',
        `the request body did not arrive in time (${this.receivedEncodedLength} bytes in ${seconds} s)`,
      ),
    );
    // Whoever reads the body answers 408; if nobody does, the connection is dropped.
    setTimeout(() => {
      if (!this.reply.sent) dropConnection(this.request);
    }, GRACE_MS).unref();
  }

  /** Stops the clock (the body is complete, or the exchange is over). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    if (!chargeReceived(this.request.raw, chunk.length)) {
      void this.reply.header('connection', 'close');
      return callback(
        new AppError('OVERLOADED', 'the server is saturated with writes; retry after the Retry-After delay'),
      );
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.stop();
    callback();
  }
}

/**
 * After an answer sent before its request body was complete (a 413 on the declared length, a
 * 409, a 503 at admission), reads and drops the rest of the body for a short while, so the
 * client, still sending, can read the answer instead of a reset; then closes the connection
 * if the body still has not ended (nginx's lingering close).
 */
function lingerThenClose(request: FastifyRequest, reply: FastifyReply): void {
  reply.raw.once('finish', () => {
    const raw = request.raw;
    if (raw.complete) return;
    const timer = setTimeout(() => dropConnection(request), LINGER_MS);
    timer.unref();
    raw.once('end', () => clearTimeout(timer));
    raw.once('close', () => clearTimeout(timer));
    raw.unpipe();
    raw.resume();
  });
}

/**
 * Puts every request body of `app` under the deadline, and ends the exchange of any answer
 * sent before its body was complete: at once after a 408 or an overload (they carry
 * `connection: close`), after a short lingering read otherwise (an unread body would keep
 * the connection, and its sender, around for good).
 */
export function installBodyDeadline(app: FastifyInstance, limits: BodyDeadlineLimits): void {
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!announcesBody(request.headers)) return done(null, payload);
    const watched = new WatchedBody(request, reply, limits);
    reply.raw.once('close', () => watched.stop());
    payload.on('error', (err) => watched.destroy(err));
    done(null, payload.pipe(watched));
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (announcesBody(request.headers) && !request.raw.complete && reply.getHeader('connection') === undefined) {
      lingerThenClose(request, reply);
    }
    done(null, payload);
  });
}
