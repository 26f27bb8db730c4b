/** `stepwise <command> --help` prints the usage and starts nothing (a server on 3000 writing ./stepwise-data before). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('stepwise --help', () => {
  for (const argv of [
    ['--help'],
    ['-h'],
    ['help'],
    ['serve', '--help'],
    ['serve', '--port', '3419', '-h'],
    ['keys', '--help'],
  ]) {
    it(`prints the usage for ${argv.join(' ')}`, async () => {
      const written: string[] = [];
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
      await main(argv);
      expect(written.join('')).toMatch(/^usage: stepwise <command>\n {2}serve \[--port P\]/);
      expect(process.exitCode ?? 0).toBe(0);
    });
  }
});
