import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { parseDataLines, parseLogLines, parseMetricLines } from '../../src/ingest/lines.js';

const long = 'x'.repeat(1025);

describe('parseMetricLines', () => {
  it('reads values, keeps NaN and Infinity as numbers and skips null', () => {
    const body = [
      '{"time": 1700000000000, "step": 0, "data": {"train/loss": 0.5, "a": NaN, "b": Infinity, "c": -Infinity, "d": null}}',
      '',
      '{"time": 0, "step": 3, "data": {}, "extra": true}',
    ].join('\n');
    expect(parseMetricLines(body)).toEqual([
      {
        lineNumber: 1,
        time: 1700000000000,
        step: 0,
        values: [
          { logName: 'train/loss', value: 0.5 },
          { logName: 'a', value: Number.NaN },
          { logName: 'b', value: Infinity },
          { logName: 'c', value: -Infinity },
        ],
      },
      { lineNumber: 3, time: 0, step: 3, values: [] },
    ]);
  });

  it('reads every own key of data in order, "__proto__" and numeric names included, and no inherited one', () => {
    const body = '{"time": 1, "step": 2, "data": {"loss": 1, "__proto__": 2, "7": 3, "toString": 4}}';
    const inherited = Object.prototype as Record<string, unknown>;
    inherited.leaked = 99;
    try {
      expect(parseMetricLines(body)[0]!.values).toEqual([
        { logName: '7', value: 3 },
        { logName: 'loss', value: 1 },
        { logName: '__proto__', value: 2 },
        { logName: 'toString', value: 4 },
      ]);
    } finally {
      delete inherited.leaked;
    }
  });

  it.each([
    {
      problem: 'has no time',
      line: '{"step": 0, "data": {}}',
      error: 'line 2: "time" is required',
    },
    {
      problem: 'has a null time',
      line: '{"time": null, "step": 0, "data": {}}',
      error: 'line 2: "time" is required',
    },
    {
      problem: 'has a fractional time',
      line: '{"time": 1.5, "step": 0, "data": {}}',
      error: 'line 2: "time" must be a non-negative integer',
    },
    {
      problem: 'has a negative time',
      line: '{"time": -1, "step": 0, "data": {}}',
      error: 'line 2: "time" must be a non-negative integer',
    },
    {
      problem: 'has a string time',
      line: '{"time": "1", "step": 0, "data": {}}',
      error: 'line 2: "time" must be a non-negative integer',
    },
    {
      problem: 'has an infinite time',
      line: '{"time": Infinity, "step": 0, "data": {}}',
      error: 'line 2: "time" must be a non-negative integer',
    },
    {
      problem: 'has a time past the Date range',
      line: '{"time": 8640000000000001, "step": 0, "data": {}}',
      error: 'line 2: "time" must be epoch milliseconds',
    },
    {
      problem: 'has no step',
      line: '{"time": 1, "data": {}}',
      error: 'line 2: "step" is required',
    },
    {
      problem: 'has a null step',
      line: '{"time": 1, "step": null, "data": {}}',
      error: 'line 2: "step" is required',
    },
    {
      problem: 'has a fractional step',
      line: '{"time": 1, "step": 2.5, "data": {}}',
      error: 'line 2: "step" must be a non-negative integer',
    },
    {
      problem: 'has a negative step',
      line: '{"time": 1, "step": -1, "data": {}}',
      error: 'line 2: "step" must be a non-negative integer',
    },
    {
      problem: 'has a step beyond the safe integers',
      line: '{"time": 1, "step": 9007199254740992, "data": {}}',
      error: 'line 2: "step" must be a non-negative integer',
    },
    {
      problem: 'has no data',
      line: '{"time": 1, "step": 0}',
      error: 'line 2: "data" must be an object',
    },
    {
      problem: 'has array data',
      line: '{"time": 1, "step": 0, "data": [1]}',
      error: 'line 2: "data" must be an object',
    },
    {
      problem: 'has an empty metric name',
      line: '{"time": 1, "step": 0, "data": {"": 1}}',
      error: 'line 2: "data" has an empty metric name',
    },
    {
      problem: 'has a metric name over 1024 characters',
      line: `{"time": 1, "step": 0, "data": {"${long}": 1}}`,
      error: 'is longer than 1024 characters',
    },
    {
      problem: 'has a string metric value',
      line: '{"time": 1, "step": 0, "data": {"acc": "0.9"}}',
      error: 'line 2: data["acc"] must be a number, null, NaN or Infinity',
    },
    {
      problem: 'has a boolean metric value',
      line: '{"time": 1, "step": 0, "data": {"acc": true}}',
      error: 'line 2: data["acc"] must be a number',
    },
    {
      problem: 'has an object metric value',
      line: '{"time": 1, "step": 0, "data": {"acc": {"v": 1}}}',
      error: 'line 2: data["acc"] must be a number',
    },
    { problem: 'is an array', line: '[1]', error: 'line 2: expected a JSON object' },
  ])('refuses a line that $problem', ({ line, error }) => {
    const body = `{"time": 1, "step": 0, "data": {"ok": 1}}\n${line}`;
    expect(() => parseMetricLines(body)).toThrow(error);
    expect(() => parseMetricLines(body)).toThrow(AppError);
  });

  it('names the first bad line even when a later line is not JSON', () => {
    const body = '{"time": 1, "step": 0, "data": {}}\n{"time": 1, "step": -2, "data": {}}\n{oops';
    expect(() => parseMetricLines(body)).toThrow('line 2: "step"');
  });
});

