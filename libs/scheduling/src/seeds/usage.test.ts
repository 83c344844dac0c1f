import { describe, expect, it } from 'vitest';
import { shoot } from '../../test/fixtures.js';
import { seedUsage } from './usage.js';

describe('seedUsage', () => {
  it('counts spec.seedName, and status.seedName when it differs (a migration occupies both seeds)', () => {
    const usage = seedUsage([
      shoot('a', (s) => (s.spec.seedName = 'one')),
      shoot('b', (s) => {
        s.spec.seedName = 'two';
        s.status = { seedName: 'one' } as never;
      }),
      shoot('c', (s) => {
        s.spec.seedName = 'two';
        s.status = { seedName: 'two' } as never;
      }),
      shoot('pending'),
    ]);
    expect(Object.fromEntries(usage)).toEqual({ one: 2, two: 2 });
  });

  it('counts bindings the cache does not show yet', () => {
    const usage = seedUsage([shoot('a'), shoot('b')], (s) => (s.metadata?.name === 'a' ? 'one' : undefined));
    expect(Object.fromEntries(usage)).toEqual({ one: 1 });
  });
});
