/**
 * Flattening configs into dotted keys and finding the keys whose values differ: the
 * dashboard's compare table and the MCP tool compare_runs (docs/api.md §17).
 */

/**
 * `{a: {b: 1}, c: [1, 2]}` → `{"a.b": "1", "c": "[1,2]"}`: nested objects become dotted
 * keys, everything else (arrays, scalars, empty objects) a JSON text. A non-object config
 * is one entry under "(config)"; null is no entries.
 */
export function flattenConfig(config: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (value: unknown, prefix: string) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        walk(v, prefix === '' ? k : `${prefix}.${k}`);
    } else out.set(prefix === '' ? '(config)' : prefix, JSON.stringify(value));
  };
  if (config !== null) walk(config, '');
  return out;
}

/** One row of the config table: a key and each run's value text (undefined when absent). */
export interface ConfigRow {
  key: string;
  values: (string | undefined)[];
  differs: boolean;
}

/** Every key of any config, sorted by code point, with whether the runs disagree on it. */
export function configRows(configs: readonly unknown[]): ConfigRow[] {
  const flat = configs.map(flattenConfig);
  const keys = new Set<string>();
  for (const map of flat) for (const key of map.keys()) keys.add(key);
  return [...keys]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => {
      const values = flat.map((map) => map.get(key));
      return { key, values, differs: values.some((v) => v !== values[0]) };
    });
}
