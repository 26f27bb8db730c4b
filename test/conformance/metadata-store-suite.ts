/**
 * The MetadataStore conformance suite: every backend runs it (SQLite now, PostgreSQL later),
 * each test on a fresh, isolated store from `open`. It calls the store directly, no HTTP.
 */
import { describe } from 'vitest';
import { isolationCases } from './metadata-isolation-cases.js';
import { keyCases } from './metadata-key-cases.js';
import { lineageCases } from './metadata-lineage-cases.js';
import { projectCases } from './metadata-project-cases.js';
import { runCreateCases } from './metadata-run-create-cases.js';
import { runFindCases } from './metadata-run-find-cases.js';
import { runTextCases } from './metadata-run-text-cases.js';
import { runUpdateCases } from './metadata-run-update-cases.js';
import { sessionCases } from './metadata-session-cases.js';
import { staleCases } from './metadata-stale-cases.js';
import { statusCases } from './metadata-status-cases.js';
import type { OpenMetadataStore } from './metadata-suite-helpers.js';

export type { OpenMetadataStore } from './metadata-suite-helpers.js';

/** Registers the conformance tests of a MetadataStore backend under `name`. */
export function metadataStoreSuite(name: string, open: OpenMetadataStore): void {
  describe(`MetadataStore conformance (${name})`, () => {
    keyCases(open);
    sessionCases(open);
    projectCases(open);
    runCreateCases(open);
    runFindCases(open);
    runTextCases(open);
    statusCases(open);
    runUpdateCases(open);
    lineageCases(open);
    isolationCases(open);
    staleCases(open);
  });
}
