import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';

export interface AdmissionLimits {
  /** Requests admitted at once. */
  maxInFlight: number;
  /** Body bytes admitted at once; a request arriving when none is in flight always passes. */
  maxInFlightBytes: number;
  /** Requests one tenant (organization) may have admitted at once. */
  tenantMaxInFlight: number;
  /** Body bytes one tenant may have admitted at once; a tenant's lone request passes this cap. */
  tenantMaxInFlightBytes: number;
}

interface Usage {
  inFlight: number;
  bytes: number;
}

/** What one admitted request holds; given back by release() (once, later calls do nothing). */
export interface Ticket {
  /** Adds `bytes` received to the reservation; false (nothing added) when a budget shared with others is full. */
  grow(bytes: number): boolean;
  release(): void;
}

/** True when `extra` requests and `bytes` more fit in `usage` under the caps, or `usage` holds no other request. */
const fits = (usage: Usage, others: number, extra: number, bytes: number, maxN: number, maxBytes: number): boolean =>
  others === 0 || (usage.inFlight + extra <= maxN && usage.bytes + bytes <= maxBytes);

/**
 * Admission control for the write path: counters of requests and body bytes in flight, in
 * total and per tenant, so one organization cannot take the whole budget from the others.
 * O(1) per request; single-threaded, so no lock is needed.
 */
export class Admission {
  private readonly total: Usage = { inFlight: 0, bytes: 0 };
  private readonly tenants = new Map<string, Usage>();
  /** Requests refused so far (for tests and logs). */
  refused = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  private allows(tenant: Usage, extra: 0 | 1, bytes: number): boolean {
    const l = this.limits;
    const own = 1 - extra;
    return (
      fits(this.total, this.total.inFlight - own, extra, bytes, l.maxInFlight, l.maxInFlightBytes) &&
      fits(tenant, tenant.inFlight - own, extra, bytes, l.tenantMaxInFlight, l.tenantMaxInFlightBytes)
    );
  }

  /** Admits a request of `tenant` reserving `bytes`, or returns undefined (nothing reserved). */
  tryAdmit(tenant: string, bytes: number): Ticket | undefined {
    const usage = this.tenants.get(tenant) ?? { inFlight: 0, bytes: 0 };
    if (!this.allows(usage, 1, bytes)) {
      this.refused++;
      return undefined;
    }
    this.tenants.set(tenant, usage);
    const add = (n: number, b: number) => {
      usage.inFlight += n;
      usage.bytes += b;
      this.total.inFlight += n;
      this.total.bytes += b;
    };
    add(1, bytes);
    let held = bytes;
    let released = false;
    return {
      grow: (more) => {
        if (released) return true;
        if (!this.allows(usage, 0, more)) return false;
        add(0, more);
        held += more;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        add(-1, -held);
        if (usage.inFlight === 0) this.tenants.delete(tenant);
      },
    };
  }

  /** Requests and bytes currently admitted, in total or of one tenant. */
  usage(tenant?: string): Usage {
    const u = tenant === undefined ? this.total : this.tenants.get(tenant);
    return { inFlight: u?.inFlight ?? 0, bytes: u?.bytes ?? 0 };
  }
}

/** Tickets that grow as their body arrives (bodies without Content-Length), by raw request. */
const growing = new WeakMap<IncomingMessage, Ticket>();

/**
 * Counts `bytes` just received of the request's body against its ticket when the body came
 * without Content-Length; returns false when they do not fit (the request must be refused).
 */
export function chargeReceived(raw: IncomingMessage, bytes: number): boolean {
  return growing.get(raw)?.grow(bytes) ?? true;
}

/**
 * Admits `request` for `tenant` or throws OVERLOADED (503 with Retry-After). A declared
 * Content-Length is reserved up front; a body without one reserves nothing and is counted
 * as its bytes arrive (chargeReceived). A finite `charge` (streamed bodies, which hold only a
 * window in memory) replaces both. Everything is given back when the response ends or the connection closes.
 */
export function admitRequest(
  admission: Admission,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: string,
  bodyLimit: number,
  charge = Number.POSITIVE_INFINITY,
): void {
  const declared = Number(request.headers['content-length']);
  const known = request.headers['content-length'] !== undefined && Number.isSafeInteger(declared) && declared >= 0;
  // A declared length over the body limit is answered 413 before any byte is read: not counted.
  const capped = Number.isFinite(charge);
  const bytes = known ? (declared > bodyLimit ? 0 : Math.min(declared, charge)) : capped ? charge : 0;
  const ticket = admission.tryAdmit(tenant, bytes);
  if (!ticket)
    throw new AppError('OVERLOADED', 'the server is saturated with writes; retry after the Retry-After delay');
  if (!known && !capped) growing.set(request.raw, ticket);
  reply.raw.once('close', () => ticket.release());
}

/**
 * Guards every route of `scope` with the admission counter: checked after authentication
 * and before the body is read, so a saturated server refuses work with 503 and
 * `Retry-After` instead of buffering bodies it cannot write yet. The tenant is the
 * caller's organization.
 */
export function installAdmission(scope: FastifyInstance, admission: Admission, bodyLimit: number): void {
  scope.addHook('onRequest', (request, reply, done) => {
    try {
      admitRequest(admission, request, reply, String(request.principal?.orgId ?? ''), bodyLimit);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}
