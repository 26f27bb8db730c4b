import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where test data dirs go: /dev/shm (memory) when the machine has it, so SQLite's fsyncs cost
 * nothing in tests that do not measure durability; the system temp dir otherwise.
 */
const TEST_ROOT = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();

/** A fresh temporary data dir. */
export const tempDir = (prefix = 'stepwise-test-'): string => fs.mkdtempSync(path.join(TEST_ROOT, prefix));
