/**
 * The run page tests' shared seed: their project, a run with tags, a nested config and
 * system metadata, and the API calls they check the page against.
 */
import { expect } from 'vitest';
import { createRunHttp, type SeededRun } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';

export const PROJECT = 'run-page-demo';

const CONFIG = {
  lr: 0.0003,
  batch_size: 64,
  model: { arch: 'resnet', depth: 50, blocks: { stem: { channels: 64 }, head: 'linear' } },
  schedule: Array.from({ length: 60 }, (_, i) => i * 10),
  dataset: 'imagenet-1k',
};

export type Created = SeededRun;

export const createRun = (base: string, key: string, body: Record<string, unknown>): Promise<Created> =>
  createRunHttp(base, key, { projectName: PROJECT, ...body });

/** The run most tests open: tags, the nested CONFIG and system metadata. */
export const createMainRun = (dash: { base: string; key: string }): Promise<Created> =>
  createRun(dash.base, dash.key, {
    runName: 'resnet-baseline',
    tags: ['baseline', 'gpu'],
    config: JSON.stringify(CONFIG),
    systemMetadata: JSON.stringify({ hostname: 'trainer-7', gpu: { name: 'A100', count: 8 }, python: '3.11.9' }),
  });

export async function setStatus(base: string, key: string, runId: number, status: string): Promise<void> {
  const res = await http(base, 'POST', '/api/runs/status/update', { key, json: { runId, status } });
  expect(res.status).toBe(200);
}

export async function details(base: string, key: string, runId: number): Promise<Record<string, unknown>> {
  const res = await http(base, 'GET', `/api/runs/details/${runId}`, { key });
  expect(res.status).toBe(200);
  return res.body;
}
