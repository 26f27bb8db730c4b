import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { NAN_MARKER, readNdjson, rewriteNonFinite, splitNdjson, toMetricValue } from '../../src/ingest/ndjson.js';

describe('splitNdjson', () => {
  it('reads a Python-style line with bare NaN, Infinity and -Infinity', () => {
    const body = '{"time": 1, "step": 0, "data": {"a": NaN, "b": Infinity, "c": -Infinity, "d": 1.5}}';
    expect(splitNdjson(body)).toEqual([
      {
        lineNumber: 1,
        value: { time: 1, step: 0, data: { a: NAN_MARKER, b: Infinity, c: -Infinity, d: 1.5 } },
      },
    ]);
  });

  it.each([
    {
      label: 'a string containing NaN',
      line: '{"m": "NaN", "x": NaN}',
      value: { m: 'NaN', x: NAN_MARKER },
    },
    {
      label: 'a string with escaped quotes around Infinity',
      line: '{"m": "say \\"Infinity\\" -Infinity", "x": Infinity}',
      value: { m: 'say "Infinity" -Infinity', x: Infinity },
    },
    {
      label: 'a string ending in a backslash',
      line: '{"m": "C:\\\\", "x": NaN}',
      value: { m: 'C:\\', x: NAN_MARKER },
    },
    {
      label: 'tokens inside arrays',
      line: '{"xs": [NaN,-Infinity,Infinity]}',
      value: { xs: [NAN_MARKER, -Infinity, Infinity] },
    },
    { label: 'a key named NaN', line: '{"NaN": NaN}', value: { NaN: NAN_MARKER } },
  ])('leaves string contents untouched in $label', ({ line, value }) => {
    expect(splitNdjson(line)).toEqual([{ lineNumber: 1, value }]);
  });

  it('counts blank and white-space lines in line numbers and skips them', () => {
    const body = '\n{"a":1}\n   \n\t\n{"a":2}\n\n';
    expect(splitNdjson(body)).toEqual([
      { lineNumber: 2, value: { a: 1 } },
      { lineNumber: 5, value: { a: 2 } },
    ]);
  });

  it('accepts CRLF line endings', () => {
    const body = '{"a":1}\r\n\r\n{"a":NaN}\r\n';
    expect(splitNdjson(body)).toEqual([
      { lineNumber: 1, value: { a: 1 } },
      { lineNumber: 3, value: { a: NAN_MARKER } },
    ]);
  });

  it('returns nothing for an empty body', () => {
    expect(splitNdjson('')).toEqual([]);
  });

  it.each([
    { body: '{"a":1}\n\n{"a":', message: 'line 3: not valid JSON' },
    { body: '{"a":1}\nnope', message: 'line 2: not valid JSON' },
    { body: '{"a": nan}', message: 'line 1: not valid JSON' },
    { body: '{"a": -NaN}', message: 'line 1: not valid JSON' },
    { body: '{"a": NaNx}', message: 'line 1: not valid JSON' },
    { body: '{"a": "NaN}', message: 'line 1: not valid JSON' },
    { body: '\r\n[1,2]', message: 'line 2: expected a JSON object' },
    { body: 'NaN', message: 'line 1: expected a JSON object' },
    { body: '{"a":1}\n"text"', message: 'line 2: expected a JSON object' },
    { body: 'null', message: 'line 1: expected a JSON object' },
  ])('refuses $body with "$message"', ({ body, message }) => {
    expect(() => splitNdjson(body)).toThrow(message);
    expect(() => splitNdjson(body)).toThrow(AppError);
  });

  it('reads lazily so a caller stops at the first bad line', () => {
    const lines = readNdjson('{"a":1}\n{bad');
    expect(lines.next().value).toEqual({ lineNumber: 1, value: { a: 1 } });
    expect(() => lines.next()).toThrow('line 2: not valid JSON');
  });
});

describe('rewriteNonFinite', () => {
  it.each([
    ['[NaN, Infinity, -Infinity]', `[${JSON.stringify(NAN_MARKER)}, 1e999, -1e999]`],
    ['{"NaN": "Infinity"}', '{"NaN": "Infinity"}'],
    ['[NaNa, xInfinity]', '[NaNa, xInfinity]'],
  ])('rewrites %s to %s', (line, rewritten) => {
    expect(rewriteNonFinite(line)).toBe(rewritten);
  });
});

describe('toMetricValue', () => {
  it.each([
    { label: 'a number', input: 1.5, output: 1.5 },
    { label: 'zero', input: 0, output: 0 },
    { label: 'Infinity', input: Infinity, output: Infinity },
    { label: '-Infinity', input: -Infinity, output: -Infinity },
    { label: 'the NaN marker', input: NAN_MARKER, output: Number.NaN },
    { label: 'null', input: null, output: null },
    { label: 'the string "NaN"', input: 'NaN', output: undefined },
    { label: 'a numeric string', input: '1', output: undefined },
    { label: 'a boolean', input: true, output: undefined },
    { label: 'an object', input: { v: 1 }, output: undefined },
    { label: 'an absent value', input: undefined, output: undefined },
  ])('maps $label to $output', ({ input, output }) => {
    expect(toMetricValue(input)).toBe(output);
  });
});
