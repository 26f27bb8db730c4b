/**
 * MCP against HTTP (issue 32): get_metric_history of a large series with a 2,000-point
 * budget through the SDK's own client (tools/call over Streamable HTTP, answer parsed and
 * checked against the tool's output schema), and GET /api/runs/metrics limit 2,000 of the
 * same series, alternating call by call on one server so both come from the same state.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BenchClient } from './bench-http.js';
import { p50p95, quantile } from './bench-stats.js';

/** Calls of each kind after the warm-up ones. */
const CALLS = 40;
const WARM = 3;

export interface McpBenchResult {
  mcp: number[];
  http: number[];
  /** MCP p50 / HTTP p50 (target ≤ 2). */
  ratio: number;
}

/** Times both reads of `logName` in `runId` (which holds `points` points); prints one line. */
export async function benchMcp(
  api: BenchClient,
  run: { runId: number; logName: string; points: number },
  log: (line: string) => void,
): Promise<McpBenchResult> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', api.base), {
    requestInit: { headers: { Authorization: `Bearer ${api.key}` } },
  });
  const client = new Client({ name: 'stepwise-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    await client.listTools(); // the client caches the output schemas and checks answers against them
    const args = { runId: run.runId, logName: run.logName, maxPoints: 2000 };
    const url = `/api/runs/metrics?runId=${run.runId}&logName=${encodeURIComponent(run.logName)}&limit=2000`;
    const viaMcp = async () => {
      const result = await client.callTool({ name: 'get_metric_history', arguments: args });
      const points = (result.structuredContent as { points?: unknown[] } | undefined)?.points;
      if (result.isError || !points || points.length === 0) throw new Error(`get_metric_history failed`);
    };
    const viaHttp = async () => {
      const res = await api.get(url);
      if (res.status !== 200) throw new Error(`GET /api/runs/metrics answered ${res.status}`);
    };
    const mcp: number[] = [];
    const http: number[] = [];
    for (let i = 0; i < WARM + CALLS; i++) {
      for (const [fn, out] of [
        [viaMcp, mcp],
        [viaHttp, http],
      ] as const) {
        const t0 = performance.now();
        await fn();
        if (i >= WARM) out.push(performance.now() - t0);
      }
    }
    const ratio = quantile(mcp, 0.5) / quantile(http, 0.5);
    log(
      `MCP get_metric_history, ${run.points.toLocaleString('en-US')}-point series to 2,000 points via the SDK client: ${p50p95(mcp)} | GET /api/runs/metrics limit 2,000 of the same series ${p50p95(http)} | ratio of p50s ${ratio.toFixed(2)} (target ≤ 2; ${CALLS} calls each, alternating)`,
    );
    return { mcp, http, ratio };
  } finally {
    await client.close();
  }
}
