/**
 * The sweep the grouping and sweep-panel tests draw: 3 learning rates × 2 optimizers × 4 seeds
 * (24 runs) with `config {lr, optimizer, seed}` and 40 steps of `train/loss` and `val/acc`,
 * seeded over HTTP with the helpers workspace.test.ts uses.
 */
import { createRunHttp, ingestMetricsHttp, type SeededRun } from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';

export const SWEEP_LRS = [0.0003, 0.001, 0.003] as const;
export const SWEEP_OPTIMIZERS = ['adamw', 'sgd'] as const;
export const SWEEP_SEEDS = 4;

/** Returns the 24 runs, created one at a time (the shared server refuses a flood of writes). */
export async function seedSweep(base: string, key: string, projectName: string): Promise<SeededRun[]> {
  const runs: SeededRun[] = [];
  for (const lr of SWEEP_LRS)
    for (const optimizer of SWEEP_OPTIMIZERS)
      for (let seed = 0; seed < SWEEP_SEEDS; seed++) {
        const run = await createRunHttp(base, key, {
          runName: `${optimizer}-lr${lr}-seed${seed}`,
          projectName,
          config: JSON.stringify({ lr, optimizer, seed }),
        });
        runs.push(run);
        // Loss falls faster with a larger lr and adamw; seeds spread it by a few percent.
        const rate = lr * 1000 * (optimizer === 'adamw' ? 2 : 1);
        const noise = 1 + (seed - 1.5) * 0.04;
        const lines = Array.from({ length: 40 }, (_, step) =>
          metricLine(step, {
            'train/loss': (noise * 2) / (1 + rate * step),
            'val/acc': 1 - noise / (2 + rate * step),
          }),
        );
        await ingestMetricsHttp(base, key, run.runId, projectName, lines);
      }
  return runs;
}
