/** Where the bar is drawn: a terminal gets one line redrawn, anything else a line every few seconds. */
interface Out {
  write(text: string): unknown;
  isTTY?: boolean;
}

const WIDTH = 30;

/**
 * A progress bar of `total` units on stderr: `copy [#####-----]  42%  metric_chunks:series`.
 * Redrawn at most every 100 ms on a terminal; elsewhere (logs, tests) printed as a line
 * every 2 s and when a new item starts.
 */
export class ProgressBar {
  private done = 0;
  private drawnAt = 0;
  private item = '';

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly out: Out = process.stderr,
  ) {}

  /** Counts n more units done on item. */
  add(n: number, item: string): void {
    this.done += n;
    const now = Date.now();
    const newItem = item !== this.item;
    this.item = item;
    if (now - this.drawnAt < (this.out.isTTY ? 100 : 2000) && !newItem) return;
    this.drawnAt = now;
    this.draw();
  }

  /** Draws the final state and ends the line. */
  end(): void {
    this.draw();
    if (this.out.isTTY) this.out.write('\n');
  }

  private draw(): void {
    const share = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const filled = Math.round(share * WIDTH);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
    const text = `${this.label} [${bar}] ${(share * 100).toFixed(0).padStart(3)}%  ${this.done}/${this.total}  ${this.item}`;
    this.out.write(this.out.isTTY ? `\r${text}\u001b[K` : `${text}\n`);
  }
}
