const MAX_KEYS = 100_000;

/**
 * Counts events per key in fixed windows (the first event of a key starts its window): a key
 * with `limit` events in its window is locked until the window ends. Keeps at most 100,000
 * keys, dropping ended windows first; counts live in this process.
 */
export class WindowCounter {
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

  /** Counts one event of `key` at `now`. */
  add(key: string, now: number): void {
    let c = this.counts.get(key);
    if (!c || c.until <= now) {
      if (this.counts.size >= MAX_KEYS) this.prune(now);
      c = { n: 0, until: now + this.windowMs };
      this.counts.set(key, c);
    }
    c.n++;
  }

  /** Forgets the events of `key`. */
  clear(key: string): void {
    this.counts.delete(key);
  }

  private prune(now: number): void {
    for (const [key, c] of this.counts) if (c.until <= now) this.counts.delete(key);
    if (this.counts.size >= MAX_KEYS) this.counts.clear();
  }
}
