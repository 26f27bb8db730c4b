/**
 * Ingest with alert rules (issue 31): the same metric batches into a project with 20 active
 * rules on its metrics and into one with none, alternating rounds on one server, so both
 * rates come from the same run and machine state. The rules never fire: the figure is what
 * checking them costs.
 *
 * Rounds go in pairs (one round of each project, the first of a pair alternating: ABBA), and
 * the ratio is the median of the pairs' ratios: a round of 300,000 points takes about 0.4 s,
 * so a burst of another process on the two cores moves one pair, not the figure.
 */
import { BenchClient, runPool } from './bench-http.js';
import { quantile } from './bench-stats.js';

/** Pairs of rounds measured, after WARM_PAIRS pairs that warm the server up. */
export const PAIRS = 16;
const WARM_PAIRS = 2;

export interface RulesBenchResult {
  /** points/s with rules and without, over all measured rounds. */
  withRules: number;
  without: number;
  /** Median over the pairs of withRules / without points/s (1 = no cost). */
  ratio: number;
  /** Each pair's ratio, in order. */
  pairs: number[];
  /** Server CPU (all threads) per point over the measured rounds, µs, with rules and without. */
  cpuWith: number;
  cpuWithout: number;
}

/**
 * Ingests `requests` bodies (1,000 points each, from `body(step0)`, metrics m0…m9) per round
 * into a fresh run of each project, 4 connections; returns both sustained rates, and the
 * server's CPU per point from `serverCpuMs` (its CPU time so far, ms).
 */
export async function benchAlertRules(
  api: BenchClient,
  requests: number,
  body: (step0: number) => string,
  serverCpuMs: () => number,
): Promise<RulesBenchResult> {
  const projects = { without: 'rules-off', withRules: 'rules-on' } as const;
  await api.json('POST', '/api/runs/create', { runName: 'setup', projectName: projects.withRules });
  for (let m = 0; m < 10; m++) {
    for (const rule of [{ kind: 'above', threshold: 1e9 }, { kind: 'non_finite' }]) {
      await api.json('POST', '/api/alert-rules', { projectName: projects.withRules, logName: `m${m}`, ...rule });
    }
  }
  const bodies = Array.from({ length: requests }, (_, i) => body(i * 100));
  const cpu = { without: 0, withRules: 0 };
  const round = async (mode: keyof typeof projects, name: string): Promise<number> => {
    const run = await api.json<{ runId: number }>('POST', '/api/runs/create', {
      runName: name,
      projectName: projects[mode],
    });
    const cpu0 = serverCpuMs();
    const t0 = performance.now();
    await runPool(requests, 4, (i) => api.ingest('metrics', run.runId, projects[mode], bodies[i]!));
    const seconds = (performance.now() - t0) / 1000;
    cpu[mode] += serverCpuMs() - cpu0;
    return seconds;
  };
  const seconds = { without: 0, withRules: 0 };
  const pairs: number[] = [];
  for (let pair = 0; pair < WARM_PAIRS + PAIRS; pair++) {
    const order = pair % 2 === 0 ? (['without', 'withRules'] as const) : (['withRules', 'without'] as const);
    const took = { without: 0, withRules: 0 };
    for (const mode of order) took[mode] = await round(mode, `round-${pair}`);
    if (pair < WARM_PAIRS) {
      cpu.without = cpu.withRules = 0;
      continue;
    }
    seconds.without += took.without;
    seconds.withRules += took.withRules;
    pairs.push(took.without / took.withRules);
  }
  const points = requests * 1000 * PAIRS;
  const withRules = points / seconds.withRules;
  const without = points / seconds.without;
  const perPoint = (ms: number) => (ms * 1000) / points;
  return {
    withRules,
    without,
    ratio: quantile(pairs, 0.5),
    pairs,
    cpuWith: perPoint(cpu.withRules),
    cpuWithout: perPoint(cpu.without),
  };
}
