import { describe, expect, it } from 'vitest';
import type { Request, Secret } from '@gardener-ts/controller-runtime';
import type { ManagedResource } from '../../status.js';
import {
  managedResourcePredicate,
  originRequest,
  secretChangedPredicate,
  secretToManagedResources,
  targetChangeSource,
} from './add.js';

const inScope = (ns: string | undefined) => ns === 'garden' || ns === 'shoot--a';
const mr = (
  name: string,
  namespace: string,
  extra: Partial<ManagedResource['metadata']> = {},
  secretRefs = ['s'],
): ManagedResource => ({
  metadata: { name, namespace, generation: 1, ...extra },
  spec: { secretRefs: secretRefs.map((n) => ({ name: n })) },
});

describe('managedResourcePredicate', () => {
  const p = managedResourcePredicate(inScope);
  it('lets creates and deletes in watched namespaces through', () => {
    expect(p({ type: 'create', object: mr('a', 'garden') })).toBe(true);
    expect(p({ type: 'delete', object: mr('a', 'garden') })).toBe(true);
    expect(p({ type: 'create', object: mr('a', 'elsewhere') })).toBe(false);
  });

  it('lets updates through only for spec, annotations, deletion and finalizers — not status writes', () => {
    const old = mr('a', 'garden');
    expect(p({ type: 'update', oldObject: old, object: { ...old, status: { conditions: [] } } })).toBe(false);
    expect(p({ type: 'update', oldObject: old, object: mr('a', 'garden', { generation: 2 }) })).toBe(true);
    expect(
      p({
        type: 'update',
        oldObject: old,
        object: mr('a', 'garden', { annotations: { 'gardener.cloud/operation': 'reconcile' } }),
      }),
    ).toBe(true);
    expect(
      p({ type: 'update', oldObject: old, object: mr('a', 'garden', { deletionTimestamp: '2026-11-25T00:00:00Z' }) }),
    ).toBe(true);
    expect(p({ type: 'update', oldObject: old, object: mr('a', 'garden', { finalizers: ['x'] }) })).toBe(true);
  });
});

describe('Secrets', () => {
  it('map to the ManagedResources of their namespace that reference them', () => {
    const map = secretToManagedResources(() => [
      mr('one', 'garden', {}, ['s']),
      mr('two', 'garden', {}, ['t', 's']),
      mr('three', 'garden', {}, ['t']),
      mr('four', 'shoot--a', {}, ['s']),
    ]);
    const secret: Secret = { metadata: { name: 's', namespace: 'garden' } };
    expect(map(secret)).toEqual([
      { namespace: 'garden', name: 'one' },
      { namespace: 'garden', name: 'two' },
    ]);
  });

  it('changes pass, resyncs do not', () => {
    const s: Secret = { metadata: { name: 's', resourceVersion: '1' } };
    expect(secretChangedPredicate({ type: 'update', oldObject: s, object: s })).toBe(false);
    expect(
      secretChangedPredicate({
        type: 'update',
        oldObject: s,
        object: { metadata: { name: 's', resourceVersion: '2' } },
      }),
    ).toBe(true);
  });
});

describe('target changes', () => {
  const withOrigin = (origin: string) => ({ metadata: { annotations: { 'resources.gardener.cloud/origin': origin } } });

  it('map to the ManagedResource named by the origin, for this cluster ID and watched namespaces only', () => {
    expect(originRequest(withOrigin('seed-a:garden/mr'), 'seed-a', inScope)).toEqual({
      namespace: 'garden',
      name: 'mr',
    });
    expect(originRequest(withOrigin('seed-b:garden/mr'), 'seed-a', inScope)).toBeUndefined();
    expect(originRequest(withOrigin('seed-a:other/mr'), 'seed-a', inScope)).toBeUndefined();
    expect(originRequest({ metadata: {} }, 'seed-a', inScope)).toBeUndefined();
  });

  it('are a raw source that enqueues until the controller stops', () => {
    const listeners: ((obj: Record<string, any>) => void)[] = [];
    const source = targetChangeSource({ onChange: (l) => void listeners.push(l) }, '', inScope);
    const got: Request[] = [];
    const abort = new AbortController();
    void source.start((r) => got.push(r), abort.signal);
    listeners.forEach((l) => l(withOrigin('garden/mr')));
    abort.abort();
    listeners.forEach((l) => l(withOrigin('garden/other')));
    expect(got).toEqual([{ namespace: 'garden', name: 'mr' }]);
  });
});
