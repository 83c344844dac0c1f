import { describe, expect, it } from 'vitest';
import { seedNameError } from './seed.js';

describe('seedNameError', () => {
  it('accepts a DNS label that the landscape does not use, such as local2', () => {
    expect(seedNameError('local2', '/data/.local/landscape')).toBeUndefined();
    expect(seedNameError('seed-b', '/data/.local/landscape')).toBeUndefined();
  });

  it('refuses the names of the landscape itself: its seed and its runtime cluster', () => {
    expect(seedNameError('local', '/data/.local/landscape')).toMatch(/taken by the landscape itself/);
    expect(seedNameError('landscape', '/data/.local/landscape')).toMatch(/taken by the landscape itself/);
    expect(seedNameError('garden-x', '/data/garden-x')).toMatch(/taken by the landscape itself/);
  });

  it('refuses what is not a DNS label, naming the rule', () => {
    for (const name of ['Local2', 'local_2', '-a', 'a-', '', 'a'.repeat(64)])
      expect(seedNameError(name, '/data/.local/landscape')).toMatch(/must be a DNS label/);
  });
});
