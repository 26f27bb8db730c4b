import Sqids from 'sqids';

const sqids = new Sqids({
  minLength: 5,
  alphabet: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
});

/** SQIDs already encoded, by run id (an encode takes 15-60 µs: 200 of them were ~10% of a runs list). */
const encoded = new Map<number, string>();
/** Entries `encoded` keeps before it starts afresh (~2 MB). */
const MAX_ENCODED = 20_000;

/** The SQID of a run id (docs/api.md §3.7: minimum length 5, alphabet a-z A-Z 0-9). */
export function encodeRunId(runId: number): string {
  let sqid = encoded.get(runId);
  if (sqid === undefined) {
    sqid = sqids.encode([runId]);
    if (encoded.size >= MAX_ENCODED) encoded.clear();
    encoded.set(runId, sqid);
  }
  return sqid;
}

/**
 * The run id a SQID stands for, or undefined when the text is not the canonical SQID of
 * exactly one non-negative integer (so every run has one accepted spelling).
 */
export function decodeRunId(text: string): number | undefined {
  if (!/^[a-zA-Z0-9]{5,64}$/.test(text)) return undefined;
  const ids = sqids.decode(text);
  if (ids.length !== 1) return undefined;
  const id = ids[0];
  if (id === undefined || !Number.isSafeInteger(id) || encodeRunId(id) !== text) return undefined;
  return id;
}
