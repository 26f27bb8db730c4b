import { onTestFinished, vi } from 'vitest';

/**
 * Stops Date.now() (the clock key and session expiry read) for the rest of the calling test:
 * it moves only by vi.advanceTimersByTime, so an expiry is reached when the test says, however
 * long the setup before it took. Timers stay real; the real clock is back when the test ends.
 */
export function holdClock(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
