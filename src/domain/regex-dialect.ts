/**
 * The one regular-expression dialect run search accepts, checked here and rewritten to a
 * canonical pattern that PostgreSQL's `~` (ARE) and RE2 (re2js on SQLite) read the same way:
 *
 * - literals; `.` (any character, newline included); `^` and `$` (start and end of the text);
 *   groups `( )` and `(?: )`; alternation `|`; quantifiers `* + ? {n} {n,} {n,m}` (n, m ≤ 100);
 * - bracket expressions `[abc]`, `[^a-z]` (inside: `\]`, `\\`, `\-`, `\^`, `\[` for those
 *   characters, `\d \w \s`); `\d \w \s \D \W \S` (ASCII: `[0-9]`, `[0-9A-Za-z_]`,
 *   `[\t\n\v\f\r ]`); `\t \n \r \f \v`; a backslash before any other punctuation;
 * - not accepted (400): backreferences, lookaround, named groups, inline flags, `\b`,
 *   Unicode classes, POSIX `[:classes:]`, lazy/possessive quantifiers, empty alternatives.
 *
 * Matching is unanchored (a match anywhere). Case-insensitive matching (`$options: "i"`)
 * folds ASCII letters only, by rewriting each letter to `[xX]`, so no engine flag differs.
 * Patterns are at most 256 characters and "weigh" at most 1,000 (counted repeats multiply),
 * which keeps both engines' compiled automata small; both match in time linear in the text.
 */
import { badRequest } from '../errors.js';

/** Longest pattern accepted, in characters. */
export const MAX_REGEX_LENGTH = 256;
/** Largest bound of a counted repeat `{n,m}`. */
export const MAX_REPEAT = 100;
/** Largest weight of a pattern: atoms, with counted repeats multiplying what they repeat. */
export const MAX_REGEX_WEIGHT = 1000;

