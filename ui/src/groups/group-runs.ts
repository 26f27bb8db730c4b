/**
 * The runs list narrowing that lists one group's runs: the view's own narrowing plus, per
 * field of the group's key, `config.<key>` equal to its value (unset for null), the status,
 * or the `group:<name>` tag.
 */
import type { RunNarrowing } from '../api/run-list-queries';

type KeyValue = string | number | boolean | null;

/**
 * The narrowing of the runs of the group with `key`, or undefined when a field cannot be
 * expressed as one (runs without a `group:` tag: no filter lists them).
 */
export function groupNarrowing(
  base: RunNarrowing,
  groupBy: readonly string[],
  key: Record<string, KeyValue>,
): RunNarrowing | undefined {
  const parts: unknown[] = [];
  let status = base.status ?? [];
  let tags = base.tags ?? [];
  for (const field of groupBy) {
    const value = key[field] ?? null;
    if (field === 'status') {
      if (typeof value !== 'string') return undefined;
      status = [value];
    } else if (field === 'group') {
      if (value === null) return undefined;
      tags = [...tags, `group:${String(value)}`];
    } else {
      parts.push(value === null ? { [field]: { $exists: false } } : { [field]: { $eq: value } });
    }
  }
  if (base.filter?.trim()) {
    try {
      parts.unshift(JSON.parse(base.filter));
    } catch {
      return undefined;
    }
  }
  const filter = parts.length === 0 ? '' : JSON.stringify(parts.length === 1 ? parts[0] : { $and: parts });
  return { search: base.search, status, tags, filter };
}
