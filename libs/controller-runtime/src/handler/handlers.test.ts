import { describe, expect, it } from 'vitest';
import type { KubernetesObject, OwnerReference } from '../client/types.js';
import { enqueueForObject, enqueueForOwner, enqueueMapped } from './handlers.js';

const widget = { group: 'example.io', version: 'v1', kind: 'Widget' };
const ref = (name: string, controller?: boolean, apiVersion = 'example.io/v1', kind = 'Widget'): OwnerReference => ({
  apiVersion,
  kind,
  name,
  uid: `uid-${name}`,
  controller,
});
const owned = (refs: OwnerReference[]): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', ownerReferences: refs },
});

describe('event handlers', () => {
  it('enqueueForObject names the object itself', () => {
    expect(enqueueForObject()({ type: 'create', object: owned([]) })).toEqual([{ namespace: 'ns', name: 'cm' }]);
  });

  it('enqueueForOwner follows the controller reference of the owner kind only', () => {
    const h = enqueueForOwner(widget);
    expect(h({ type: 'create', object: owned([ref('a', true), ref('b'), ref('c', true, 'other.io/v1')]) })).toEqual([
      { namespace: 'ns', name: 'a' },
    ]);
    // Any version of the owner's group and kind counts.
    expect(h({ type: 'delete', object: owned([ref('v2', true, 'example.io/v2')]) })).toEqual([
      { namespace: 'ns', name: 'v2' },
    ]);
    expect(
      enqueueForOwner(widget, { onlyController: false })({ type: 'create', object: owned([ref('a', true), ref('b')]) }),
    ).toHaveLength(2);
    expect(
      enqueueForOwner(widget, { ownerNamespaced: false })({ type: 'create', object: owned([ref('a', true)]) }),
    ).toEqual([{ namespace: '', name: 'a' }]);
  });

  it('enqueueForOwner tells the old and the new owner on an ownership change', () => {
    const h = enqueueForOwner(widget);
    const requests = h({ type: 'update', oldObject: owned([ref('old', true)]), object: owned([ref('new', true)]) });
    expect(requests.map((r) => r.name).sort()).toEqual(['new', 'old']);
  });

  it('enqueueMapped maps old and new objects, without duplicates', () => {
    const h = enqueueMapped((o: KubernetesObject) => [{ namespace: 'x', name: o.metadata!.labels?.target ?? 'none' }]);
    const a = { metadata: { name: 'm', labels: { target: 't1' } } };
    const b = { metadata: { name: 'm', labels: { target: 't2' } } };
    expect(h({ type: 'update', oldObject: a, object: b }).map((r) => r.name)).toEqual(['t1', 't2']);
    expect(h({ type: 'update', oldObject: a, object: a })).toHaveLength(1);
  });
});
