import { describe, expect, it } from 'vitest';
import { taintsTolerated } from './taints.js';

describe('taints and tolerations', () => {
  it.each([
    ['no taints', [], [], true],
    [
      'a key-only taint tolerated by key',
      [{ key: 'seed.gardener.cloud/protected' }],
      [{ key: 'seed.gardener.cloud/protected' }],
      true,
    ],
    ['a key-only taint tolerated by a toleration with a value', [{ key: 'k' }], [{ key: 'k', value: 'v' }], true],
    ['a valued taint tolerated with the same value', [{ key: 'k', value: 'v' }], [{ key: 'k', value: 'v' }], true],
    ['an untolerated taint', [{ key: 'seed.gardener.cloud/protected' }], [], false],
    ['a valued taint with another value', [{ key: 'k', value: 'v' }], [{ key: 'k', value: 'w' }], false],
    ['a valued taint with a key-only toleration', [{ key: 'k', value: 'v' }], [{ key: 'k' }], false],
    ['more taints than tolerations', [{ key: 'a' }, { key: 'b' }], [{ key: 'a' }], false],
  ])('%s', (_name, taints, tolerations, tolerated) => {
    expect(taintsTolerated(taints, tolerations)).toBe(tolerated);
  });
});
