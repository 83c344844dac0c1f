// Which Shoot events reach the Shoot controller: this seed's shoots, on creation and on changes that ask for work,
// never on the controller's own status writes.
import { describe, expect, it } from 'vitest';
import type { Shoot } from '../../shoot/kinds.js';
import { asksForWork, forSeed } from './add.js';

const shoot = (
  change: Partial<{
    generation: number;
    seedName: string;
    annotations: Record<string, string>;
    deletionTimestamp: string;
    status: unknown;
  }> = {},
) =>
  ({
    metadata: {
      name: 'local',
      namespace: 'garden-local',
      generation: change.generation ?? 1,
      ...(change.annotations ? { annotations: change.annotations } : {}),
      ...(change.deletionTimestamp ? { deletionTimestamp: change.deletionTimestamp } : {}),
    },
    spec: { seedName: change.seedName ?? 'local' },
    status: change.status ?? {},
  }) as unknown as Shoot;

describe('the Shoot controller predicates', () => {
  it('take the shoots of this seed, also while one moves away', () => {
    expect(forSeed('local')({ object: shoot() })).toBe(true);
    expect(forSeed('other')({ object: shoot() })).toBe(false);
    expect(forSeed('old')({ object: { ...shoot({ seedName: 'new' }), status: { seedName: 'old' } } as Shoot })).toBe(
      true,
    );
  });

  it('pass creations and changes that ask for work, not status writes', () => {
    const old = shoot();
    expect(asksForWork({ type: 'create', object: old })).toBe(true);
    expect(asksForWork({ type: 'update', oldObject: old, object: shoot({ generation: 2 }) })).toBe(true);
    expect(
      asksForWork({
        type: 'update',
        oldObject: old,
        object: shoot({ annotations: { 'gardener.cloud/operation': 'retry' } }),
      }),
    ).toBe(true);
    expect(
      asksForWork({ type: 'update', oldObject: old, object: shoot({ deletionTimestamp: '2026-11-25T10:00:00Z' }) }),
    ).toBe(true);
    expect(asksForWork({ type: 'update', oldObject: old, object: shoot({ status: { lastOperation: {} } }) })).toBe(
      false,
    );
    expect(asksForWork({ type: 'delete', object: old })).toBe(false);
  });

  it("pass the source seed's Migrate Succeeded: the destination's cue to restore", () => {
    const migrating = shoot({
      seedName: 'new',
      status: { seedName: 'old', lastOperation: { type: 'Migrate', state: 'Processing' } },
    });
    const handedOver = shoot({
      seedName: 'new',
      status: { seedName: 'new', lastOperation: { type: 'Migrate', state: 'Succeeded' } },
    });
    expect(asksForWork({ type: 'update', oldObject: migrating, object: handedOver })).toBe(true);
    // Later status writes of the destination do not pass again.
    const restoring = shoot({
      seedName: 'new',
      status: { seedName: 'new', lastOperation: { type: 'Restore', state: 'Processing' } },
    });
    expect(asksForWork({ type: 'update', oldObject: handedOver, object: restoring })).toBe(false);
    expect(asksForWork({ type: 'update', oldObject: handedOver, object: handedOver })).toBe(false);
  });
});
