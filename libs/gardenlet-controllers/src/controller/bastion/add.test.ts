// The Bastion controller's triggers: its seed's Bastions on creation, a new generation or deletion; extension
// Bastions whose last operation changed, mapped through the Cluster resource to the project namespace.
import { describe, expect, it } from 'vitest';
import { coreBastionOf, forSeed, lastOperationChanged, reconcileRequested } from './add.js';
import type { Cluster, CoreBastion, ExtensionBastion } from './kinds.js';

const bastion = (
  name: string,
  metadata: Partial<NonNullable<CoreBastion['metadata']>> = {},
  seedName = 'local',
  namespace = 'garden-p',
): CoreBastion => ({
  apiVersion: 'operations.gardener.cloud/v1alpha1',
  kind: 'Bastion',
  metadata: { name, namespace, generation: 1, ...metadata },
  spec: { shootRef: { name: 's' }, seedName, providerType: 'local', sshPublicKey: 'k', ingress: [] },
});
const extension = (name: string, state?: string): ExtensionBastion => ({
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Bastion',
  metadata: { name, namespace: 'shoot--p--s' },
  spec: { type: 'local', userData: '', ingress: [] },
  ...(state
    ? {
        status: {
          lastOperation: {
            type: 'Create',
            state,
            progress: 0,
            description: state,
            lastUpdateTime: '2026-11-29T12:00:00Z',
          },
        },
      }
    : {}),
});
const cluster = (shootNamespace: string): Cluster => ({
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'shoot--p--s' },
  spec: { shoot: { metadata: { name: 's', namespace: shootNamespace } }, cloudProfile: {}, seed: {} },
});

describe('the Bastion controller wiring', () => {
  it('takes the Bastions of its seed only', () => {
    expect(forSeed('local')({ object: bastion('a') })).toBe(true);
    expect(forSeed('local')({ object: bastion('a', {}, 'other') })).toBe(false);
  });

  it('reconciles on creation, a new generation and the start of the deletion, not on status writes', () => {
    const old = bastion('a');
    const update = (object: CoreBastion, oldObject = old) => reconcileRequested({ type: 'update', oldObject, object });
    expect(reconcileRequested({ type: 'create', object: old })).toBe(true);
    expect(update({ ...old, status: { observedGeneration: 1 } })).toBe(false);
    expect(update(bastion('a', { generation: 2 }))).toBe(true);
    const deleted = bastion('a', { deletionTimestamp: '2026-11-29T12:00:00Z' });
    expect(update(deleted)).toBe(true);
    expect(update(deleted, deleted)).toBe(false);
    expect(reconcileRequested({ type: 'delete', object: old })).toBe(false);
  });

  it('follows extension Bastions when their last operation changes, appear or go', () => {
    const processing = extension('a', 'Processing');
    expect(lastOperationChanged({ type: 'create', object: processing })).toBe(true);
    expect(lastOperationChanged({ type: 'delete', object: processing })).toBe(true);
    expect(lastOperationChanged({ type: 'update', oldObject: processing, object: extension('a', 'Succeeded') })).toBe(
      true,
    );
    const annotated = { ...processing, metadata: { ...processing.metadata, annotations: { a: 'b' } } };
    expect(lastOperationChanged({ type: 'update', oldObject: processing, object: annotated })).toBe(false);
  });

  it("maps an extension Bastion to the Bastion of that name in its shoot's project namespace", () => {
    expect(coreBastionOf(extension('a'), cluster('garden-p'), [], 'local')).toEqual([
      { namespace: 'garden-p', name: 'a' },
    ]);
  });

  it("without the Cluster resource, to this seed's Bastions of that name", () => {
    const bastions = [bastion('a'), bastion('a', {}, 'other', 'garden-q'), bastion('b', {}, 'local', 'garden-r')];
    expect(coreBastionOf(extension('a'), undefined, bastions, 'local')).toEqual([{ namespace: 'garden-p', name: 'a' }]);
  });
});
