import { describe, expect, it } from 'vitest';
import { SchedulingInputError } from '../errors.js';
import { seed } from '../../test/fixtures.js';
import { compileSeedSelector, seedSelectorMismatch } from './seed-selector.js';

const labelled = (labels: Record<string, string>) => seed('s', (s) => (s.metadata!.labels = labels));

describe('seed selectors', () => {
  it.each([
    ['no selector fits every seed', undefined, {}, true],
    ['an empty selector fits every seed', {}, { a: 'b' }, true],
    ['matchLabels fit', { matchLabels: { env: 'prod' } }, { env: 'prod', x: 'y' }, true],
    ['matchLabels reject', { matchLabels: { env: 'prod' } }, { env: 'dev' }, false],
    [
      'In fits',
      { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'canary'] }] },
      { env: 'canary' },
      true,
    ],
    ['In rejects a missing key', { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] }, {}, false],
    ['NotIn fits a missing key', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, {}, true],
    [
      'NotIn rejects',
      { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] },
      { env: 'prod' },
      false,
    ],
    ['Exists fits', { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }, { gpu: '' }, true],
    ['DoesNotExist rejects', { matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }, { gpu: 'yes' }, false],
  ])('%s', (_name, selector, labels, fits) => {
    const compiled = compileSeedSelector(selector as never, 'Shoot');
    expect(seedSelectorMismatch(labelled(labels), compiled, 'Shoot') === undefined).toBe(fits);
  });

  it('prints the selector as Kubernetes does (sorted by key)', () => {
    const compiled = compileSeedSelector(
      {
        matchLabels: { zz: '1', aa: '2' },
        matchExpressions: [
          { key: 'mm', operator: 'In', values: ['b', 'a'] },
          { key: 'bb', operator: 'DoesNotExist' },
        ],
      },
      'CloudProfile',
    );
    expect(compiled!.text).toBe('aa=2,!bb,mm in (a,b),zz=1');
    expect(seedSelectorMismatch(labelled({}), compiled, 'CloudProfile')).toBe(
      "labels do not match the seed selector of 'CloudProfile' (selector: 'aa=2,!bb,mm in (a,b),zz=1')",
    );
  });

  it.each([
    [{ key: 'a', operator: 'In', values: [] }],
    [{ key: 'a', operator: 'Exists', values: ['x'] }],
    [{ key: 'a', operator: 'Near' }],
  ])('refuses the invalid requirement %j', (requirement) => {
    expect(() => compileSeedSelector({ matchExpressions: [requirement as never] }, 'Shoot')).toThrow(
      SchedulingInputError,
    );
  });
});
