import { describe, expect, it } from 'vitest';
import { shortClientId } from './client-id';

describe('shortClientId', () => {
  it('keeps the first eight characters of a long id and marks the cut', () => {
    expect(shortClientId('q3Zx9LmP0aBcDeFgHiJkLmNoPqRsTuVwXyZ012345678')).toBe('q3Zx9LmP…');
  });

  it('shows an id of twelve characters or fewer whole', () => {
    expect(shortClientId('abc')).toBe('abc');
    expect(shortClientId('abcdefghijkl')).toBe('abcdefghijkl');
    expect(shortClientId('abcdefghijklm')).toBe('abcdefgh…');
  });
});