const META = new Set([...'\\.^$|?*+()[]{}']);
const IN_CLASS_ESCAPED = new Set([...']\\[^-']);
const CONTROL: Record<string, string> = { t: '\\t', n: '\\n', r: '\\r', f: '\\f', v: '\\v' };
const SHORTHAND: Record<string, string> = { d: '0-9', w: '0-9A-Za-z_', s: '\\t\\n\\v\\f\\r ' };
const isLetter = (c: string) => /^[A-Za-z]$/.test(c);
const isPunct = (c: string) => /^[!-/:-@[-`{-~]$/.test(c);
const swapCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

class Parser {
  private i = 0;
  private readonly s: string[];

  constructor(
    pattern: string,
    private readonly ci: boolean,
  ) {
    this.s = [...pattern];
  }

  private fail(why: string): never {
    throw badRequest(`$regex is not supported: ${why} (at character ${this.i + 1})`);
  }

  private peek = () => this.s[this.i];

  /** The whole pattern; returns [canonical text, weight]. */
  parse(): [string, number] {
    if (this.s.length === 0) return ['', 0];
    const out = this.alternation(0);
    if (this.i < this.s.length) this.fail(`unbalanced ${this.peek()}`);
    return out;
  }

  private alternation(depth: number): [string, number] {
    const parts: string[] = [];
    let weight = 0;
    for (;;) {
      const [text, w] = this.concatenation(depth);
      if (text === '') this.fail('empty alternatives and empty groups are not accepted');
      parts.push(text);
      weight += w;
      if (this.peek() !== '|') return [parts.join('|'), weight];
      this.i++;
    }
  }

  private concatenation(depth: number): [string, number] {
    let text = '';
    let weight = 0;
    while (this.i < this.s.length && this.peek() !== '|' && this.peek() !== ')') {
      const [atom, w, quantifiable] = this.atom(depth);
      const [quant, times] = this.quantifier(quantifiable);
      text += atom + quant;
      weight += w * times;
    }
    return [text, weight];
  }

  private atom(depth: number): [string, number, boolean] {
    const c = this.s[this.i++]!;
    if (c === '(') {
      if (depth >= 20) this.fail('groups nest deeper than 20');
      if (this.peek() === '?') {
        if (this.s[this.i + 1] !== ':') this.fail('lookaround, named groups and inline flags are not accepted');
        this.i += 2;
      }
      const [inner, w] = this.alternation(depth + 1);
      if (this.s[this.i++] !== ')') this.fail('a group is not closed');
      return [`(?:${inner})`, w, true];
    }
    if (c === '[') return [this.bracket(), 1, true];
    if (c === '^' || c === '$') return [c, 1, false];
    if (c === '.') return ['.', 1, true];
    if (c === '\\') return [this.escape(), 1, true];
    if (c === ')') this.fail('unbalanced )');
    if (META.has(c)) this.fail(`${c} must be escaped as \\${c} (or follow something it can repeat)`);
    return [this.literal(c), 1, true];
  }

  private literal(c: string): string {
    return this.ci && isLetter(c) ? `[${c}${swapCase(c)}]` : c;
  }

  private escape(): string {
    const c = this.s[this.i++];
    if (c === undefined) this.fail('the pattern ends with a lone backslash');
    if (SHORTHAND[c.toLowerCase()] !== undefined) {
      return `[${c === c.toUpperCase() ? '^' : ''}${SHORTHAND[c.toLowerCase()]}]`;
    }
    if (CONTROL[c] !== undefined) return CONTROL[c];
    if (META.has(c)) return `\\${c}`;
    if (isPunct(c)) return c;
    return this.fail(`\\${c} is not accepted (no backreferences, word boundaries or Unicode classes)`);
  }

  /** A bracket expression after its `[`; returns its canonical text. */
  private bracket(): string {
    let negate = '';
    if (this.peek() === '^') {
      negate = '^';
      this.i++;
    }
    const items: string[] = [];
    while (this.peek() !== ']') {
      if (this.i >= this.s.length) this.fail('a bracket expression is not closed');
      const lo = this.classChar();
      if (lo.length > 1) {
        items.push(lo);
        continue;
      }
      if (this.peek() === '-' && this.s[this.i + 1] !== ']' && this.s[this.i + 1] !== undefined) {
        this.i++;
        const hi = this.classChar();
        if (hi.length > 1 || hi.codePointAt(0)! < lo.codePointAt(0)!) this.fail(`bad range ${lo}-${hi}`);
        items.push(this.range(lo, hi));
      } else {
        items.push(this.classLiteral(lo));
      }
    }
    this.i++;
    if (items.length === 0) this.fail('empty bracket expression');
    return `[${negate}${items.join('')}]`;
  }

  /** One character of a bracket expression, or an expanded shorthand (several characters). */
  private classChar(): string {
    const c = this.s[this.i++]!;
    if (c === '[') this.fail('[ inside a bracket expression must be escaped as \\[');
    if (c !== '\\') return c;
    const e = this.s[this.i++];
    if (e === undefined) this.fail('the pattern ends with a lone backslash');
    if (SHORTHAND[e] !== undefined) return SHORTHAND[e];
    if (SHORTHAND[e.toLowerCase()] !== undefined) this.fail(`\\${e} is not accepted inside a bracket expression`);
    if (CONTROL[e] !== undefined) return CONTROL[e];
    if (isPunct(e)) return e;
    return this.fail(`\\${e} is not accepted inside a bracket expression`);
  }

  private classLiteral(c: string): string {
    const text = IN_CLASS_ESCAPED.has(c) ? `\\${c}` : c;
    return this.ci && isLetter(c) ? `${text}${swapCase(c)}` : text;
  }

  private range(lo: string, hi: string): string {
    const esc = (c: string) => (IN_CLASS_ESCAPED.has(c) ? `\\${c}` : c);
    let text = `${esc(lo)}-${esc(hi)}`;
    if (!this.ci) return text;
    for (let cp = lo.codePointAt(0)!; cp <= Math.min(hi.codePointAt(0)!, 0x7a); cp++) {
      const c = String.fromCodePoint(cp);
      if (isLetter(c)) text += swapCase(c);
    }
    return text;
  }

  /** A quantifier after an atom, if any: [canonical text, how many copies it weighs]. */
  private quantifier(quantifiable: boolean): [string, number] {
    const c = this.peek();
    if (c !== '*' && c !== '+' && c !== '?' && c !== '{') return ['', 1];
    if (!quantifiable) this.fail(`${c} has nothing to repeat`);
    let text: string;
    let times: number;
    if (c === '{') {
      const m = /^\{(\d{1,3})(,(\d{0,3}))?\}/.exec(this.s.slice(this.i, this.i + 9).join(''));
      if (!m) this.fail('{ must start a repeat {n}, {n,} or {n,m}, or be escaped as \\{');
      const n = Number(m[1]);
      const max = m[2] === undefined ? n : m[3] === '' ? undefined : Number(m[3]);
      if (n > MAX_REPEAT || (max ?? 0) > MAX_REPEAT) this.fail(`repeat counts above ${MAX_REPEAT}`);
      if (max !== undefined && max < n) this.fail(`{${n},${max}} repeats fewer times than it must`);
      this.i += m[0].length;
      text = m[0];
      times = Math.max(1, max ?? n + 1);
    } else {
      this.i++;
      text = c;
      times = 1;
    }
    const next = this.peek();
    if (next === '*' || next === '+' || next === '?' || next === '{') {
      this.fail('a quantifier cannot follow another (no lazy or possessive forms; group to nest)');
    }
    return [text, times];
  }
}

/**
 * Checks a `$regex` pattern against the accepted dialect and returns its canonical form
 * (what both engines are given). `caseInsensitive` folds ASCII letters. Throws BAD_REQUEST
 * naming the problem: too long, too heavy, or a construct outside the dialect.
 */
export function canonicalRegex(pattern: string, caseInsensitive: boolean): string {
  if ([...pattern].length > MAX_REGEX_LENGTH) {
    throw badRequest(`$regex is longer than ${MAX_REGEX_LENGTH} characters`);
  }
  const [text, weight] = new Parser(pattern, caseInsensitive).parse();
  if (weight > MAX_REGEX_WEIGHT) {
    throw badRequest(`$regex is too complex: its repeats expand past ${MAX_REGEX_WEIGHT} atoms`);
  }
  return text;
}
