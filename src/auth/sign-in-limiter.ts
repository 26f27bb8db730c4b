/**
 * Failed password sign-ins, counted per account and per client address in fixed windows:
 * past `perAccount` failures for an account (or `perAddress` from an address) in a window,
 * sign-ins to it (from it) are refused with 429 until the window ends, before any password
 * is checked, so a correct password does not get through a locked account either and a
 * flood costs no hashing. Counts live in this process (each server counts its own), at
 * most 100,000 keys of each kind.
 */
import { AppError } from '../errors.js';

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

/** 10 failures an account, 100 an address, per 15 minutes. */
export const SIGN_IN_LIMITS: SignInLimits = { perAccount: 10, perAddress: 100, windowMs: 15 * 60_000 };

const MAX_KEYS = 100_000;

class Counter {
  private readonly counts = new Map<string, { n: number; until: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** The end of the lock (ms) when `key` is locked at `now`, else undefined. */
  lockedUntil(key: string, now: number): number | undefined {
    const c = this.counts.get(key);
    return c && c.until > now && c.n >= this.limit ? c.until : undefined;
  }

  fail(key: string, now: number): void {
    let c = this.counts.get(key);
    if (!c || c.until <= now) {
      if (this.counts.size >= MAX_KEYS) this.prune(now);
      c = { n: 0, until: now + this.windowMs };
      this.counts.set(key, c);
    }
    c.n++;
  }

  clear(key: string): void {
    this.counts.delete(key);
  }

  private prune(now: number): void {
    for (const [key, c] of this.counts) if (c.until <= now) this.counts.delete(key);
    if (this.counts.size >= MAX_KEYS) this.counts.clear();
  }
}

export class SignInLimiter {
  private readonly accounts: Counter;
  private readonly addresses: Counter;

  constructor(limits: SignInLimits = SIGN_IN_LIMITS) {
    this.accounts = new Counter(limits.perAccount, limits.windowMs);
    this.addresses = new Counter(limits.perAddress, limits.windowMs);
  }

  /** Throws TOO_MANY_REQUESTS when the account or the address is locked now. */
  check(account: string, address: string): void {
    const now = Date.now();
    const until = this.accounts.lockedUntil(account, now) ?? this.addresses.lockedUntil(address, now);
    if (until === undefined) return;
    const seconds = Math.ceil((until - now) / 1000);
    throw new AppError('TOO_MANY_REQUESTS', `too many failed sign-ins; try again in ${seconds} s`);
  }

  /** Counts a failed sign-in against the account and the address. */
  failed(account: string, address: string): void {
    const now = Date.now();
    this.accounts.fail(account, now);
    this.addresses.fail(address, now);
  }

  /** Forgets the account's failures after a successful sign-in (the address keeps its count). */
  succeeded(account: string): void {
    this.accounts.clear(account);
  }
}
