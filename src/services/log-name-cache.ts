/**
 * A bounded set of (runId, name) pairs already written to the store. When full it is
 * cleared, which only costs a few idempotent re-registrations.
 */
export class LogNameCache {
  private readonly seen = new Set<string>();
  constructor(private readonly capacity: number) {}

  /** True when the pair was added since the last clear. */
  has(runId: number, name: string): boolean {
    return this.seen.has(`${runId}\u0000${name}`);
  }

  /** Adds a pair, clearing the set first when it is full. */
  add(runId: number, name: string): void {
    if (this.seen.size >= this.capacity) this.seen.clear();
    this.seen.add(`${runId}\u0000${name}`);
  }
}
