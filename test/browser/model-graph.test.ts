/**
 * The run page's Model graph tab in Chromium against a spawned server: a graph stored with
 * `modelGraph/create` (nodes keyed by dotted module names, edges inside nodes) shows as a
 * tree; expanding a parent (by mouse and by keyboard) shows nested nodes with types, shapes
 * and parameter counts; "Search graph" finds a deep node and expands its ancestors; a run
 * without a graph shows how to log one; phone width and the dark theme.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { createRunHttp, noSidewaysScroll } from '../helpers/browser-seed.js';
import { http } from '../helpers/http-client.js';

const PROJECT = 'model-graph-demo';

const layer = (i: number) => ({
  [`encoder.layers.${i}`]: { type: 'TransformerLayer' },
  [`encoder.layers.${i}.attn`]: {
    type: 'MultiheadAttention',
    params: { in_proj_weight: [192, 64], in_proj_bias: [192] },
    input_shape: [1, 16, 64],
    output_shape: [1, 16, 64],
    edges: [[`encoder.layers.${i}.attn`, `encoder.layers.${i}.mlp`]],
  },
  [`encoder.layers.${i}.mlp`]: {
    type: 'Linear',
    params: { weight: [64, 64], bias: [64] },
    output_shape: [1, 16, 64],
    edges: [],
  },
});

const GRAPH = {
  format: 'torch',
  nodes: {
    encoder: { type: 'Encoder' },
    'encoder.embed': {
      type: 'Embedding',
      params: { weight: [1000, 64] },
      output_shape: [1, 16, 64],
      edges: [['encoder.embed', 'encoder.layers.0.attn']],
    },
    // encoder.layers itself is not sent: the tree adds it.
    ...layer(0),
    ...layer(1),
    head: { type: 'Linear', params: { weight: [10, 64], bias: [10] }, edges: [] },
  },
};

const ATTN = 192 * 64 + 192;
const MLP = 64 * 64 + 64;
const EMBED = 1000 * 64;
const HEAD = 10 * 64 + 10;

const createRun = (base: string, key: string, runName: string): Promise<{ runId: number; path: string }> =>
  createRunHttp(base, key, { runName, projectName: PROJECT });

describe('the Model graph tab', () => {
  const dash = useDashboard();
  let withGraph: { runId: number; path: string };
  let without: { runId: number; path: string };

  beforeAll(async () => {
    withGraph = await createRun(dash.base, dash.key, 'tiny-transformer');
    without = await createRun(dash.base, dash.key, 'no-graph');
    const res = await http(dash.base, 'POST', '/api/runs/modelGraph/create', {
      key: dash.key,
      json: { runId: withGraph.runId, graph: GRAPH },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  const item = (page: Page, name: RegExp) => page.getByRole('treeitem', { name });

  async function openGraph(page: Page, path: string): Promise<void> {
    await signIn(page, dash.base, dash.key, `${path}?tab=graph`);
    await page.getByRole('tab', { name: 'Model graph' }).waitFor();
  }

  it('expands a parent to show nested nodes, by mouse and keyboard, with types, shapes and counts', async () => {
    await withPage(dash, async ({ page }) => {
      await openGraph(page, withGraph.path);
      const tree = page.getByRole('tree', { name: 'Model graph' });
      await tree.waitFor({ timeout: 15_000 });
      // Two roots, collapsed: encoder and head.
      const encoder = item(page, /^encoder Encoder/);
      expect(await encoder.getAttribute('aria-expanded')).toBe('false');
      expect(await item(page, /^head Linear/).getAttribute('aria-level')).toBe('1');
      expect(await item(page, /^head Linear/).textContent()).toContain(`${HEAD} params`);
      expect(await item(page, /^embed/).count()).toBe(0);
      // Subtree total: every parameter under encoder.
      expect(await encoder.textContent()).toContain(`${((EMBED + 2 * (ATTN + MLP)) / 1000).toFixed(1)}K params`);

      await encoder.locator('.graph-row').first().click();
      expect(await encoder.getAttribute('aria-expanded')).toBe('true');
      const embed = item(page, /^embed Embedding/);
      await embed.waitFor();
      expect(await embed.getAttribute('aria-level')).toBe('2');
      expect(await embed.textContent()).toContain('output shape: [1, 16, 64]');
      expect(await embed.textContent()).toContain('64.0K params');
      // The missing encoder.layers was added as a parent.
      const layers = item(page, /^layers/);
      expect(await layers.getAttribute('aria-expanded')).toBe('false');

      // Keyboard: Down to layers, Right expands, Right again to its first child "0", Right, Right → attn.
      await embed.focus();
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-level'))).toBe('2');
      await page.keyboard.press('ArrowRight');
      expect(await layers.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      const attn = page.locator('[role="treeitem"]:focus');
      expect(await attn.getAttribute('aria-level')).toBe('4');
      expect(await attn.textContent()).toContain('MultiheadAttention');
      expect(await attn.textContent()).toContain('input shape: [1, 16, 64]');
      // Left goes back to the parent.
      await page.keyboard.press('ArrowLeft');
      expect(await page.locator('[role="treeitem"]:focus').getAttribute('aria-level')).toBe('3');
      await screenshot(page, 'model-graph');
    });
  });

  it('finds a deep node by name and expands its ancestors', async () => {
    await withPage(dash, async ({ page }) => {
      await openGraph(page, withGraph.path);
      await page.getByRole('tree', { name: 'Model graph' }).waitFor({ timeout: 15_000 });
      await page.getByLabel('Search graph').fill('layers.1.ml');
      const mlp = item(page, /^mlp Linear/);
      await mlp.waitFor();
      expect(await mlp.count()).toBe(1);
      expect(await mlp.getAttribute('aria-level')).toBe('4');
      expect(await page.getByText('1 match', { exact: true }).count()).toBe(1);
      // Only the path to the match is shown.
      expect(await item(page, /^head/).count()).toBe(0);
      expect(await item(page, /^embed/).count()).toBe(0);
      expect(await item(page, /^encoder/).getAttribute('aria-expanded')).toBe('true');

      await page.getByLabel('Search graph').fill('nothing-like-this');
      await page.getByText('No node name contains').waitFor();
      await page.getByLabel('Search graph').fill('');
      await item(page, /^head/).waitFor();
    });
  });

  it('says how to log a graph when the run has none', async () => {
    // The API's 404 is the browser's console note, nothing else.
    await withPage(dash, { expectedStatuses: [404] }, async ({ page }) => {
      await openGraph(page, without.path);
      await page.getByText('No model graph logged').waitFor({ timeout: 15_000 });
      expect(await page.getByText('pluto.watch(model)').count()).toBe(1);
      expect(await page.getByRole('alert').count()).toBe(0);
    });
  });

  it('fits a phone in the dark theme', async () => {
    await withPage(dash, { ...PHONE, colorScheme: 'dark' }, async ({ page }) => {
      await openGraph(page, withGraph.path);
      await page.getByRole('tree', { name: 'Model graph' }).waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Expand all' }).click();
      await item(page, /^attn/).first().waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, 'model-graph-phone-dark');
    });
  });
});
