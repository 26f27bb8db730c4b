/**
 * Helpers of the MetadataStore conformance suite: a fresh store per test, create-run
 * inputs with defaults, two organizations to test tenancy with, and error assertions.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { Run, RunStatus } from '../../src/domain/types.js';
import { AppError } from '../../src/errors.js';
import type { CreateRunInput, MetadataStore, StatusWrite } from '../../src/store/metadata-store.js';

/** Opens a fresh, isolated, migrated store; close() releases it. */
export type OpenMetadataStore = () => Promise<{ metadata: MetadataStore; close: () => Promise<void> }>;

/** A fixed epoch-ms base time, so stored times are exact. */
export const T0 = 1_700_000_000_000;

/** Returns a test body that runs fn on a fresh store and always closes it. */
export function withStore(open: OpenMetadataStore, fn: (s: MetadataStore) => Promise<void>): () => Promise<void> {
  return async () => {
    const store = await open();
    try {
      await fn(store.metadata);
    } finally {
      await store.close();
    }
  };
}

/** Two organizations (`acme`, `globex`) with one user each. */
export interface TwoOrgs {
  org: number;
  other: number;
  user: number;
  otherUser: number;
}

/** Creates the organizations `acme` and `globex`, each with a user `alice`. */
export async function twoOrgs(s: MetadataStore): Promise<TwoOrgs> {
  const org = await s.ensureOrganization('acme', T0);
  const other = await s.ensureOrganization('globex', T0);
  return { org, other, user: await s.ensureUser(org, 'alice', T0), otherUser: await s.ensureUser(other, 'alice', T0) };
}

/** Returns a create-run input with neutral defaults, overridden by `over`. */
export function runInput(orgId: number, projectName: string, over: Partial<CreateRunInput> = {}): CreateRunInput {
  return {
    orgId,
    projectName,
    name: 'run',
    externalId: null,
    tags: [],
    config: null,
    configPatch: undefined,
    systemMetadata: null,
    loggerSettings: null,
    createdAt: T0,
    updatedAt: T0,
    fork: null,
    ...over,
  };
}

/** Creates a run and returns it (asserting it is new). */
export async function newRun(
  s: MetadataStore,
  orgId: number,
  projectName: string,
  over: Partial<CreateRunInput> = {},
): Promise<Run> {
  const { run, resumed } = await s.createRun(runInput(orgId, projectName, over));
  expect(resumed).toBe(false);
  return run;
}

/** Returns an `api` status write with nothing else to store. */
export const apiWrite = (status: RunStatus, at: number, over: Partial<StatusWrite> = {}): StatusWrite => ({
  status,
  statusMetadata: undefined,
  loggerSettings: undefined,
  source: 'api',
  at,
  ...over,
});

/** What a store call did: its value, or the code of the AppError it threw (anything else fails). */
export type Outcome = { value: unknown } | { code: string };

/** Runs a call and returns its outcome. */
export async function outcome(call: Promise<unknown>): Promise<Outcome> {
  try {
    return { value: await call };
  } catch (err) {
    expect(err, 'a store throws AppError values').toBeInstanceOf(AppError);
    return { code: err instanceof AppError ? err.code : 'not an AppError' };
  }
}

/** Asserts the call rejects with an AppError whose code is NOT_FOUND. */
export async function expectNotFound(call: Promise<unknown>, label?: string): Promise<void> {
  const result = await outcome(call);
  expect(result, label).toEqual({ code: 'NOT_FOUND' });
}

/** Returns the SHA-256 of a text as lower-case hex, as keys are stored. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Returns the status events of a run as `from→to:source` strings, oldest first. */
export async function timeline(s: MetadataStore, orgId: number, runId: number): Promise<string[]> {
  const events = await s.listStatusEvents(orgId, runId);
  return events.map((e) => `${e.fromStatus ?? 'null'}→${e.toStatus}:${e.source}`);
}
