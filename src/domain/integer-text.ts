/**
 * Integers written as text (query strings, path parameters, headers): decimal digits with
 * an optional leading minus and no leading zeros, nothing else. `0x10`, `1e3`, `+1`, ` 1`,
 * `1.0` and `01` are not integers here, although Number() would read them as such.
 */

/** Decimal integer text: `0`, or an optional `-` then digits not starting with 0. */
export const DECIMAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/** Returns the run id that `text` spells in decimal digits, or undefined (not such digits, or beyond the safe integers). */
export function parseRunIdText(text: string): number | undefined {
  if (!/^(0|[1-9][0-9]*)$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}
