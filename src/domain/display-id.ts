/**
 * Display ids (`MMP-12`): the per-organization prefix derived from a project name
 * (docs/api.md §3.4) and the `<PREFIX>-<NUMBER>` text form.
 */

const SEPARATORS = /[-_.\s]+/u;
/** Characters a name contributes nothing for: neither a letter, a digit nor a separator. */
const IGNORED = /[^\p{L}\p{N}\-_.\s]/gu;
/** Characters a prefix may not hold: anything parseDisplayId would not read back. */
const NOT_PREFIX = /[^\p{L}\p{N}]/gu;
const MAX_PREFIX = 4;
const DISPLAY_ID = /^([\p{L}\p{N}]{1,4})-([1-9][0-9]*)$/u;

/** Characters by code point, so slicing never splits a surrogate pair. */
const chars = (text: string): string[] => Array.from(text);

/**
 * Upper-cases, keeps letters and digits only (upper-casing can add a combining mark:
 * `ΐ` → `Ϊ́`) and cuts to 4 code points (upper-casing can lengthen: `ß` → `SS`).
 */
const finish = (prefix: string): string =>
  chars(prefix.toUpperCase().replace(NOT_PREFIX, '')).slice(0, MAX_PREFIX).join('');

/**
 * Returns the display-id prefix for a project name: `RUN` when it has no parts, else 1 to 4
 * upper-cased letters and digits following docs/api.md §3.4, after dropping every character that
 * is neither a letter, a digit nor a separator (`#hash` → `HAS`, `😀 party` → `PAR`), so
 * parseDisplayId reads every prefix back. Never throws; the prefix is not unique.
 */
export function derivePrefix(projectName: string): string {
  const parts = projectName
    .replace(IGNORED, '')
    .split(SEPARATORS)
    .filter((part) => part !== '');
  const last = parts[parts.length - 1];
  if (last === undefined) return 'RUN';
  const initials = parts.map((part) => chars(part)[0] ?? '');
  const prefix =
    parts.length === 1
      ? finish(chars(last).slice(0, 3).join(''))
      : finish([...initials, ...chars(last).slice(1, 1 + Math.max(0, 3 - initials.length))].join(''));
  return prefix === '' ? 'RUN' : prefix;
}

/** The numbered candidates of docs/api.md §3.4 stop at 999: from 1000 on, `base + n` keeps none of the base. */
const MAX_NUMBERED = 999;

/**
 * Returns the n-th candidate for a prefix: `base` for n = 1, else `base` cut so that
 * `base + n` fits 4 characters (`MMPV`, 2 → `MMP2`). Throws RangeError unless 1 ≤ n ≤ 999
 * (a larger n would leave a bare number, shared by every name).
 */
export function prefixCandidate(base: string, n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_NUMBERED) {
    throw new RangeError(`prefix candidate number must be an integer from 1 to ${MAX_NUMBERED}, got ${n}`);
  }
  if (n === 1) return base;
  const digits = String(n);
  return (
    chars(base)
      .slice(0, MAX_PREFIX - digits.length)
      .join('') + digits
  );
}

/** What the candidates past the numbered ones are made of after the start of the base. */
const FILL = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The `index`-th string of `length` FILL characters, in FILL order (base 36, zero-padded). */
function fill(index: number, length: number): string {
  let out = '';
  for (let i = 0, rest = index; i < length; i++, rest = Math.floor(rest / FILL.length)) {
    out = FILL[rest % FILL.length]! + out;
  }
  return out;
}

/**
 * The prefixes a project with this derived base tries, in order (docs/api.md §3.4): `base`,
 * `base + 2` … `base + 999`, then the first 3, 2 and 1 characters of the base followed by
 * every fill of letters and digits up to 4 characters (about 48,000 in all). Every one
 * starts with the base's first character, so none is a bare number unless the name is.
 */
export function* prefixCandidates(base: string): Generator<string> {
  for (let n = 1; n <= MAX_NUMBERED; n++) yield prefixCandidate(base, n);
  const letters = chars(base);
  for (let keep = Math.min(3, letters.length); keep >= 1; keep--) {
    const start = letters.slice(0, keep).join('');
    const length = MAX_PREFIX - keep;
    for (let i = 0; i < FILL.length ** length; i++) yield start + fill(i, length);
  }
}

/**
 * The first of prefixCandidates(base) that `taken` does not hold, or undefined when every
 * one is taken. `taken` needs only the prefixes that start with the base's first character.
 */
export function firstFreePrefix(base: string, taken: ReadonlySet<string>): string | undefined {
  for (const candidate of prefixCandidates(base)) if (!taken.has(candidate)) return candidate;
  return undefined;
}

/** The first character (code point) of a prefix: what every candidate of a base shares. */
export const prefixStart = (prefix: string): string => chars(prefix)[0] ?? '';

/**
 * Parses `<PREFIX>-<NUMBER>` case-insensitively: prefix 1–4 letters or digits (returned
 * upper-cased), number a positive safe integer without sign or leading zeros; else undefined.
 */
export function parseDisplayId(text: string): { prefix: string; number: number } | undefined {
  const match = DISPLAY_ID.exec(text);
  if (match === null || match[1] === undefined || match[2] === undefined) return undefined;
  const number = Number(match[2]);
  if (!Number.isSafeInteger(number)) return undefined;
  const prefix = match[1].toUpperCase();
  if (chars(prefix).length > MAX_PREFIX) return undefined;
  return { prefix, number };
}

/** Returns `<prefix>-<number>`; does no validation (use a prefix from derivePrefix). */
export function formatDisplayId(prefix: string, number: number): string {
  return `${prefix}-${number}`;
}
