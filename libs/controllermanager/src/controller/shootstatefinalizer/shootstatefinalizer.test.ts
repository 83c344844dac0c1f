import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Shoot, ShootState } from '@gardener-ts/api';
import { FakeGarden } from '../testing/fake-garden.js';
import { silentContext } from '../../../test/support/csr.js';
import { localShoot } from '../../../test/support/examples.js';
import { mapShootToShootState, shootPredicate, shootStatePredicate, ShootStateKind } from './add.js';
import { finalizerAction, ShootStateFinalizer } from './finalizer.js';
import { ShootStateFinalizerReconciler } from './reconciler.js';

const shootWith = (type?: string, state = 'Processing'): Shoot => {
  const shoot = localShoot('a', 'destination');
  if (type) shoot.status = { lastOperation: { type, state } } as Shoot['status'];
  return shoot;
};
const shootState = (finalizers?: string[]): ShootState =>
  ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ShootState',
    metadata: { name: 'a', namespace: 'garden-local', ...(finalizers ? { finalizers } : {}) },
    spec: {},
  }) as ShootState;

async function reconcile(shoot: Shoot | undefined, state: ShootState | undefined) {
  const garden = new FakeGarden(...[shoot, state].filter((o) => o !== undefined));
  await new ShootStateFinalizerReconciler(garden, ShootStateKind).reconcile(
    { namespace: 'garden-local', name: 'a' },
    silentContext(),
  );
  return { garden, finalizers: garden.find<ShootState>('ShootState', 'garden-local', 'a')?.metadata?.finalizers };
}

describe('finalizerAction (Gardener’s ShootState finalizer rule)', () => {
  it('adds the finalizer while the Shoot is migrated and releases it once the restore succeeded', () => {
    expect(finalizerAction({ type: 'Migrate', state: 'Processing' }, false)).toBe('add');
    expect(finalizerAction({ type: 'Migrate', state: 'Succeeded' }, false)).toBe('add');
    expect(finalizerAction({ type: 'Restore', state: 'Succeeded' }, true)).toBe('remove');
    expect(finalizerAction({ type: 'Restore', state: 'Processing' }, true)).toBeUndefined();
    expect(finalizerAction({ type: 'Restore', state: 'Error' }, true)).toBeUndefined();
    expect(finalizerAction({ type: 'Reconcile', state: 'Succeeded' }, true)).toBeUndefined();
    expect(finalizerAction(undefined, false)).toBeUndefined();
  });

  it('never removes a finalizer that is not there nor adds one that is', () => {
    const op = fc.record({
      type: fc.constantFrom('Create', 'Reconcile', 'Delete', 'Migrate', 'Restore'),
      state: fc.constantFrom('Processing', 'Succeeded', 'Error', 'Failed', 'Aborted'),
    });
    fc.assert(
      fc.property(fc.option(op, { nil: undefined }), fc.boolean(), (lastOperation, has) => {
        const action = finalizerAction(lastOperation, has);
        if (has) expect(action).not.toBe('add');
        else expect(action).not.toBe('remove');
        // Only a Migrate adds it, only a succeeded Restore releases it.
        if (action === 'add') expect(lastOperation?.type).toBe('Migrate');
        if (action === 'remove') expect(lastOperation).toEqual({ type: 'Restore', state: 'Succeeded' });
      }),
    );
  });
});

describe('ShootStateFinalizerReconciler', () => {
  it('protects the ShootState of a Shoot being migrated', async () => {
    const { finalizers, garden } = await reconcile(shootWith('Migrate'), shootState());
    expect(finalizers).toEqual([ShootStateFinalizer]);
    expect(garden.writes).toEqual(['patch ShootState garden-local/a']);
  });

  it('keeps other finalizers when it adds or removes its own', async () => {
    expect((await reconcile(shootWith('Migrate'), shootState(['x']))).finalizers).toEqual(['x', ShootStateFinalizer]);
    expect(
      (await reconcile(shootWith('Restore', 'Succeeded'), shootState(['x', ShootStateFinalizer]))).finalizers,
    ).toEqual(['x']);
  });

  it('holds the finalizer during the restore and releases it when the restore succeeded', async () => {
    const during = await reconcile(shootWith('Restore', 'Processing'), shootState([ShootStateFinalizer]));
    expect(during.finalizers).toEqual([ShootStateFinalizer]);
    expect(during.garden.writes).toEqual([]);
    const done = await reconcile(shootWith('Restore', 'Succeeded'), shootState([ShootStateFinalizer]));
    expect(done.finalizers ?? []).toEqual([]);
  });

  it('writes nothing for a regular Shoot, a missing ShootState or a missing Shoot', async () => {
    expect((await reconcile(shootWith('Reconcile', 'Succeeded'), shootState())).garden.writes).toEqual([]);
    expect((await reconcile(shootWith('Migrate'), undefined)).garden.writes).toEqual([]);
    const orphan = await reconcile(undefined, shootState([ShootStateFinalizer]));
    expect(orphan.garden.writes).toEqual([]);
    expect(orphan.finalizers).toEqual([ShootStateFinalizer]);
  });
});

describe('shootstate-finalizer triggers', () => {
  it('maps a Shoot to the ShootState of the same namespace and name', () => {
    expect(mapShootToShootState(shootWith())).toEqual([{ namespace: 'garden-local', name: 'a' }]);
  });

  it('takes ShootState creations and updates, and Shoot updates only', () => {
    const state = shootState();
    const shoot = shootWith('Migrate');
    expect(shootStatePredicate({ type: 'create', object: state })).toBe(true);
    expect(shootStatePredicate({ type: 'update', object: state, oldObject: state })).toBe(true);
    expect(shootStatePredicate({ type: 'delete', object: state })).toBe(false);
    expect(shootPredicate({ type: 'update', object: shoot, oldObject: shoot })).toBe(true);
    expect(shootPredicate({ type: 'create', object: shoot })).toBe(false);
    expect(shootPredicate({ type: 'delete', object: shoot })).toBe(false);
  });
});
