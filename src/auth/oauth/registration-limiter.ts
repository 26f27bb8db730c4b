import type { MetadataStore } from '../../store/metadata-store.js';
import { attemptKey, MAX_KEYS } from '../attempt-key.js';

/** How many client registrations (POST /oauth/reg) one address may make in a window. */
export interface RegistrationLimits {
  perAddress: number;
  windowMs: number;
}

/** 20 registrations an address per hour: a person connects a few tools, a flood is cut short. */
export const REGISTRATION_LIMITS: RegistrationLimits = { perAddress: 20, windowMs: 60 * 60_000 };

/**
 * Open dynamic client registration (docs/api.md §18), limited per client address. Every
 * attempt counts, whatever the provider then answers. Counts live in the metadata store
 * (attempt_counts, the address as its sha256), shared by every server on the database and
 * kept over restarts. Loads no OAuth library.
 */
export class RegistrationLimiter {
  constructor(
    private readonly store: MetadataStore,
    private readonly limits: RegistrationLimits = REGISTRATION_LIMITS,
  ) {}

  /**
   * Counts a registration from `address` now and returns undefined, or, when the address has
   * used up its window, the whole seconds until it may register again. One statement: past
   * the limit the count stays at limit + 1. While MAX_KEYS addresses have counts, a new
   * address is refused for a window (a flood from many addresses grows no table).
   */
  async take(address: string): Promise<number | undefined> {
    const now = Date.now();
    const key = attemptKey('registration', address);
    const [c] = await this.store.countAttempts([key], {
      now,
      windowMs: this.limits.windowMs,
      cap: this.limits.perAddress,
      maxKeys: MAX_KEYS,
    });
    // Not counted: MAX_KEYS addresses already registered lately, so new ones wait a window.
    if (!c) return Math.ceil(this.limits.windowMs / 1000);
    return c.count > this.limits.perAddress ? Math.ceil((c.windowEnd - now) / 1000) : undefined;
  }
}
