/**
 * The SeriesStore conformance suite: every backend runs it (SQLite now, PostgreSQL later),
 * each test on a fresh, isolated store from `open`.
 */
import { describe } from 'vitest';
import { forkCases } from './series-fork-cases.js';
import { linesCases } from './series-lines-cases.js';
import { metricCases } from './series-metric-cases.js';
import { propertyCases } from './series-property-cases.js';
import { rankCases } from './series-rank-cases.js';
import { samplingCases } from './series-sampling-cases.js';
import { systemCases } from './series-system-cases.js';
import type { OpenSeriesStore } from './series-suite-helpers.js';

export type { OpenSeriesStore } from './series-suite-helpers.js';

/** Registers the conformance tests of a SeriesStore backend under `name`. */
export function seriesStoreSuite(name: string, open: OpenSeriesStore): void {
  describe(`SeriesStore conformance (${name})`, () => {
    metricCases(open);
    forkCases(open);
    propertyCases(open);
    linesCases(open);
    samplingCases(open);
    systemCases(open);
    rankCases(open);
  });
}
