import { describe, expect, it } from 'vitest';
import { cellText, kindOf, parseHistogram, parseJson, parseTable, textOf } from './parse-data';

describe('parseJson', () => {
  it('parses JSON and answers undefined for text that is not JSON', () => {
    expect(parseJson('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(parseJson('"text"')).toBe('text');
    expect(parseJson('not json')).toBeUndefined();
    expect(parseJson('')).toBeUndefined();
  });

  it('reads Python’s NaN and Infinity tokens as null', () => {
    expect(parseJson('[1, NaN, Infinity]')).toEqual([1, null, null]);
    expect(parseJson('{"loss": NaN}')).toEqual({ loss: null });
  });

  // Was a bug: `\b` before `-?` never matched between a space (or `[`) and `-`, so
  // "-Infinity" became "-null" and the whole payload was answered as undefined.
  it('reads Python’s -Infinity token as null', () => {
    expect(parseJson('[1, -Infinity]')).toEqual([1, null]);
    expect(parseJson('[-Infinity, -1, NaN]')).toEqual([null, -1, null]);
  });

  // Was a bug: on the fallback path the tokens were replaced inside strings too.
  it('leaves the words NaN and Infinity inside strings alone', () => {
    expect(parseJson('{"note": "NaN seen", "v": NaN}')).toEqual({ note: 'NaN seen', v: null });
    expect(parseJson('["say \\"-Infinity\\"", -Infinity]')).toEqual(['say "-Infinity"', null]);
  });
});

describe('parseHistogram', () => {
  it('answers null for anything that is not a histogram', () => {
    for (const value of [null, undefined, 3, 'x', [1, 2], {}, { freq: [] }, { freq: [1, 'a'], bins: [0, 1, 2] }]) {
      expect(parseHistogram(value)).toBeNull();
    }
  });

  it('takes counts and edges under any of their names', () => {
    const want = { edges: [0, 1, 2], counts: [3, 4] };
    expect(parseHistogram({ type: 'Histogram', freq: [3, 4], bins: [0, 1, 2] })).toEqual(want);
    expect(parseHistogram({ counts: [3, 4], edges: [0, 1, 2] })).toEqual(want);
    expect(parseHistogram({ values: [3, 4], bins: [0, 1, 2] })).toEqual(want);
  });

  it('extends left edges (one per count) by the first bin’s width', () => {
    expect(parseHistogram({ freq: [1, 2, 3], bins: [0, 0.5, 1] })).toEqual({
      edges: [0, 0.5, 1, 1.5],
      counts: [1, 2, 3],
    });
  });

  it('answers null when the edges do not fit the counts', () => {
    expect(parseHistogram({ freq: [1], bins: [0] })).toBeNull();
    expect(parseHistogram({ freq: [1, 2], bins: [0, 1, 2, 3, 4] })).toBeNull();
    expect(parseHistogram({ freq: [1, 2] })).toBeNull();
    expect(parseHistogram({ freq: [1, 2], bins: { min: 0 } })).toBeNull();
  });

  it('spreads {min, max} evenly over the counts', () => {
    expect(parseHistogram({ freq: [1, 1, 1, 1], bins: { min: -1, max: 1, num: 4 } })).toEqual({
      edges: [-1, -0.5, 0, 0.5, 1],
      counts: [1, 1, 1, 1],
    });
  });

  it('answers null for non-finite edges and counts non-finite counts as zero', () => {
    expect(parseHistogram({ freq: [1, 2], bins: [0, Infinity, 2] })).toBeNull();
    expect(parseHistogram({ freq: [1, NaN, Infinity], bins: [0, 1, 2, 3] })!.counts).toEqual([1, 0, 0]);
  });

  // Was a bug: a NaN count from Python arrives as null after parseJson's fallback, and a
  // null count made the payload not a histogram at all.
  it('reads a histogram with a NaN count sent by Python, counting it as zero', () => {
    expect(parseHistogram(parseJson('{"freq": [1, NaN, 3], "bins": [0, 1, 2, 3]}'))).toEqual({
      edges: [0, 1, 2, 3],
      counts: [1, 0, 3],
    });
  });

  it('reads a histogram of 100,000 bins', () => {
    const n = 100_000;
    const h = parseHistogram({ freq: new Array<number>(n).fill(1), bins: { min: 0, max: n } })!;
    expect(h.edges).toHaveLength(n + 1);
    expect(h.edges[n]).toBe(n);
  });
});

describe('parseTable', () => {
  it('answers null for anything that is not a table', () => {
    for (const value of [null, 3, 'x', [], [1, 2], [{ a: 1 }, 2], {}, { type: 'table' }, { a: 1 }]) {
      expect(parseTable(value)).toBeNull();
    }
  });

  it('numbers the columns of rows given as arrays, as wide as the widest row', () => {
    expect(parseTable([[1, 2], [3]])).toEqual({ columns: ['0', '1'], rows: [[1, 2], [3]] });
  });

  it('takes the columns of records in first-seen order', () => {
    expect(
      parseTable([
        { a: 1, b: 2 },
        { c: 3, a: 4 },
      ]),
    ).toEqual({
      columns: ['a', 'b', 'c'],
      rows: [
        [1, 2, undefined],
        [4, undefined, 3],
      ],
    });
  });

  it('reads column names and rows under any of their names, inside a "table" field too', () => {
    const want = { columns: ['x', 'y'], rows: [[1, 2]] };
    expect(parseTable({ columns: ['x', 'y'], data: [[1, 2]] })).toEqual(want);
    expect(parseTable({ headers: ['x', 'y'], rows: [[1, 2]] })).toEqual(want);
    expect(parseTable({ table: { col: ['x', 'y'], values: [[1, 2]] } })).toEqual(want);
    // Numeric column names become text.
    expect(parseTable({ columns: [0, 1], data: [[1, 2]] })!.columns).toEqual(['0', '1']);
  });

  it('reads pandas’ split layout with its index as a first column', () => {
    const split = { columns: ['a'], index: ['r1', 'r2'], data: [[1], [2]] };
    expect(parseTable(split)).toEqual({
      columns: ['index', 'a'],
      rows: [
        ['r1', 1],
        ['r2', 2],
      ],
    });
    // An index of another length, or a column already called index, is left out.
    expect(parseTable({ ...split, index: ['r1'] })!.columns).toEqual(['a']);
    expect(parseTable({ ...split, columns: ['index'] })!.columns).toEqual(['index']);
  });

  it('names record columns by the given columns only when they are as many', () => {
    const records = [{ a: 1, b: 2 }];
    expect(parseTable({ columns: ['A', 'B'], data: records })).toEqual({ columns: ['A', 'B'], rows: [[1, 2]] });
    expect(parseTable({ columns: ['A'], data: records })).toEqual({ columns: ['a', 'b'], rows: [[1, 2]] });
  });

  it('reads a dict of columns, padding short ones, ignoring its type', () => {
    expect(parseTable({ type: 'Table', a: [1, 2], b: ['x'] })).toEqual({
      columns: ['a', 'b'],
      rows: [
        [1, 'x'],
        [2, undefined],
      ],
    });
  });

  it('reads a table of 100,000 records', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ i, sq: i * i }));
    const t = parseTable(rows)!;
    expect(t.columns).toEqual(['i', 'sq']);
    expect(t.rows[99_999]).toEqual([99_999, 99_999 * 99_999]);
  });

  // Was a bug: Math.max(...rows.map(...)) passed one argument per row; past ~125,000 rows
  // (well under the 64 MB ingest body limit) it threw RangeError (call stack size exceeded).
  it('reads a table of 200,000 array rows', () => {
    const t = parseTable(Array.from({ length: 200_000 }, (_, i) => [i, i]))!;
    expect(t.columns).toEqual(['0', '1']);
  });
});

