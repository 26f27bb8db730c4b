import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from './build-dist.js';

const UI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'ui');
const STAMP = path.join(UI, 'dist', '.build-stamp');

/** The newest modification time of the dashboard's build inputs (unit tests are not inputs). */
function newestInput(): number {
  let newest = 0;
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  visit(path.join(UI, 'src'));
  visit(path.join(UI, 'public'));
  for (const f of ['index.html', 'vite.config.ts', 'package.json']) {
    newest = Math.max(newest, fs.statSync(path.join(UI, f)).mtimeMs);
  }
  return newest;
}

/**
 * Builds ui/dist (Vite) once for all test files when any input is newer than the last build,
 * so the browser tests drive the dashboard as it is in the working tree. Rejects on a
 * failed build: a stale dashboard would test old pages.
 */
export function buildUi(): Promise<void> {
  return withBuildLock('ui-build', async () => {
    const started = Date.now();
    if ((fs.statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0) >= newestInput()) return;
    await new Promise<void>((resolve, reject) =>
      // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
      execFile(
        'npx',
        ['vite', 'build'],
        { cwd: UI, timeout: 240_000, env: { ...process.env, NODE_ENV: 'production' } },
        (err, stdout, stderr) => (err ? reject(new Error(`vite build failed:\n${stdout}${stderr}`)) : resolve()),
      ),
    );
    fs.writeFileSync(STAMP, '');
    fs.utimesSync(STAMP, started / 1000, started / 1000);
  });
}