describe('parseLogLines', () => {
  it.each([
    {
      label: 'an upper-case type without step',
      line: '{"time": 5, "message": "hello", "lineNumber": 0, "logType": "INFO"}',
      parsed: { time: 5, message: 'hello', logLineNumber: 0, logType: 'INFO', step: 0 },
    },
    {
      label: 'a lower-case type and a step',
      line: '{"time": 5, "message": "", "lineNumber": 7, "logType": "warning", "step": 3}',
      parsed: { time: 5, message: '', logLineNumber: 7, logType: 'WARNING', step: 3 },
    },
    {
      label: 'a null step',
      line: '{"time": 5, "message": "x", "lineNumber": 1, "logType": "print", "step": null}',
      parsed: { time: 5, message: 'x', logLineNumber: 1, logType: 'PRINT', step: 0 },
    },
  ])('reads $label', ({ line, parsed }) => {
    expect(parseLogLines(`\n${line}`)).toEqual([{ lineNumber: 2, ...parsed }]);
  });

  it.each([
    {
      problem: 'has no time',
      line: '{"message": "m", "lineNumber": 0, "logType": "INFO"}',
      error: 'line 1: "time" is required',
    },
    {
      problem: 'has no message',
      line: '{"time": 1, "lineNumber": 0, "logType": "INFO"}',
      error: 'line 1: "message" is required',
    },
    {
      problem: 'has a numeric message',
      line: '{"time": 1, "message": 3, "lineNumber": 0, "logType": "INFO"}',
      error: 'line 1: "message" must be a string',
    },
    {
      problem: 'has no lineNumber',
      line: '{"time": 1, "message": "m", "logType": "INFO"}',
      error: 'line 1: "lineNumber" is required',
    },
    {
      problem: 'has a negative lineNumber',
      line: '{"time": 1, "message": "m", "lineNumber": -1, "logType": "INFO"}',
      error: 'line 1: "lineNumber" must be a non-negative integer',
    },
    {
      problem: 'has no logType',
      line: '{"time": 1, "message": "m", "lineNumber": 0}',
      error: 'line 1: "logType" is required',
    },
    {
      problem: 'has an unknown logType',
      line: '{"time": 1, "message": "m", "lineNumber": 0, "logType": "TRACE"}',
      error: 'line 1: "logType" must be one of INFO, ERROR, WARNING, DEBUG, PRINT',
    },
    {
      problem: 'has a fractional step',
      line: '{"time": 1, "message": "m", "lineNumber": 0, "logType": "INFO", "step": 0.5}',
      error: 'line 1: "step" must be a non-negative integer',
    },
  ])('refuses a line that $problem', ({ line, error }) => {
    expect(() => parseLogLines(line)).toThrow(error);
  });
});

describe('parseDataLines', () => {
  const base = { time: 9, step: 2, logName: 'hist/w', dataType: 'HISTOGRAM' };

  it.each([
    { label: 'string data as is', data: '{"bins":[1,2]}', stored: '{"bins":[1,2]}' },
    { label: 'object data as JSON text', data: { bins: [1, 2] }, stored: '{"bins":[1,2]}' },
    { label: 'array data as JSON text', data: [1, 'a'], stored: '[1,"a"]' },
  ])('stores $label', ({ data, stored }) => {
    const line = JSON.stringify({ ...base, data });
    expect(parseDataLines(line)).toEqual([{ lineNumber: 1, ...base, data: stored }]);
  });

  it('stores NaN inside object data as null and defaults a null step to 0', () => {
    const line = '{"time": 9, "step": null, "logName": "t", "dataType": "TABLE", "data": {"v": [NaN, Infinity]}}';
    expect(parseDataLines(line)).toEqual([
      {
        lineNumber: 1,
        time: 9,
        step: 0,
        logName: 't',
        dataType: 'TABLE',
        data: '{"v":[null,null]}',
      },
    ]);
  });

  it.each([
    {
      problem: 'data is a number',
      fields: { data: 1 },
      error: 'line 1: "data" must be a string, a JSON object or an array',
    },
    { problem: 'data is null', fields: { data: null }, error: 'line 1: "data" must be a string' },
    {
      problem: 'data is missing',
      fields: { data: undefined },
      error: 'line 1: "data" must be a string',
    },
    {
      problem: 'dataType is empty',
      fields: { dataType: '' },
      error: 'line 1: "dataType" must not be empty',
    },
    {
      problem: 'dataType is a number',
      fields: { dataType: 4 },
      error: 'line 1: "dataType" must be a string',
    },
    {
      problem: 'logName is missing',
      fields: { logName: undefined },
      error: 'line 1: "logName" is required',
    },
    {
      problem: 'logName is empty',
      fields: { logName: '' },
      error: 'line 1: "logName" must not be empty',
    },
    {
      problem: 'logName is over 1024 characters',
      fields: { logName: long },
      error: 'line 1: "logName" is longer than 1024 characters',
    },
    {
      problem: 'time is negative',
      fields: { time: -5 },
      error: 'line 1: "time" must be a non-negative integer',
    },
    {
      problem: 'step is a string',
      fields: { step: '1' },
      error: 'line 1: "step" must be a non-negative integer',
    },
  ])('refuses a line whose $problem', ({ fields, error }) => {
    const line = JSON.stringify({ ...base, data: 'd', ...fields });
    expect(() => parseDataLines(line)).toThrow(error);
  });
});
