import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/setup/sequencer.js';

const POSTGRES = ['test/setup/postgres-global.ts'];
/** Projects that open the embedded store need dist/ for its writer thread. */
const DIST = ['test/setup/dist-global.ts'];
/** The dashboard's browser tests need the built UI too. */
const UI = ['test/setup/ui-global.ts'];
/**
 * Projects are chosen by file name, never by list: `*.unit.test.ts` is a pure test (no
 * database) wherever it lives, `*.both.test.ts` compares SQLite and PostgreSQL in one file
 * (so it runs where PostgreSQL is, in `postgres` only).
 */
const UNIT = 'test/**/*.unit.test.ts';
const BOTH_ENGINES = 'test/**/*.both.test.ts';

/**
 * The test projects. `npm test` runs all but `e2e` (the developer loop); `npm run test:e2e`
 * runs `e2e`, the spawned-server, soak, flood and kill tests. Only the projects that need
 * PostgreSQL start a throwaway cluster, each its own (they never run in one Vitest run).
 *
 * - unit: pure functions (domain rules, parsing, dialect helpers): no database, no server.
 * - ui: the dashboard's pure modules (chart model, filters, parsers) in Node, no browser.
 * - sqlite: the API scenarios and the store conformance suites on the embedded store.
 * - postgres: the API scenarios again and the conformance suites on PostgreSQL, plus the
 *   store tests that compare both engines.
 * - blobs: the blob-store suite on the local directory and on S3 (s3rver in-process).
 * - browser: the dashboard in Debian's Chromium against a spawned server.
 * - e2e: real `stepwise serve` processes over loopback HTTP (long: soak, floods, kills).
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core less one: a single worker on this 2-core
    // machine. The API and store tests wait on SQLite fsyncs and on PostgreSQL (its own
    // processes) about half the time, so three workers keep both cores busy.
    maxWorkers: 3,
    // A worker keeps its imported modules from one file to the next (the import of src/
    // took ~1.5 s a file, 126 s a run). Test files share no state through modules: each
    // builds its own stores and app.
    isolate: false,
    reporters: ['default', './test/setup/project-times.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'test/domain/**/*.test.ts',
            'test/ingest/**/*.test.ts',
            'test/blob/**/*.test.ts',
            // Pure store helpers (dialect strings, chunk codec, stats cache, batch columns).
            UNIT,
          ],
        },
      },
      {
        extends: true,
        // Tests sit next to their module as `*.test.ts`; Vite's build never reaches them.
        test: { name: 'ui', include: ['ui/src/**/*.test.ts'], environment: 'node' },
        // As in ui/vite.config.ts: the dashboard's modules reach the server's sources as @server/*.
        resolve: { alias: { '@server': fileURLToPath(new URL('./src', import.meta.url)) } },
      },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/api/**/*.test.ts', 'test/conformance/*.sqlite.test.ts', 'test/store/**/*.test.ts'],
          exclude: [UNIT, BOTH_ENGINES],
          globalSetup: DIST,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/api/**/*.test.ts', 'test/conformance/*.postgres.test.ts', BOTH_ENGINES],
          exclude: [UNIT],
          globalSetup: [...DIST, ...POSTGRES],
          env: { STEPWISE_TEST_DATABASE: 'postgres' },
        },
      },
      {
        extends: true,
        test: { name: 'blobs', include: ['test/conformance/blob-store.*.test.ts'], globalSetup: DIST },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // One server and one Chromium for all files; each file has its own organization.
          globalSetup: [...DIST, ...UI, 'test/setup/browser-global.ts'],
          // Its files share the workers with the other projects' files (no group of their own):
          // while a page waits on Chromium, an API test uses the core.
          // expect.poll waits for a page to reach a state, as a locator's waitFor does (30 s by
          // default); Vitest's own default of 1 s failed such waits on a loaded machine. A test
          // whose subject is how soon something shows gives its own timeout.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: [...DIST, ...POSTGRES],
          // One file at a time: these suites measure latency and memory of a server process.
          fileParallelism: false,
        },
      },
    ],
  },
});
