/**
 * Vitest global setup: an up-to-date dist/ before the tests start. The embedded store's
 * series writer thread runs the compiled worker from dist/ even when the tests run src/
 * (see src/store/sqlite/worker-series-store.ts), so a stale build would test old code.
 * Rebuilds only when some input is newer than the last build (≈ 8 s; nothing otherwise).
 */
import { buildDist } from '../helpers/build-dist.js';

export default async function setup(): Promise<void> {
  await buildDist();
}
