import { describe, expect, it } from 'vitest';
import {
  derivePrefix,
  firstFreePrefix,
  formatDisplayId,
  parseDisplayId,
  prefixCandidate,
  prefixCandidates,
} from '../../src/domain/display-id.js';

describe('derivePrefix', () => {
  it.each([
    { name: 'my-ml-project', prefix: 'MMP', why: 'takes the initial of each part' },
    { name: 'training', prefix: 'TRA', why: 'takes the first three characters of a single part' },
    { name: 'image-classification', prefix: 'ICL', why: 'pads two initials from the last part' },
    { name: 'resnet-50', prefix: 'R50', why: 'pads with the digits of the last part' },
    { name: 'ai', prefix: 'AI', why: 'keeps a single part shorter than three characters' },
    { name: 'my-ml_project.v2', prefix: 'MMPV', why: 'splits on dashes, underscores and dots' },
    { name: 'a-b-c-d-e-f', prefix: 'ABCD', why: 'cuts many initials to four' },
    { name: 'deep  learning\tlab', prefix: 'DLL', why: 'splits on runs of white space' },
    { name: '--my--exp__', prefix: 'MEX', why: 'drops empty parts at the ends and in runs' },
    { name: 'x-y', prefix: 'XY', why: 'stops padding when the last part runs out' },
    { name: '', prefix: 'RUN', why: 'falls back to RUN for an empty name' },
    { name: '---', prefix: 'RUN', why: 'falls back to RUN when only separators are given' },
    { name: 'straße', prefix: 'STR', why: 'upper-cases' },
    { name: 'ßßß', prefix: 'SSSS', why: 'stays within four characters when upper-casing grows' },
    { name: '#hash', prefix: 'HAS', why: 'drops a leading symbol' },
    { name: '😀 party', prefix: 'PAR', why: 'drops an emoji part' },
    { name: 'x😀y', prefix: 'XY', why: 'drops an emoji inside a part' },
    { name: '🚀', prefix: 'RUN', why: 'falls back to RUN when only emoji are given' },
    { name: '@@', prefix: 'RUN', why: 'falls back to RUN when only symbols are given' },
    { name: 'C++ lib', prefix: 'CLI', why: 'drops symbols inside a part' },
    { name: "don't stop", prefix: 'DST', why: 'drops an apostrophe without splitting the word' },
    { name: 'école', prefix: 'ÉCO', why: 'keeps accented letters' },
    { name: 'e\u0301cole', prefix: 'ECO', why: 'drops a combining accent' },
    { name: 'ΐ-test', prefix: 'ΙTE', why: 'drops the accents that upper-casing adds' },
    { name: '机器学习', prefix: '机器学', why: 'keeps CJK characters' },
    { name: '데이터 분석', prefix: '데분석', why: 'keeps Hangul' },
    { name: 'x²', prefix: 'X²', why: 'keeps digits of other forms' },
  ])('maps "$name" to $prefix because it $why', ({ name, prefix }) => {
    expect(derivePrefix(name)).toBe(prefix);
  });

  it.each([
    '#hash',
    '@@',
    '😀 party',
    '🚀🚀',
    '%%-x',
    'C++ lib',
    "don't",
    'école',
    'e\u0301cole',
    'ΐ',
    'ǅemo',
    'ﬁle',
    '机器学习',
    'Ωmega-ß',
    '\u0000x',
    '\ud800x',
  ])('derives for "%s" a prefix that parseDisplayId reads back, with every candidate', (name) => {
    const base = derivePrefix(name);
    for (const n of [1, 2, 10, 123]) {
      const prefix = prefixCandidate(base, n);
      expect(parseDisplayId(formatDisplayId(prefix, 7))).toEqual({ prefix, number: 7 });
    }
  });
});

describe('prefixCandidate', () => {
  it.each([
    { base: 'MTE', n: 1, candidate: 'MTE' },
    { base: 'MTE', n: 2, candidate: 'MTE2' },
    { base: 'MTE', n: 3, candidate: 'MTE3' },
    { base: 'MMPV', n: 2, candidate: 'MMP2' },
    { base: 'AI', n: 2, candidate: 'AI2' },
    { base: 'MTE', n: 10, candidate: 'MT10' },
    { base: 'MTE', n: 123, candidate: 'M123' },
    { base: 'MTE', n: 999, candidate: 'M999' },
  ])('makes candidate $n of $base into $candidate', ({ base, n, candidate }) => {
    expect(prefixCandidate(base, n)).toBe(candidate);
  });

  it.each([0, -1, 1.5, 1000, 9999, Number.NaN])('refuses candidate number %s (1000 on would be a bare number)', (n) => {
    expect(() => prefixCandidate('MTE', n)).toThrow(RangeError);
  });
});

