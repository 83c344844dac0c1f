import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../shared/kinds.js';
import {
  defaultStorageClass,
  findMatchingVolume,
  requestedStorage,
  volumeCapacity,
  volumeFits,
  volumePhase,
} from './binding.js';

// A claim as `kubectl apply` of a typical manifest makes it (after the API server gave it a uid).
const claim = (spec: Partial<NonNullable<PersistentVolumeClaim['spec']>> = {}): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default', uid: 'claim-uid' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    storageClassName: 'manual',
    resources: { requests: { storage: '1Gi' } },
    ...spec,
  },
});

// A statically created volume as in kube's "Configure a Pod to Use a PersistentVolume for Storage" task.
const volume = (
  name: string,
  storage: string,
  spec: Partial<NonNullable<PersistentVolume['spec']>> = {},
  labels?: Record<string, string>,
): PersistentVolume => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: {
    storageClassName: 'manual',
    capacity: { storage },
    accessModes: ['ReadWriteOnce'],
    hostPath: { path: `/mnt/${name}` },
    ...spec,
  },
  status: { phase: 'Available' },
});

const storageClass = (name: string, created: string, isDefault: boolean): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: {
    name,
    creationTimestamp: created,
    ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}),
  },
  provisioner: 'rancher.io/local-path',
});

describe('defaultStorageClass', () => {
  it('is the newest class annotated default', () => {
    const classes = [
      storageClass('standard', '2026-01-01T00:00:00Z', true),
      storageClass('fast', '2026-02-01T00:00:00Z', true),
      storageClass('newest', '2026-03-01T00:00:00Z', false),
    ];
    expect(defaultStorageClass(classes)?.metadata?.name).toBe('fast');
  });

  it('honours the beta annotation and is undefined without any default', () => {
    const beta = storageClass('old', '2026-01-01T00:00:00Z', false);
    beta.metadata!.annotations = { 'storageclass.beta.kubernetes.io/is-default-class': 'true' };
    expect(defaultStorageClass([beta])?.metadata?.name).toBe('old');
    expect(defaultStorageClass([storageClass('x', '2026-01-01T00:00:00Z', false)])).toBeUndefined();
  });
});

describe('findMatchingVolume', () => {
  it('picks the smallest volume that is large enough', () => {
    const found = findMatchingVolume(claim({ resources: { requests: { storage: '3Gi' } } }), [
      volume('big', '10Gi'),
      volume('small', '1Gi'),
      volume('middle', '5Gi'),
    ]);
    expect(found?.metadata?.name).toBe('middle');
  });

  it('skips volumes of another class, access mode or volume mode, or not matching the selector', () => {
    const wanted = claim({
      accessModes: ['ReadWriteMany'],
      selector: { matchLabels: { tier: 'db' } },
    });
    const volumes = [
      volume('other-class', '1Gi', { storageClassName: 'fast', accessModes: ['ReadWriteMany'] }, { tier: 'db' }),
      volume('rwo', '1Gi', {}, { tier: 'db' }),
      volume('block', '1Gi', { accessModes: ['ReadWriteMany'], volumeMode: 'Block' }, { tier: 'db' }),
      volume('unlabelled', '1Gi', { accessModes: ['ReadWriteMany'] }),
    ];
    expect(findMatchingVolume(wanted, volumes)).toBeUndefined();
    const fits = volume('fits', '2Gi', { accessModes: ['ReadWriteOnce', 'ReadWriteMany'] }, { tier: 'db' });
    expect(findMatchingVolume(wanted, [...volumes, fits])?.metadata?.name).toBe('fits');
  });

  it('prefers a volume pre-bound to the claim and never takes one claimed by another or released', () => {
    const preBound = volume('pre', '50Gi', { claimRef: { namespace: 'default', name: 'data' } });
    const taken = volume('taken', '1Gi', { claimRef: { namespace: 'default', name: 'other', uid: 'u2' } });
    const released = { ...volume('released', '1Gi'), status: { phase: 'Released' } };
    expect(findMatchingVolume(claim(), [taken, released, volume('free', '1Gi'), preBound])?.metadata?.name).toBe('pre');
    expect(findMatchingVolume(claim(), [taken, released])).toBeUndefined();
  });

  it('property: the chosen volume fits, is unclaimed or pre-bound, and no smaller unclaimed one fits', () => {
    const sizes = fc.constantFrom('512Mi', '1Gi', '2Gi', '5Gi', '10Gi');
    const arbitraryVolume = fc.record({
      storage: sizes,
      storageClassName: fc.constantFrom('manual', 'fast', ''),
      accessModes: fc.subarray(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'], { minLength: 1 }),
      claimed: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(arbitraryVolume, { maxLength: 8 }),
        sizes,
        fc.constantFrom('manual', 'fast', ''),
        fc.subarray(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'], { minLength: 1 }),
        (specs, request, className, modes) => {
          const volumes = specs.map((s, i) =>
            volume(`pv-${i}`, s.storage, {
              storageClassName: s.storageClassName,
              accessModes: s.accessModes,
              ...(s.claimed ? { claimRef: { namespace: 'default', name: `other-${i}`, uid: `u-${i}` } } : {}),
            }),
          );
          const wanted = claim({
            storageClassName: className,
            accessModes: modes,
            resources: { requests: { storage: request } },
          });
          const found = findMatchingVolume(wanted, volumes);
          const candidates = volumes.filter((v) => !v.spec?.claimRef && volumeFits(v, wanted));
          if (!found) return candidates.length === 0;
          return (
            volumeFits(found, wanted) &&
            !found.spec?.claimRef &&
            volumeCapacity(found) >= requestedStorage(wanted) &&
            candidates.every((c) => volumeCapacity(c) >= volumeCapacity(found))
          );
        },
      ),
    );
  });
});

describe('volumePhase', () => {
  const bound = volume('pv', '1Gi', { claimRef: { namespace: 'default', name: 'data', uid: 'claim-uid' } });

  it('is Bound while the claim of the ref exists, Released once it is gone or replaced', () => {
    expect(volumePhase(bound, claim({ volumeName: 'pv' }))).toBe('Bound');
    expect(volumePhase(bound, undefined)).toBe('Released');
    const recreated = claim();
    recreated.metadata!.uid = 'another-uid';
    expect(volumePhase(bound, recreated)).toBe('Released');
  });

  it('is Available without a claimRef and while pre-bound to a claim that has not bound it', () => {
    expect(volumePhase(volume('pv', '1Gi'), undefined)).toBe('Available');
    const preBound = volume('pv', '1Gi', { claimRef: { namespace: 'default', name: 'data' } });
    expect(volumePhase(preBound, undefined)).toBe('Available');
    expect(volumePhase(preBound, claim({ volumeName: 'pv' }))).toBe('Bound');
  });
});
