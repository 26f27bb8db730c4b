/**
 * Integers written as text (query strings, path parameters, headers): decimal digits with
 * an optional leading minus, nothing else. `0x10`, `1e3`, `+1`, ` 1` and `1.0` are not
 * integers here, although Number() would read them as such.
 */

/** Decimal integer text: an optional `-` then digits only. */
export const DECIMAL_INTEGER = /^-?[0-9]+$/;

/** Returns the run id that `text` spells in decimal digits, or undefined (not digits, or beyond the safe integers). */
export function parseRunIdText(text: string): number | undefined {
  if (!/^[0-9]+$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}