describe('firstFreePrefix', () => {
  /** The prefixes the first `count` projects of one base get, in turn. */
  function allocate(base: string, count: number): string[] {
    const taken = new Set<string>();
    for (let i = 0; i < count; i++) taken.add(firstFreePrefix(base, taken)!);
    return [...taken];
  }

  it('follows contract §3 for the first 999 projects of one base', () => {
    const got = allocate('MTE', 999);
    expect(got.slice(0, 4)).toEqual(['MTE', 'MTE2', 'MTE3', 'MTE4']);
    expect(got).toEqual(Array.from({ length: 999 }, (_, i) => prefixCandidate('MTE', i + 1)));
  });

  it.each(['MTE', 'MMPV', 'AI', 'X', '机器学'])(
    'gives 3,000 projects of base %s distinct prefixes that keep its first character and read back',
    (base) => {
      // 999 numbered, then 3 characters of the base and a fill, 2 and a fill, 1 and a fill.
      const got = allocate(base, 3000);
      expect(new Set(got).size).toBe(3000);
      for (const prefix of got) {
        expect(prefix.startsWith(Array.from(base)[0]!), prefix).toBe(true);
        expect(prefix, 'never a bare number').not.toMatch(/^[0-9]+$/);
        expect(parseDisplayId(formatDisplayId(prefix, 1))).toEqual({ prefix, number: 1 });
      }
    },
  );

  it('skips prefixes another base took, and a name with a free base gets it', () => {
    const taken = new Set(['MTE', 'MTE2', 'MT10']);
    expect(firstFreePrefix('MTE', taken)).toBe('MTE3');
    expect(firstFreePrefix('MTX', taken)).toBe('MTX');
  });

  it('leaves the old bare-number prefixes (1000–9999) alone: the 10,000th project of a base gets a prefix of its own', () => {
    const taken = new Set(
      Array.from({ length: 9999 }, (_, i) => (i < 999 ? prefixCandidate('MTE', i + 1) : String(i + 1))),
    );
    const next = firstFreePrefix('MTE', taken);
    expect(next).toBe('MTE0');
  });

  it('answers undefined once every candidate of the base is taken', () => {
    const all = new Set(prefixCandidates('X'));
    expect(all.size).toBeGreaterThan(46_000);
    expect(firstFreePrefix('X', all)).toBeUndefined();
  });
});

describe('parseDisplayId', () => {
  it.each([
    { text: 'MMP-12', parsed: { prefix: 'MMP', number: 12 } },
    { text: 'mmp-12', parsed: { prefix: 'MMP', number: 12 } },
    { text: 'Mt10-3', parsed: { prefix: 'MT10', number: 3 } },
    { text: 'R-1', parsed: { prefix: 'R', number: 1 } },
    { text: 'R50-9007199254740991', parsed: { prefix: 'R50', number: 9007199254740991 } },
  ])('reads $text as a prefix and a number', ({ text, parsed }) => {
    expect(parseDisplayId(text)).toEqual(parsed);
  });

  it.each([
    ['MMP', 'has no number'],
    ['MMP-', 'has an empty number'],
    ['-12', 'has an empty prefix'],
    ['MMPVX-1', 'has a prefix longer than four characters'],
    ['MMP-0', 'has a zero number'],
    ['MMP-012', 'has leading zeros'],
    ['MMP--1', 'has a signed number'],
    ['MMP-+1', 'has a plus sign'],
    ['MMP-1.5', 'has a fractional number'],
    ['MMP-1e3', 'has an exponent'],
    ['MM P-1', 'has a space in the prefix'],
    [' MMP-1', 'has surrounding white space'],
    ['MMP-9007199254740993', 'has a number beyond the safe integers'],
    ['M_P-1', 'has punctuation in the prefix'],
  ])('rejects "%s" because it %s', (text) => {
    expect(parseDisplayId(text)).toBeUndefined();
  });

  it('round-trips with formatDisplayId', () => {
    const text = formatDisplayId('MMP2', 42);
    expect(text).toBe('MMP2-42');
    expect(parseDisplayId(text)).toEqual({ prefix: 'MMP2', number: 42 });
  });
});