describe('textOf', () => {
  it('answers a JSON string, or the first text field of an object', () => {
    expect(textOf('"hello\\nworld"')).toBe('hello\nworld');
    expect(textOf('{"text": "a", "data": "b"}')).toBe('a');
    expect(textOf('{"message": 3, "content": "c"}')).toBe('c');
  });

  it('answers the raw text otherwise', () => {
    for (const raw of ['plain words', '42', '{"n": 1}', '[1]', '']) expect(textOf(raw)).toBe(raw);
  });
});

describe('kindOf', () => {
  it('believes a data type that says what it is, in any case', () => {
    expect(kindOf('histogram', 'not json')).toBe('histogram');
    expect(kindOf('Table', '"x"')).toBe('table');
    expect(kindOf('TEXT', '{"freq": [1], "bins": [0, 1]}')).toBe('text');
  });

  it('looks at the payload when the type does not say', () => {
    expect(kindOf('DATA', '{"freq": [1], "bins": [0, 1]}')).toBe('histogram');
    expect(kindOf('DATA', '[{"a": 1}]')).toBe('table');
    expect(kindOf('DATA', '"some text"')).toBe('text');
    expect(kindOf('', 'garbage')).toBe('text');
  });
});

describe('cellText', () => {
  it('shows a cell as text: nothing for null, JSON for objects', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText('s')).toBe('s');
    expect(cellText(1.5)).toBe('1.5');
    expect(cellText(false)).toBe('false');
    expect(cellText({ a: [1] })).toBe('{"a":[1]}');
  });
});
