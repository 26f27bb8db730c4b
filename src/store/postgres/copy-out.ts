/**
 * One COPY … TO STDOUT on a pg client, read off the socket here: the CopyData contents go to
 * `onData` as byte ranges of the socket's own buffers, with no Buffer made per message and
 * none copied (pg-copy-streams makes a Buffer per message and copies each read's into a new
 * one: measured in-process on the groups/metrics bench data, 85 MB of rows, a third of the
 * read's Node CPU went to those Buffers and the garbage collection after them). The client
 * gets its socket back at CopyDone, or at an error or an unexpected answer, and answers the
 * rest (CommandComplete, ReadyForQuery, ErrorResponse) as for any query.
 */
import type pg from 'pg';

/** Message types of the answer. */
const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
const HANDED_BACK = new Set([0x45, 0x43, 0x5a]); // 'E' error, 'C' command complete, 'Z' ready

/** Where the parse stands: at a message's type byte, in its length, or in its body. */
const At = { Type: 0, Length: 1, Body: 2 } as const;

type DataListener = (chunk: Buffer) => void;

/** A pg Submittable: `client.query(new CopyOut(…))`, then await `done`. */
export class CopyOut implements pg.Submittable {
  /** Settles when the client is ready again (or rejects with the read's or onData's error). */
  readonly done: Promise<void>;
  private settle!: (err?: Error) => void;
  private connection: pg.Connection | undefined;
  private pgListener: DataListener | undefined;
  private readonly listener: DataListener = (chunk) => this.read(chunk);
  private at: number = At.Type;
  private type = 0;
  private lengthBytes = 0;
  private left = 0;
  private failed = false;

  constructor(
    private readonly text: string,
    private readonly onData: (buf: Buffer, from: number, to: number) => void,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      let settled = false;
      this.settle = (err) => {
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve();
      };
    });
  }

  submit(connection: pg.Connection): void {
    this.connection = connection;
    const listeners = connection.stream.listeners('data') as DataListener[];
    if (listeners.length !== 1) throw new Error(`the pg socket has ${listeners.length} data listeners, not 1`);
    this.pgListener = listeners[0]!;
    connection.stream.removeListener('data', this.pgListener);
    connection.stream.on('data', this.listener);
    connection.query(this.text);
  }

  handleError(err: Error): void {
    this.settle(err);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    this.settle();
  }

  /** Parses a socket read: message framing here, CopyData bodies to onData. */
  private read(chunk: Buffer): void {
    // After onData threw, the rest is dropped: the caller discards the connection.
    if (this.failed) return;
    let p = 0;
    while (p < chunk.length) {
      if (this.at === At.Body) {
        const n = Math.min(this.left, chunk.length - p);
        if (this.type === COPY_DATA && !this.deliver(chunk, p, p + n)) return;
        p += n;
        this.left -= n;
      } else if (this.at === At.Type) {
        this.type = chunk[p]!;
        if (HANDED_BACK.has(this.type)) return this.handBack(chunk.subarray(p));
        p++;
        this.at = At.Length;
        this.lengthBytes = 0;
        this.left = 0;
        continue;
      } else {
        this.left = this.left * 256 + chunk[p++]!;
        if (++this.lengthBytes < 4) continue;
        this.left -= 4;
        this.at = At.Body;
      }
      if (this.left > 0) continue;
      this.at = At.Type;
      if (this.type === COPY_DONE) return this.handBack(chunk.subarray(p));
    }
  }

  /** Hands bytes to onData; false (and the read failed) when it threw. */
  private deliver(chunk: Buffer, from: number, to: number): boolean {
    try {
      this.onData(chunk, from, to);
      return true;
    } catch (err) {
      this.failed = true;
      this.settle(err as Error);
      return false;
    }
  }

  /** Gives the socket back to the client, with the bytes it has not parsed yet. */
  private handBack(rest: Buffer): void {
    const stream = this.connection!.stream;
    stream.removeListener('data', this.listener);
    stream.on('data', this.pgListener!);
    if (rest.length > 0) this.pgListener!(rest);
  }
}
