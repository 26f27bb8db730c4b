/**
 * Cooperative yielding for long loops on the event loop thread. SQLite reads are
 * synchronous and an awaited resolved promise runs as a microtask, so a loop over thousands
 * of series or items never lets timers and sockets run unless it yields on purpose.
 */

/** How long a loop may hold the event loop between two yields, in ms. */
export const SLICE_MS = 5;

/** A loop's clock: `tick()` yields to the event loop once the current slice has used its time. */
export class TimeSlice {
  private started = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Resolves at once while the slice has time left; else after one turn of the event loop (setImmediate). */
  async tick(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
