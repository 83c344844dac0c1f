import { describe, expect, it } from 'vitest';
import type { Shoot } from '../../shoot/kinds.js';
import { triggersCheck } from './add.js';

const shoot = (seedName: string | undefined, lastOperation?: { type: string; state: string }) =>
  ({
    metadata: { name: 'local', namespace: 'garden-local' },
    spec: { ...(seedName ? { seedName } : {}) },
    status: lastOperation ? { lastOperation } : {},
  }) as unknown as Shoot;

describe('shoot care triggers', () => {
  it('checks a new shoot, a reconciliation that just succeeded and a newly scheduled shoot', () => {
    expect(triggersCheck({ type: 'create', object: shoot('local') })).toBe(true);
    const update = (old: Shoot, now: Shoot) => triggersCheck({ type: 'update', object: now, oldObject: old });
    expect(
      update(
        shoot('local', { type: 'Reconcile', state: 'Processing' }),
        shoot('local', { type: 'Reconcile', state: 'Succeeded' }),
      ),
    ).toBe(true);
    expect(update(shoot(undefined), shoot('local'))).toBe(true);
  });

  it('ignores other updates, deletions and a finished deletion', () => {
    const update = (old: Shoot, now: Shoot) => triggersCheck({ type: 'update', object: now, oldObject: old });
    expect(
      update(
        shoot('local', { type: 'Reconcile', state: 'Processing' }),
        shoot('local', { type: 'Reconcile', state: 'Processing' }),
      ),
    ).toBe(false);
    expect(
      update(
        shoot('local', { type: 'Delete', state: 'Processing' }),
        shoot('local', { type: 'Delete', state: 'Succeeded' }),
      ),
    ).toBe(false);
    expect(triggersCheck({ type: 'delete', object: shoot('local') })).toBe(false);
  });
});
