/**
 * The config values of GET /api/runs/groups (`configKeys=`, docs/api.md §13): per group and
 * dotted config key, how many distinct values its runs hold (a run without the key holds
 * null) and the first MAX_CONFIG_VALUES of them in key order, read in the same query as the
 * group fields.
 */
import { compareGroupValues, type GroupValue } from '../domain/group-by.js';
import { MAX_CONFIG_KEYS } from '../domain/config-keys.js';
import { badRequest, resultTooLarge } from '../errors.js';
import { listOf } from './run-search.js';

/** Distinct values listed per group and key at most (`count` is exact). */
export const MAX_CONFIG_VALUES = 10;

/** One key of a dotted path: no dot, no `"` or `\\` (the database's JSON paths cannot hold them). */
const KEY_PART = /^[^."\\]{1,256}$/;

/** A config key asked for: its name as given and its path. */
export interface ConfigKey {
  name: string;
  path: string[];
}

/** The keys of `configKeys` (comma-separated dotted keys, repeats dropped). Throws BAD_REQUEST past 100 keys or for a bad key. */
export function parseGroupConfigKeys(text: string | undefined): ConfigKey[] {
  const names = listOf(text);
  if (names.length > MAX_CONFIG_KEYS) throw badRequest(`configKeys may name at most ${MAX_CONFIG_KEYS} keys`);
  return names.map((name) => {
    const path = name.split('.');
    if (path.length > 32 || !path.every((p) => KEY_PART.test(p))) {
      throw badRequest(
        `configKeys: ${JSON.stringify(name.slice(0, 80))} is not a dotted key of at most 32 keys without " or \\`,
      );
    }
    return { name, path };
  });
}

/** Most config values (keys × matching runs) one grouping reads: about 40 MB held at once. */
export const MAX_CONFIG_CELLS = 1_000_000;

/** RESULT_TOO_LARGE when `keys` config keys of `runs` matching runs would pass MAX_CONFIG_CELLS values. */
export function checkConfigCells(keys: number, runs: number): void {
  if (keys * runs <= MAX_CONFIG_CELLS) return;
  throw resultTooLarge(
    `configKeys would read ${keys} keys of ${runs.toLocaleString('en-US')} runs, more than the ` +
      `${MAX_CONFIG_CELLS.toLocaleString('en-US')} config values one grouping reads: ask for fewer keys or ` +
      'narrow the runs with filter, search, tags or status',
  );
}

/** The distinct values a group's runs hold of one key, by their JSON text. */
export type ValueSet = Map<string, GroupValue>;

/** A group's `configValues`: for each key, the count of distinct values and the first MAX_CONFIG_VALUES in key order. */
export function configValuesOf(
  keys: readonly ConfigKey[],
  sets: readonly ValueSet[],
): Record<string, { count: number; values: GroupValue[] }> {
  return Object.fromEntries(
    keys.map((k, i) => {
      const values = [...sets[i]!.values()].sort(compareGroupValues);
      return [k.name, { count: values.length, values: values.slice(0, MAX_CONFIG_VALUES) }];
    }),
  );
}

/** Bytes a key's `configValues` entry takes at most: its first MAX_CONFIG_VALUES values' texts and the frame. */
export function configValuesBytes(set: ValueSet): number {
  let bytes = 40;
  let n = 0;
  for (const text of set.keys()) {
    if (n++ === MAX_CONFIG_VALUES) break;
    bytes += Buffer.byteLength(text) + 1;
  }
  return bytes;
}
