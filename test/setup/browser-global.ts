/**
 * Vitest global setup of the browser project: one `stepwise serve` and one Chromium for every
 * test file (see startDashboard in test/helpers/browser.ts, which gives each file its own
 * organization). Runs after dist-global.ts and ui-global.ts, so the server serves fresh builds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from '../helpers/browser.js';
import { spawnServer } from '../helpers/spawned-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared server's URL and data dir, and the shared Chromium's websocket endpoint. */
    dashboard: { baseUrl: string; dataDir: string; wsEndpoint: string };
  }
}

/** Starts the server and Chromium, provides where they are and returns the teardown that stops both. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The data dir in memory where the machine has /dev/shm: the tests wait on no fsync.
  const root = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const dataDir = fs.mkdtempSync(path.join(root, 'stepwise-browser-'));
  const [server, chromium] = await Promise.all([spawnServer([], { dataDir }), launchChromiumServer()]);
  project.provide('dashboard', { baseUrl: server.baseUrl, dataDir: server.dataDir, wsEndpoint: chromium.wsEndpoint() });
  return async () => {
    await chromium.close();
    await server.stop();
  };
}
