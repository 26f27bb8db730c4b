/**
 * Vitest global setup of the browser project: one `stepwise serve` and one Chromium for every
 * test file (see startDashboard in test/helpers/browser.ts, which gives each file its own
 * organization). Runs after dist-global.ts and ui-global.ts, so the server serves fresh builds.
 */
import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from '../helpers/browser.js';
import { spawnServer } from '../helpers/spawned-server.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Starts the server and Chromium, provides where they are and returns the teardown that stops both. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = tempDir('stepwise-browser-');
  const [server, chromium] = await Promise.all([spawnServer([], { dataDir }), launchChromiumServer()]);
  project.provide('dashboard', { baseUrl: server.baseUrl, dataDir: server.dataDir, wsEndpoint: chromium.wsEndpoint() });
  return async () => {
    await chromium.close();
    await server.stop();
  };
}
