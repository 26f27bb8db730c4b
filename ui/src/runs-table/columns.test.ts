import { describe, expect, it } from 'vitest';
import { columnLabel, columnSortField, decodeColumn, encodeColumn, type ExtraColumn } from './columns';

const COLUMNS: [ExtraColumn, string, string, string][] = [
  [{ kind: 'config', key: 'optimizer.lr' }, 'config:optimizer.lr', 'optimizer.lr', 'config.optimizer.lr'],
  [
    { kind: 'metric', name: 'val/acc', agg: 'last' },
    'metric:last:val/acc',
    'val/acc (last)',
    'summary_metrics.val/acc',
  ],
  [{ kind: 'metric', name: 'val/acc', agg: 'min' }, 'metric:min:val/acc', 'val/acc (min)', 'summary_min.val/acc'],
  [
    { kind: 'metric', name: 'sys/cpu.pct', agg: 'max' },
    'metric:max:sys/cpu.pct',
    'sys/cpu.pct (max)',
    'summary_max.sys/cpu.pct',
  ],
  [{ kind: 'metric', name: 'a:b', agg: 'mean' }, 'metric:mean:a:b', 'a:b (mean)', 'summary_mean.a:b'],
];

describe('runs table columns', () => {
  it.each(COLUMNS)('%j is kept in the URL as %s, headed %s and sorted by %s', (column, code, label, sort) => {
    expect(encodeColumn(column)).toBe(code);
    expect(decodeColumn(code)).toEqual(column);
    expect(columnLabel(column)).toBe(label);
    expect(columnSortField(column)).toBe(sort);
  });

  it.each(['metric:avg:loss', 'metric:min:', 'config:', 'loss'])('reads %s as no column', (text) => {
    expect(decodeColumn(text)).toBeUndefined();
  });
});
