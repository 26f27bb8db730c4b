import http from 'node:http';

/**
 * A response as it arrived. The body is joined and decoded only when `text` is first read,
 * so a timed call ends with the answer's last byte, not with the client's own copying: on
 * this VM each fresh megabyte of memory costs about 4 ms of page faults, and joining then
 * decoding a 10,000-line logs page (1.2 MB) took the client 7-10 ms per call.
 */
export class Answer {
  private decoded: string | undefined;
  constructor(
    readonly status: number,
    private readonly chunks: readonly Buffer[],
  ) {}
  get text(): string {
    this.decoded ??= Buffer.concat(this.chunks).toString('utf8');
    return this.decoded;
  }
}

/** A keep-alive HTTP client for loopback benchmarks: at most `sockets` connections. */
export class BenchClient {
  readonly agent: http.Agent;
  constructor(
    readonly base: string,
    readonly key: string,
    sockets = 4,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** Sends a request; resolves when the answer's last byte arrived; rejects on network errors. */
  request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.base}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            authorization: `Bearer ${this.key}`,
            ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(new Answer(res.statusCode ?? 0, chunks)));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** POSTs JSON and returns the parsed answer; throws on a non-200. */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      body === undefined ? {} : { 'content-type': 'application/json' },
    );
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status}: ${res.text.slice(0, 300)}`);
    return JSON.parse(res.text) as T;
  }

  /** GETs a path; resolves with the answer when its last byte arrived; throws on a non-200. */
  async get(path: string): Promise<Answer> {
    const res = await this.request('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${res.text.slice(0, 300)}`);
    return res;
  }

  /** POSTs an NDJSON body to an ingest route; throws on a non-200. */
  async ingest(kind: 'metrics' | 'logs' | 'data', runId: number, project: string, body: string): Promise<void> {
    const res = await this.request('POST', `/ingest/${kind}`, body, {
      'content-type': 'application/x-ndjson',
      'x-run-id': String(runId),
      'x-project-name': project,
    });
    if (res.status !== 200) throw new Error(`ingest ${kind} → ${res.status}: ${res.text.slice(0, 300)}`);
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `task(i)` for i in [0, count) with at most `parallel` in flight. */
export async function runPool(count: number, parallel: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}

/** Seconds `runPool` took: for the first `cold` tasks answered, and for the rest after them. */
export interface PoolTimes {
  coldS: number;
  warmS: number;
}

/**
 * runPool with 4 in flight, timed in two parts: until `cold` tasks have been answered (a fresh
 * server compiling its hot paths) and from then to the end (the sustained rate). `atWarm`
 * runs at the boundary, to start other measurements of the sustained part there.
 */
export async function timedPool(
  count: number,
  cold: number,
  task: (i: number) => Promise<void>,
  atWarm: () => void = () => {},
): Promise<PoolTimes> {
  const t0 = performance.now();
  let tWarm = t0;
  let answered = 0;
  await runPool(count, 4, async (i) => {
    await task(i);
    if (++answered === cold) {
      tWarm = performance.now();
      atWarm();
    }
  });
  return { coldS: (tWarm - t0) / 1000, warmS: (performance.now() - tWarm) / 1000 };
}
