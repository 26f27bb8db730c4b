/** A first-come-first-served async lock: `run(fn)` waits for earlier holders, then runs fn. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs fn once every earlier caller has finished; returns fn's result or rethrows its error. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
