/**
 * Failed password sign-ins, counted per account and per client address in fixed windows:
 * past `perAccount` failures for an account (or `perAddress` from an address) in a window,
 * sign-ins to it (from it) are refused with 429 until the window ends, before any password
 * is checked, so a correct password does not get through a locked account either and a
 * flood costs no hashing. Counts live in this process (each server counts its own), at
 * most 100,000 keys of each kind.
 */
import { AppError } from '../errors.js';
import { WindowCounter } from './window-counter.js';

export interface SignInLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

/** 10 failures an account, 100 an address, per 15 minutes. */
export const SIGN_IN_LIMITS: SignInLimits = { perAccount: 10, perAddress: 100, windowMs: 15 * 60_000 };

export class SignInLimiter {
  private readonly accounts: WindowCounter;
  private readonly addresses: WindowCounter;

  constructor(limits: SignInLimits = SIGN_IN_LIMITS) {
    this.accounts = new WindowCounter(limits.perAccount, limits.windowMs);
    this.addresses = new WindowCounter(limits.perAddress, limits.windowMs);
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
    this.accounts.add(account, now);
    this.addresses.add(address, now);
  }

  /** Forgets the account's failures after a successful sign-in (the address keeps its count). */
  succeeded(account: string): void {
    this.accounts.clear(account);
  }
}
