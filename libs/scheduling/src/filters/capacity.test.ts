import { describe, expect, it } from 'vitest';
import { seed } from '../../test/fixtures.js';
import { noCapacity } from './capacity.js';

const allocatable = (shoots?: string) =>
  seed('s', (s) => (s.status!.allocatable = shoots === undefined ? undefined : { shoots }));

describe('capacity (status.allocatable.shoots)', () => {
  it.each([
    ['no allocatable means unlimited', allocatable(), 1000, true],
    ['free capacity fits', allocatable('3'), 2, true],
    ['a full seed is rejected', allocatable('3'), 3, false],
    ['an overfull seed is rejected', allocatable('3'), 5, false],
    ['zero allocatable takes nothing', allocatable('0'), 0, false],
  ])('%s', (_name, candidate, used, fits) => {
    expect(noCapacity(candidate, new Map([['s', used]])) === undefined).toBe(fits);
  });
});
