import { describe, expect, it } from 'vitest';
import { humanDuration } from './human-duration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration (the AGE column)', () => {
  it.each([
    [-5 * s, '<invalid>'],
    [-500, '0s'],
    [0, '0s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [3 * m + 20 * s, '3m20s'],
    [10 * m + 30 * s, '10m'],
    [3 * h, '3h'],
    [4 * h + 12 * m, '4h12m'],
    [47 * h, '47h'],
    [6 * d + 3 * h, '6d3h'],
    [7 * d, '7d'],
    [400 * d, '400d'],
    [2 * 365 * d + 40 * d, '2y40d'],
    [9 * 365 * d, '9y'],
  ])('%d ms reads %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
