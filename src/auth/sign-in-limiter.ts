/**
 * Failed password sign-ins, counted per account and per client address in fixed windows:
 * past `perAccount` failures for an account (or `perAddress` from an address) in a window,
 * sign-ins to it (from it) are refused with 429 until the window ends, before any password
 * is checked, so a correct password does not get through a locked account either and a
 * flood costs no hashing. Counts live in the metadata store (attempt_counts), shared by
 * every server on the database and kept over restarts; accounts and addresses are stored
 * as their sha256 only. A check is one read, a failure one write. Each kind keeps at most
 * MAX_KEYS keys: past it, failures of an account or address not yet counted go uncounted
 * (an address locks after 100 failures, so filling the accounts takes 1,000 addresses).
 */
import { AppError } from '../errors.js';
import type { AttemptKey, MetadataStore } from '../store/metadata-store.js';
import { attemptKey, MAX_KEYS } from './attempt-key.js';

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

/** 10 failures an account, 100 an address, per 15 minutes. */
export const SIGN_IN_LIMITS: SignInLimits = { perAccount: 10, perAddress: 100, windowMs: 15 * 60_000 };

const ACCOUNT = 'sign-in-account';
const ADDRESS = 'sign-in-address';

export class SignInLimiter {
  constructor(
    private readonly store: MetadataStore,
    private readonly limits: SignInLimits = SIGN_IN_LIMITS,
  ) {}

  /** Throws TOO_MANY_REQUESTS when the account or the address is locked now. */
  async check(account: string, address: string): Promise<void> {
    const now = Date.now();
    const counts = await this.store.findAttempts(this.keys(account, address), now);
    const locked = counts.filter(
      (c) => c.count >= (c.kind === ACCOUNT ? this.limits.perAccount : this.limits.perAddress),
    );
    if (locked.length === 0) return;
    const until = Math.max(...locked.map((c) => c.windowEnd));
    const seconds = Math.ceil((until - now) / 1000);
    throw new AppError('TOO_MANY_REQUESTS', `too many failed sign-ins; try again in ${seconds} s`);
  }

  /** Counts a failed sign-in against the account and the address. */
  async failed(account: string, address: string): Promise<void> {
    await this.store.countAttempts(this.keys(account, address), {
      now: Date.now(),
      windowMs: this.limits.windowMs,
      cap: Math.max(this.limits.perAccount, this.limits.perAddress),
      maxKeys: MAX_KEYS,
    });
  }

  /** Forgets the account's failures after a successful sign-in (the address keeps its count). */
  async succeeded(account: string): Promise<void> {
    await this.store.clearAttempts(attemptKey(ACCOUNT, account));
  }

  private keys(account: string, address: string): AttemptKey[] {
    return [attemptKey(ACCOUNT, account), attemptKey(ADDRESS, address)];
  }
}
