/** Vitest global setup: an up-to-date ui/dist before the browser tests start (see build-ui.ts). */
import { buildUi } from '../helpers/build-ui.js';

export default async function setup(): Promise<void> {
  await buildUi();
}
