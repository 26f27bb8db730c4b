/**
 * The webhook delivery worker every server runs: it claims due deliveries (each goes to one
 * server), signs and sends them, and records each outcome with the time of the next retry.
 */
import type { ClaimedDelivery, DeliveryOutcome } from '../domain/events.js';
import type { EventStore } from '../store/event-store.js';
import { checkTarget } from './address-guard.js';
import { sendWebhook, type SendResult } from './send-webhook.js';
import { webhookBody } from './webhook-body.js';

/** Deliveries claimed per pass; a pass that claims this many is followed by another at once. */
const BATCH = 32;
/** How long stop() waits for attempts in flight. */
const STOP_WAIT_MS = 2_000;

export interface DeliveryWorkerOptions {
  events: EventStore;
  publicUrl: string;
  allowPrivate: boolean;
  /** The waits before each retry (a delivery is tried `retryDelaysMs.length + 1` times). */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  pollMs: number;
  onError: (err: unknown) => void;
}

/** When to try again after `attempts` tries failed at `at`, or null when none is left. */
export function nextRetryAt(attempts: number, delays: readonly number[], at: number): number | null {
  return attempts > delays.length ? null : at + delays[attempts - 1]!;
}

/** The Standard Webhooks headers of a body: `webhook-id`, `webhook-timestamp`, `webhook-signature`. */
export async function signedHeaders(d: ClaimedDelivery, body: string, now: Date): Promise<Record<string, string>> {
  // Loaded on the first delivery rather than at start-up.
  const { Webhook } = await import('standardwebhooks');
  const id = `evt_${d.event.id}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(d.secret).sign(id, now, body),
  };
}

/** Sends one claimed delivery (checking its target's addresses again) and says how it went. */
async function attempt(d: ClaimedDelivery, o: DeliveryWorkerOptions): Promise<SendResult> {
  let target;
  try {
    target = await checkTarget(d.url, o.allowPrivate);
  } catch (err) {
    return { statusCode: null, error: (err as Error).message };
  }
  const body = webhookBody(d, o.publicUrl);
  return sendWebhook(target, await signedHeaders(d, body, new Date()), body, o.timeoutMs);
}

async function deliver(d: ClaimedDelivery, o: DeliveryWorkerOptions): Promise<void> {
  const result = await attempt(d, o);
  const at = Date.now();
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const error = ok ? null : (result.error ?? `the receiver answered ${result.statusCode}`);
  const outcome: DeliveryOutcome = {
    id: d.id,
    webhookId: d.webhookId,
    ok,
    statusCode: result.statusCode,
    error: error?.slice(0, 500) ?? null,
    at,
    retryAt: ok ? null : nextRetryAt(d.attempts + 1, o.retryDelaysMs, at),
  };
  await o.events.recordDelivery(outcome);
}

/** One pass: claims and delivers until a claim comes back short. */
async function pass(o: DeliveryWorkerOptions, stopped: () => boolean): Promise<void> {
  // A claim is held past one attempt's deadline, with room for the DNS lookup and the write.
  const leaseMs = o.timeoutMs + 30_000;
  while (!stopped()) {
    const claimed = await o.events.claimDeliveries(Date.now(), leaseMs, BATCH);
    await Promise.all(claimed.map((d) => deliver(d, o).catch(o.onError)));
    if (claimed.length < BATCH) return;
  }
}

/** A running worker; stop() waits for the pass in progress (at most STOP_WAIT_MS). */
export interface DeliveryWorker {
  stop(): Promise<void>;
}

/** Starts a worker that looks for due deliveries every `pollMs` (passes never overlap; the timer does not hold the process). */
export function startDeliveryWorker(o: DeliveryWorkerOptions): DeliveryWorker {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = pass(o, () => stopped)
      .catch(o.onError)
      .then(() => (running = undefined));
  };
  const timer = setInterval(tick, o.pollMs);
  timer.unref();
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      // An attempt can take the whole timeout; one cut short is claimed again after its lease.
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((resolve) => (wait = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(wait);
    },
  };
}
