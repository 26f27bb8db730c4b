/**
 * Display-id prefixes of an organization with 9,999 projects of one derived prefix, as
 * releases before issue 25 left them (`MTE`, `MTE2` … `M999`, then the bare numbers
 * `1000` … `9999`): the next project of that prefix is created (it was a 500) with a prefix
 * that keeps the name's first letter, in one query however many are taken, and the
 * bare-number prefixes already given keep resolving. Both engines.
 */
import { describe, expect, it } from 'vitest';
import { prefixCandidate } from '../../src/domain/display-id.js';
import { migrate } from '../../src/store/migrations/index.js';
import { SqlMetadataStore } from '../../src/store/sql/metadata-store.js';
import { runInput } from '../conformance/metadata-suite-helpers.js';
import { rawEngines } from '../helpers/test-database.js';

const engines = rawEngines('stepwise-display-id-');

/** The prefix the n-th project of base MTE got before: numbered to 999, then the bare number. */
const oldPrefix = (n: number): string => (n <= 999 ? prefixCandidate('MTE', n) : String(n));

describe.each(engines)('display-id prefixes past 9,999 projects of one prefix ($name)', ({ name, open }) => {
  it('the next project gets a prefix of its own at once, and the old bare-number ones still resolve', async () => {
    const { db, done } = await open();
    try {
      await migrate(db);
      const store = new SqlMetadataStore(db);
      const org = await store.ensureOrganization('acme', 1);
      const rows = Array.from({ length: 9999 }, (_, i) => [org, `mte${i + 1}`, oldPrefix(i + 1), 1, 1, 1]);
      // Only `?`s in VALUES: PostgreSQL then inserts the rows in bulk, not one statement a row.
      await db.runMany(
        'INSERT INTO projects (org_id, name, prefix, next_number, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        rows,
      );
      const started = performance.now();
      const { run } = await store.createRun(runInput(org, 'mte10000th'));
      const ms = performance.now() - started;
      console.log(`[display ids] ${name}: the 10,000th project of prefix MTE created in ${ms.toFixed(1)} ms`);
      expect(run.displayId).toBe('MTE0-1');
      const again = await store.createRun(runInput(org, 'mte10001th'));
      expect(again.run.displayId).toBe('MTE1-1');

      const old = await store.createRun(runInput(org, 'mte1000'));
      expect(old.run.displayId).toBe('1000-1');
      expect((await store.findRunByDisplayId(org, '1000', 1))?.id).toBe(old.run.id);
      expect((await store.findRunByDisplayId(org, 'MTE0', 1))?.id).toBe(run.id);
    } finally {
      await db.close();
      await done();
    }
  });
});
