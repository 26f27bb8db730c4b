import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
const STALE_LOCK_MS = 5 * 60_000;

/** The newest modification time of the build's inputs (src/, the build config, package.json). */
function newestInput(): number {
  let newest = 0;
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  visit(path.join(ROOT, 'src'));
  for (const f of ['tsconfig.build.json', 'tsconfig.json', 'package.json']) {
    newest = Math.max(newest, fs.statSync(path.join(ROOT, f)).mtimeMs);
  }
  return newest;
}

/** Runs fn holding the lock directory `.tmp/<name>.lock`, shared by every test worker process. */
export async function withBuildLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const LOCK = path.join(ROOT, '.tmp', `${name}.lock`);
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

function tsc(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, timeout: 240_000 }, (err, stdout, stderr) =>
      resolve(err ? `${stdout}${stderr}` || err.message : undefined),
    );
  });
}

/**
 * Compiles src/ to dist/ once for all test files: workers take turns under a lock, and a
 * build newer than every input is reused, so no test's server reads dist/ while another
 * test rewrites it. A type error with a usable dist/ is a warning; no dist/ rejects.
 */
export function buildDist(): Promise<void> {
  return withBuildLock('dist-build', async () => {
    const started = Date.now();
    if ((fs.statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0) >= newestInput()) return;
    const errors = await tsc();
    if (errors !== undefined) {
      if (!fs.existsSync(path.join(ROOT, 'dist/cli/main.js')))
        throw new Error(`tsc -p tsconfig.build.json failed:\n${errors}`);
      console.warn(`tsc -p tsconfig.build.json reported errors:\n${errors}`);
      return;
    }
    fs.writeFileSync(STAMP, '');
    fs.utimesSync(STAMP, started / 1000, started / 1000);
  });
}
