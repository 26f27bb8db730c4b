import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

export interface AdmissionLimits {
  /** Requests admitted at once. */
  maxInFlight: number;
  /** Declared body bytes admitted at once; a request arriving when none is in flight always passes. */
  maxInFlightBytes: number;
  /** What a body without Content-Length is counted as (the body limit: it may grow that large). */
  unknownLength: number;
}

/**
 * Admission control for a write path: a counter of requests and declared bytes in flight.
 * O(1) per request, no allocation; single-threaded, so no lock is needed.
 */
export class Admission {
  private inFlight = 0;
  private bytes = 0;
  /** Requests refused so far (for tests and logs). */
  refused = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  /** Admits a request of `bytes` declared bytes and returns true, or returns false (nothing reserved). */
  tryAdmit(bytes: number): boolean {
    const { maxInFlight, maxInFlightBytes } = this.limits;
    if (this.inFlight > 0 && (this.inFlight >= maxInFlight || this.bytes + bytes > maxInFlightBytes)) {
      this.refused++;
      return false;
    }
    this.inFlight++;
    this.bytes += bytes;
    return true;
  }

  /** Gives back what tryAdmit reserved for one request. */
  release(bytes: number): void {
    this.inFlight--;
    this.bytes -= bytes;
  }

  /** Requests and bytes currently admitted. */
  usage(): { inFlight: number; bytes: number } {
    return { inFlight: this.inFlight, bytes: this.bytes };
  }
}

/**
 * Guards every route of `scope` with the admission counter: checked after authentication
 * and before the body is read, so a saturated server refuses work with 503 and
 * `Retry-After` instead of buffering bodies it cannot write yet. The reservation is
 * returned when the response ends or the connection closes.
 */
export function installAdmission(scope: FastifyInstance, admission: Admission, limits: AdmissionLimits): void {
  scope.addHook('onRequest', (request, reply, done) => {
    const declared = Number(request.headers['content-length']);
    // A declared length over the body limit is answered 413 before any byte is read: not counted.
    const known = Number.isSafeInteger(declared) && declared >= 0;
    const bytes = !known ? limits.unknownLength : declared > limits.unknownLength ? 0 : declared;
    if (!admission.tryAdmit(bytes)) {
      return done(new AppError('OVERLOADED', 'the server is saturated with writes; retry after the Retry-After delay'));
    }
    reply.raw.once('close', () => admission.release(bytes));
    done();
  });
}
