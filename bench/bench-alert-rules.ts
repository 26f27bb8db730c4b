/**
 * Ingest with alert rules (issue 31): the same metric batches into a project with 20 active
 * rules on its metrics and into one with none, alternating rounds on one server, so both
 * rates come from the same run and machine state. The rules never fire: the figure is what
 * checking them costs.
 */
import { BenchClient, runPool } from './bench-http.js';

/** Rounds per project after one warm-up round each; their times are summed. */
const ROUNDS = 4;

export interface RulesBenchResult {
  withRules: number;
  without: number;
  /** withRules / without points/s (1 = no cost). */
  ratio: number;
}

/**
 * Ingests `requests` bodies (1,000 points each, from `body(step0)`, metrics m0…m9) per round
 * into a fresh run of each project, 4 connections; returns both sustained rates.
 */
export async function benchAlertRules(
  api: BenchClient,
  requests: number,
  body: (step0: number) => string,
): Promise<RulesBenchResult> {
  const projects = { without: 'rules-off', withRules: 'rules-on' } as const;
  await api.json('POST', '/api/runs/create', { runName: 'setup', projectName: projects.withRules });
  for (let m = 0; m < 10; m++) {
    for (const rule of [{ kind: 'above', threshold: 1e9 }, { kind: 'non_finite' }]) {
      await api.json('POST', '/api/alert-rules', { projectName: projects.withRules, logName: `m${m}`, ...rule });
    }
  }
  const bodies = Array.from({ length: requests }, (_, i) => body(i * 100));
  const seconds = { without: 0, withRules: 0 };
  for (let round = 0; round <= ROUNDS; round++) {
    const order = round % 2 === 0 ? (['without', 'withRules'] as const) : (['withRules', 'without'] as const);
    for (const mode of order) {
      const run = await api.json<{ runId: number }>('POST', '/api/runs/create', {
        runName: `round-${round}`,
        projectName: projects[mode],
      });
      const t0 = performance.now();
      await runPool(requests, 4, (i) => api.ingest('metrics', run.runId, projects[mode], bodies[i]!));
      if (round > 0) seconds[mode] += (performance.now() - t0) / 1000;
    }
  }
  const points = requests * 1000 * ROUNDS;
  const withRules = points / seconds.withRules;
  const without = points / seconds.without;
  return { withRules, without, ratio: withRules / without };
}
