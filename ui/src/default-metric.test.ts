import { describe, expect, it } from 'vitest';
import { bestExtreme, defaultDirection, defaultMetric } from './default-metric';

describe('the default metric', () => {
  it.each([
    [['sys/cpu.pct', 'sys/mem.pct', 'train/acc', 'train/loss', 'val/acc'], 'train/loss'],
    [['sys/cpu.pct', 'train/acc', 'val/acc'], 'train/acc'],
    [['sys/cpu.pct', 'sys/mem.pct'], 'sys/cpu.pct'],
    [['eval/Loss', 'lr'], 'eval/Loss'],
    [[], ''],
  ])('of %j is %j', (names, expected) => {
    expect(defaultMetric(names)).toBe(expected);
  });

  it.each([
    ['train/loss', 'ASC'],
    ['val/acc', 'DESC'],
    ['val/accuracy_loss', 'ASC'],
    ['eval/f1', 'DESC'],
    ['val/error', 'ASC'],
    ['lr', 'ASC'],
    ['sys/cpu.pct', 'ASC'],
  ] as const)('ranks %s %s', (name, direction) => {
    expect(defaultDirection(name)).toBe(direction);
  });

  it.each([
    ['train/loss', 'min'],
    ['val/error', 'min'],
    ['val/accuracy_loss', 'min'],
    ['val/acc', 'max'],
    ['eval/f1', 'max'],
    ['lr', undefined],
    ['sys/cpu.pct', undefined],
  ] as const)('takes the best %s at its %s', (name, extreme) => {
    expect(bestExtreme(name)).toBe(extreme);
  });
});
