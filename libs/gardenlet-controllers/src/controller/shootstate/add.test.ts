import { describe, expect, it } from 'vitest';
import type { Shoot } from '../../shoot/kinds.js';
import { seedNameChanged, seedNamePredicate } from './add.js';

const shoot = (seedName?: string) => ({ metadata: { name: 'a' }, spec: { seedName } }) as unknown as Shoot;

describe('shoot state controller predicates', () => {
  it("passes Shoots of this seed only (spec.seedName, as Gardener's SeedNamePredicate)", () => {
    expect(seedNamePredicate('local')({ type: 'create', object: shoot('local') } as never)).toBe(true);
    expect(seedNamePredicate('local')({ type: 'create', object: shoot('other') } as never)).toBe(false);
    expect(seedNamePredicate('local')({ type: 'create', object: shoot() } as never)).toBe(false);
  });

  it('passes every event but updates that keep spec.seedName', () => {
    expect(seedNameChanged({ type: 'create', object: shoot('local') } as never)).toBe(true);
    expect(seedNameChanged({ type: 'delete', object: shoot('local') } as never)).toBe(true);
    expect(seedNameChanged({ type: 'update', oldObject: shoot('local'), object: shoot('local') } as never)).toBe(false);
    expect(seedNameChanged({ type: 'update', oldObject: shoot('other'), object: shoot('local') } as never)).toBe(true);
    expect(seedNameChanged({ type: 'update', oldObject: shoot(), object: shoot('local') } as never)).toBe(true);
  });
});
