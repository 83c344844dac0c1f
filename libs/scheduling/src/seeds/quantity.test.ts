import { describe, expect, it } from 'vitest';
import { quantityValue } from './quantity.js';

describe('quantityValue', () => {
  it.each([
    ['250', 250],
    ['1k', 1000],
    ['2Ki', 2048],
    ['1e3', 1000],
    ['1500m', 2],
    ['0.1k', 100],
    [42, 42],
  ] as const)('%j is %d', (q, value) => {
    expect(quantityValue(q)).toBe(value);
  });

  it('is undefined for absent or malformed quantities', () => {
    expect(quantityValue(undefined)).toBeUndefined();
    expect(quantityValue('many')).toBeUndefined();
  });
});
