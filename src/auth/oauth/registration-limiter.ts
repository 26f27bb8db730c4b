import { WindowCounter } from '../window-counter.js';

/** How many client registrations (POST /oauth/reg) one address may make in a window. */
export interface RegistrationLimits {
  perAddress: number;
  windowMs: number;
}

/** 20 registrations an address per hour: a person connects a few tools, a flood is cut short. */
export const REGISTRATION_LIMITS: RegistrationLimits = { perAddress: 20, windowMs: 60 * 60_000 };

/**
 * Open dynamic client registration (docs/api.md §18), limited per client address with the
 * sign-in limiter's counter. Every attempt counts, whatever the provider then answers. Counts
 * live in this process (each server counts its own). Loads no OAuth library.
 */
export class RegistrationLimiter {
  private readonly addresses: WindowCounter;

  constructor(limits: RegistrationLimits = REGISTRATION_LIMITS) {
    this.addresses = new WindowCounter(limits.perAddress, limits.windowMs);
  }

  /**
   * Counts a registration from `address` now and returns undefined, or, when the address has
   * used up its window, the whole seconds until it may register again (counting nothing).
   */
  take(address: string): number | undefined {
    const now = Date.now();
    const until = this.addresses.lockedUntil(address, now);
    if (until !== undefined) return Math.ceil((until - now) / 1000);
    this.addresses.add(address, now);
    return undefined;
  }
}
