/**
 * Connection limits of the HTTP listeners: a cap on open connections over the whole process
 * and one per client address (closed at once past either, before a byte is read), a header
 * deadline and a keep-alive timeout. Without them a client that opens connections and sends
 * nothing, or trickles its headers, holds file descriptors until the process has none left.
 */
import type { ServerOptions } from 'node:http';
import type { Server, Socket } from 'node:net';

/** The limits, from the Config fields of the same names. */
export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** What was refused since the last report (one report at most every 10 s). */
export interface RefusedReport {
  /** Connections closed because their address had `maxConnectionsPerAddress` open. */
  perAddress: number;
  /** Connections closed because the process had `maxConnections` open. */
  total: number;
  /** The address refused most recently. */
  lastAddress: string;
}

const REPORT_EVERY_MS = 10_000;

/**
 * Options for `http.createServer` that put `headersTimeout` into effect at its time: Node
 * looks for late headers only every `connectionsCheckingInterval` (30 s by default), so the
 * check runs every tenth of the deadline (100 ms to 1 s). Node's `requestTimeout` stays off:
 * bodies have their own deadline (body-deadline.ts).
 */
export function httpServerOptions(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(limits.headersTimeoutMs / 10))),
  };
}

/**
 * Counts the open connections of every server it watches, in total and per remote address,
 * and destroys a new connection past either cap (the client sees a reset, as from a full
 * listen queue). Refusals are counted and reported through `report`: the first at once,
 * the rest in one report at most every 10 s.
 */
export class ConnectionGate {
  private readonly perAddress = new Map<string, number>();
  private open = 0;
  private refused: RefusedReport = { perAddress: 0, total: 0, lastAddress: '' };
  private lastReport = 0;
  private reportTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly report: (refused: RefusedReport) => void = () => {},
  ) {}

  /** Puts a listener's connections under the caps (call before it accepts connections). */
  watch(server: Server): void {
    // First, so that a refused socket is closed before Node's HTTP layer sets it up.
    server.prependListener('connection', (socket: Socket) => this.admit(socket));
  }

  private admit(socket: Socket): void {
    const address = socket.remoteAddress;
    if (address === undefined) return void socket.destroy(); // already gone
    const mine = this.perAddress.get(address) ?? 0;
    if (mine >= this.limits.maxConnectionsPerAddress || this.open >= this.limits.maxConnections) {
      socket.destroy();
      return this.refuse(address, mine >= this.limits.maxConnectionsPerAddress);
    }
    this.open++;
    this.perAddress.set(address, mine + 1);
    socket.once('close', () => {
      this.open--;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left === 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
    });
  }

  private refuse(address: string, perAddress: boolean): void {
    if (perAddress) this.refused.perAddress++;
    else this.refused.total++;
    this.refused.lastAddress = address;
    if (this.reportTimer) return;
    // The first refusal is reported at once, later ones in one line at most every 10 s.
    const wait = Math.max(0, this.lastReport + REPORT_EVERY_MS - Date.now());
    this.reportTimer = setTimeout(() => {
      this.reportTimer = undefined;
      this.lastReport = Date.now();
      this.report(this.refused);
      this.refused = { perAddress: 0, total: 0, lastAddress: '' };
    }, wait);
    this.reportTimer.unref();
  }
}
