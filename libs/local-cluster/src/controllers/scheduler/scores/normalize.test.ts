import { describe, expect, it } from 'vitest';
import { defaultNormalize, minMaxNormalize } from './normalize.js';

describe('score normalisation', () => {
  it('scales to the highest (kube’s DefaultNormalizeScore), reversed for penalties', () => {
    expect(defaultNormalize([0, 3, 6])).toEqual([0, 50, 100]);
    expect(defaultNormalize([1, 3])).toEqual([33, 100]);
    expect(defaultNormalize([0, 1, 2], true)).toEqual([100, 50, 0]);
    expect(defaultNormalize([0, 0])).toEqual([0, 0]);
    expect(defaultNormalize([0, 0], true)).toEqual([100, 100]);
  });

  it('scales between lowest and highest for signed scores', () => {
    expect(minMaxNormalize([-100, 0, 50])).toEqual([0, 66, 100]);
    expect(minMaxNormalize([7, 7])).toEqual([0, 0]);
  });
});
