import { describe, expect, it } from 'vitest';
import { middleEllipsis } from './middle-ellipsis';

describe('middleEllipsis', () => {
  it('leaves text that fits as it is', () => {
    expect(middleEllipsis('resnet18', 10)).toBe('resnet18');
    expect(middleEllipsis('0123456789', 10)).toBe('0123456789');
  });

  it('cuts the middle, keeping the start and the end', () => {
    const cut = middleEllipsis('resnet18-adamw-cosine-warmup-lr0.001-seed7', 26);
    expect(cut).toBe('resnet18-a…p-lr0.001-seed7');
    expect([...cut]).toHaveLength(26);
    expect(cut.startsWith('resnet18-')).toBe(true);
    expect(cut.endsWith('lr0.001-seed7')).toBe(true);
  });

  it('counts code points, not UTF-16 units', () => {
    const cut = middleEllipsis('🙂'.repeat(10), 5);
    expect(cut).toBe('🙂…🙂🙂🙂');
  });

  it('leaves the text when max is below 3', () => {
    expect(middleEllipsis('abcdef', 2)).toBe('abcdef');
  });
});
