/** The `runs` parameter of the compare page. */

/** The API compares at most this many runs. */
export const MAX_COMPARE = 100;

/** Ids in order without repeats (at most 100), the tokens that are not ids, and how many ids were cut. */
export interface ParsedRunIds {
  ids: number[];
  invalid: string[];
  dropped: number;
}

/** Splits `1,2, 3` into run ids; anything but digits (or an id past 2^53) is invalid. */
export function parseRunIds(text: string): ParsedRunIds {
  const ids: number[] = [];
  const invalid: string[] = [];
  for (const token of text.split(',').map((t) => t.trim())) {
    if (token === '') continue;
    const id = Number(token);
    if (!/^\d+$/.test(token) || !Number.isSafeInteger(id) || id < 1) invalid.push(token);
    else if (!ids.includes(id)) ids.push(id);
  }
  return { ids: ids.slice(0, MAX_COMPARE), invalid, dropped: Math.max(0, ids.length - MAX_COMPARE) };
}
