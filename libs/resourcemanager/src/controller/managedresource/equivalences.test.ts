import { describe, expect, it } from 'vitest';
import { Equivalences, ObjectIndex } from './equivalences.js';

const ref = (apiVersion: string, kind: string, name = 'x', namespace = 'default') => ({
  apiVersion,
  kind,
  name,
  namespace,
});

describe('Equivalences', () => {
  it("has Gardener's defaults: workloads extensions <-> apps, Ingress/NetworkPolicy extensions <-> networking.k8s.io", () => {
    const e = new Equivalences();
    expect(e.equivalentTo({ group: 'apps', kind: 'Deployment' })).toEqual([
      { group: 'extensions', kind: 'Deployment' },
      { group: 'apps', kind: 'Deployment' },
    ]);
    expect(e.equivalentTo({ group: 'networking.k8s.io', kind: 'Ingress' }).map((gk) => gk.group)).toEqual([
      'extensions',
      'networking.k8s.io',
    ]);
    expect(e.equivalentTo({ group: '', kind: 'ConfigMap' })).toEqual([]);
  });

  it('joins an additional list into the set of its first GroupKind that already has one', () => {
    const e = new Equivalences([
      [
        { group: 'foo.example.com', kind: 'Ingress' },
        { group: 'networking.k8s.io', kind: 'Ingress' },
      ],
    ]);
    expect(e.equivalentTo({ group: 'extensions', kind: 'Ingress' }).map((gk) => gk.group)).toEqual([
      'extensions',
      'networking.k8s.io',
      'foo.example.com',
    ]);
    expect(e.equivalentTo({ group: 'foo.example.com', kind: 'Ingress' })).toHaveLength(3);
  });
});

describe('ObjectIndex', () => {
  it('finds an old reference under an equivalent GroupKind, so it is not stale', () => {
    const old = [ref('extensions/v1beta1', 'Ingress'), ref('v1', 'ConfigMap', 'gone')];
    const index = new ObjectIndex(old, new Equivalences());
    expect(index.lookup(ref('networking.k8s.io/v1', 'Ingress'))).toBe(old[0]);
    expect(index.notFound()).toEqual([old[1]]);
  });

  it('prefers the same GroupKind and ignores other names, namespaces and non-equivalent kinds', () => {
    const old = [ref('extensions/v1beta1', 'Deployment'), ref('apps/v1', 'Deployment')];
    const index = new ObjectIndex(old, new Equivalences());
    expect(index.lookup(ref('apps/v1', 'Deployment'))).toBe(old[1]);
    expect(index.lookup(ref('apps/v1', 'Deployment', 'y'))).toBeUndefined();
    expect(index.lookup(ref('apps/v1', 'Deployment', 'x', 'other'))).toBeUndefined();
    expect(index.lookup(ref('apps/v1', 'StatefulSet'))).toBeUndefined();
    expect(index.notFound()).toEqual([old[0]]);
  });

  it('uses only exact matches without equivalences (deletion of the ManagedResource)', () => {
    const index = new ObjectIndex([ref('extensions/v1beta1', 'Ingress')]);
    expect(index.lookup(ref('networking.k8s.io/v1', 'Ingress'))).toBeUndefined();
    expect(index.notFound()).toHaveLength(1);
  });
});
