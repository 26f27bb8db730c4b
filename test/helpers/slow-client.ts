/**
 * Raw HTTP requests whose bodies the test sends at its own pace (trickled, stalled or never
 * finished), to see what the server does with slow and stalled bodies.
 */
import net from 'node:net';

/** How a slow request ended: the status line the server answered (0: none) and when, in ms after opening. */
export interface SlowOutcome {
  status: number;
  /** The answer's body, if any. */
  body: string;
  afterMs: number;
}

/** One open request: write more body bytes, or wait for the server to answer or close. */
export interface SlowRequest {
  write(bytes: string | Buffer): void;
  /** Settles when the server answers and closes, or closes without answering. */
  outcome: Promise<SlowOutcome>;
  /** Whether the connection is still open. */
  open(): boolean;
  destroy(): void;
}

/**
 * Opens a connection to 127.0.0.1:port and sends `method url` with `headers` (and nothing
 * of the body). The outcome settles once the server closes the connection.
 */
export function openSlowRequest(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
): SlowRequest {
  const started = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  const head = Object.entries({ host: `127.0.0.1:${port}`, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`${method} ${url} HTTP/1.1\r\n${head}\r\n`);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const outcome = new Promise<SlowOutcome>((resolve) => {
    socket.on('error', () => {}); // a reset is an ending like any other
    socket.on('close', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0),
        body: answer.slice(answer.indexOf('\r\n\r\n') + 4),
        afterMs: Date.now() - started,
      }),
    );
  });
  return {
    write: (bytes) => {
      if (!socket.destroyed) socket.write(bytes);
    },
    outcome,
    open: () => !socket.destroyed && socket.readyState === 'open',
    destroy: () => socket.destroy(),
  };
}

/** One chunk of a chunked body. */
export const chunk = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
