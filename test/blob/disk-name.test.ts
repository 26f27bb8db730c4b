import { describe, expect, it } from 'vitest';
import { diskName, MAX_PLAIN_SEGMENT_BYTES } from '../../src/blob/disk-name.js';

describe('diskName', () => {
  it.each([
    ['a short name', 'weights.bin'],
    ['a name of exactly the longest plain length', 'a'.repeat(MAX_PLAIN_SEGMENT_BYTES)],
    ['a name of 106 two-byte letters (212 bytes)', 'é'.repeat(106)],
  ])('keeps %s as it is, as blobs written before long names were hashed', (_name, segment) => {
    expect(diskName(segment)).toBe(segment);
  });

  it.each([
    ['one byte over the longest plain length', 'a'.repeat(MAX_PLAIN_SEGMENT_BYTES + 1)],
    ['107 two-byte letters (214 bytes)', 'é'.repeat(107)],
    ['255 three-byte characters', '图'.repeat(255)],
  ])('stores a name %s under its SHA-256 in hex, the same every time', (_name, segment) => {
    const name = diskName(segment);
    expect(name).toMatch(/^[0-9a-f]{64}$/);
    expect(diskName(segment)).toBe(name);
    expect(diskName(`${segment}x`)).not.toBe(name);
  });

  it('leaves room for the temporary suffix under the 255-byte file name limit', () => {
    expect(MAX_PLAIN_SEGMENT_BYTES + '.00000000-0000-0000-0000-000000000000.part'.length).toBe(255);
  });
});
