import { describe, expect, it } from 'vitest';
import type { Seed, Shoot } from '@gardener-ts/api';
import { localSeed, localShoot } from '../../../test/support/examples.js';
import { seedReferencesChanged } from '../seedreference/add.js';
import { shootReferencesChanged } from '../shootreference/references.js';
import { referencePredicate } from './add.js';

describe('referencePredicate', () => {
  const shoots = referencePredicate<Shoot>(shootReferencesChanged);
  const a = localShoot('a', undefined);
  const withAudit = localShoot('a', undefined);
  withAudit.spec.kubernetes.kubeAPIServer = { auditConfig: { auditPolicy: { configMapRef: { name: 'audit' } } } };

  it('takes creations, reference changes and released deletions; not other updates, deletions or generic events', () => {
    expect(shoots({ type: 'create', object: a })).toBe(true);
    expect(shoots({ type: 'update', oldObject: a, object: withAudit })).toBe(true);
    const relabelled = { ...a, metadata: { ...a.metadata, labels: { x: 'y' } } };
    expect(shoots({ type: 'update', oldObject: a, object: relabelled })).toBe(false);
    const deleting = { ...a, metadata: { ...a.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect(
      shoots({
        type: 'update',
        oldObject: a,
        object: { ...deleting, metadata: { ...deleting.metadata, finalizers: ['gardener'] } },
      }),
    ).toBe(false);
    expect(shoots({ type: 'update', oldObject: a, object: deleting })).toBe(true);
    expect(shoots({ type: 'delete', object: a })).toBe(false);
    expect(shoots({ type: 'generic', object: a })).toBe(false);
  });

  it('sees changes of a Seed’s spec.resources', () => {
    const seeds = referencePredicate<Seed>(seedReferencesChanged);
    const seed = localSeed('s');
    const withResources = localSeed('s');
    withResources.spec.resources = [{ name: 'r', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: 'x' } }];
    expect(seeds({ type: 'update', oldObject: seed, object: withResources })).toBe(true);
    expect(seeds({ type: 'update', oldObject: seed, object: localSeed('s', { changed: 'label' }) })).toBe(false);
  });
});
