import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim, Pod, StorageClass } from '../shared/kinds.js';
import {
  BIND_TIMEOUT_REASON,
  checkPodVolumes,
  claimBound,
  podClaimNames,
  preBindMessage,
  preFilterMessage,
  volumeBindingProgress,
} from './volume-binding.js';

const pod = (...claims: string[]): Pod => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    containers: [{ name: 'web', image: 'nginx' }],
    volumes: [
      { name: 'config', configMap: { name: 'web' } },
      ...claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })),
    ],
  },
});
const claim = (name: string, spec: NonNullable<PersistentVolumeClaim['spec']> = {}): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const classes = new Map<string, StorageClass>([
  ['standard', { metadata: { name: 'standard' }, provisioner: 'p', volumeBindingMode: 'WaitForFirstConsumer' }],
  ['fast', { metadata: { name: 'fast' }, provisioner: 'p', volumeBindingMode: 'Immediate' }],
]);
const claims = (...list: PersistentVolumeClaim[]) => new Map(list.map((c) => [c.metadata!.name!, c]));

describe('checkPodVolumes', () => {
  it('names a missing claim as kube does', () => {
    const result = checkPodVolumes(pod('data'), claims(), classes);
    expect(result).toEqual({ unschedulable: 'persistentvolumeclaim "data" not found' });
    expect(preFilterMessage(1, 'persistentvolumeclaim "data" not found')).toBe(
      '0/1 nodes are available: persistentvolumeclaim "data" not found.',
    );
  });

  it('refuses claims being deleted and unbound claims of immediate binding', () => {
    const deleting = claim('data', { storageClassName: 'standard' });
    deleting.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(checkPodVolumes(pod('data'), claims(deleting), classes)).toEqual({
      unschedulable: 'persistentvolumeclaim "data" is being deleted',
    });
    for (const unbound of [claim('data', { storageClassName: 'fast' }), claim('data')])
      expect(checkPodVolumes(pod('data'), claims(unbound), classes)).toEqual({
        unschedulable: 'pod has unbound immediate PersistentVolumeClaims',
      });
  });

  it('counts a claim without a class as of the default class the binder will give it', () => {
    const defaulted = new Map(classes);
    defaulted.set('local', {
      metadata: { name: 'local', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'p',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    const classless = claim('data');
    expect(checkPodVolumes(pod('data'), claims(classless), defaulted)).toEqual({ delayed: [classless] });
    // An explicit empty class means no class at all: such a claim binds only to a volume of no class.
    const none = claim('data', { storageClassName: '' });
    expect(checkPodVolumes(pod('data'), claims(none), defaulted)).toEqual({
      unschedulable: 'pod has unbound immediate PersistentVolumeClaims',
    });
  });

  it('lets bound claims pass and returns the WaitForFirstConsumer ones to annotate', () => {
    const bound = claim('a', { storageClassName: 'fast', volumeName: 'pv-a' });
    const delayed = claim('b', { storageClassName: 'standard' });
    expect(checkPodVolumes(pod('a', 'b', 'b'), claims(bound, delayed), classes)).toEqual({ delayed: [delayed] });
    expect(podClaimNames(pod('a', 'b', 'b'))).toEqual(['a', 'b']);
    expect(checkPodVolumes(pod(), claims(), classes)).toEqual({ delayed: [] });
  });
});

/** The claim as the PV controller leaves it once bound: volume named, bind-completed, Bound in status. */
const bound = (c: PersistentVolumeClaim, node?: string): PersistentVolumeClaim => ({
  ...c,
  metadata: {
    ...c.metadata,
    annotations: {
      'pv.kubernetes.io/bind-completed': 'yes',
      ...(node ? { 'volume.kubernetes.io/selected-node': node } : {}),
    },
  },
  spec: { ...c.spec, volumeName: `pv-${c.metadata!.name}` },
  status: { phase: 'Bound' },
});
const selectedOn = (c: PersistentVolumeClaim, node: string): PersistentVolumeClaim => ({
  ...c,
  metadata: { ...c.metadata, annotations: { 'volume.kubernetes.io/selected-node': node } },
});

describe('claimBound', () => {
  it('needs the volume, the bind-completed annotation and the Bound phase', () => {
    const done = bound(claim('data'));
    expect(claimBound(done)).toBe(true);
    expect(claimBound(claim('data', { volumeName: 'pv-data' }))).toBe(false);
    expect(claimBound({ ...done, status: { phase: 'Pending' } })).toBe(false);
    expect(claimBound({ ...done, metadata: { ...done.metadata, annotations: {} } })).toBe(false);
  });
});

describe('volumeBindingProgress (PreBind)', () => {
  it('waits for the claims not bound yet and lets the pod bind once all are', () => {
    const a = bound(claim('a'));
    const b = selectedOn(claim('b', { storageClassName: 'standard' }), 'n1');
    expect(volumeBindingProgress(pod('a', 'b'), 'n1', true, claims(a, b), [{ name: 'b' }])).toEqual({ waiting: ['b'] });
    expect(volumeBindingProgress(pod('a', 'b'), 'n1', true, claims(a, bound(b, 'n1')), [{ name: 'b' }])).toEqual({
      bound: true,
    });
    expect(volumeBindingProgress(pod(), 'n1', true, claims(), [])).toEqual({ bound: true });
  });

  it('fails as kube does when the node, a claim or the selected node is gone', () => {
    const b = selectedOn(claim('b'), 'n1');
    expect(volumeBindingProgress(pod('b'), 'n1', false, claims(b), [{ name: 'b' }])).toEqual({
      failed: 'failed to get node "n1": node "n1" not found',
    });
    expect(volumeBindingProgress(pod('b'), 'n1', true, claims(), [{ name: 'b' }])).toEqual({
      failed: 'failed to check binding: persistentvolumeclaim "b" not found',
    });
    // A provisioner that gives up takes the node off the claim: the pod is scheduled anew.
    expect(volumeBindingProgress(pod('b'), 'n1', true, claims(claim('b')), [{ name: 'b' }])).toEqual({
      failed: 'provisioning failed for PVC "b"',
    });
    expect(volumeBindingProgress(pod('b'), 'n1', true, claims(selectedOn(claim('b'), 'n2')), [{ name: 'b' }])).toEqual({
      failed: 'provisioning failed for PVC "b"',
    });
    // The cache behind the scheduler's own write of the node: waited for, not taken for a provisioner giving up.
    const stale = { ...claim('b'), metadata: { name: 'b', namespace: 'default', resourceVersion: '41' } };
    expect(volumeBindingProgress(pod('b'), 'n1', true, claims(stale), [{ name: 'b', resourceVersion: '42' }])).toEqual({
      waiting: ['b'],
    });
    // A claim bound before the pod came (not given the node by the scheduler) needs no annotation.
    expect(volumeBindingProgress(pod('b'), 'n1', true, claims(bound(claim('b'))), [])).toEqual({ bound: true });
    expect(preBindMessage(BIND_TIMEOUT_REASON)).toBe(
      'running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded',
    );
  });

  it('binds the pod exactly when every claim it mounts is bound, and waits for just the unbound ones', () => {
    const names = ['c1', 'c2', 'c3'];
    fc.assert(
      fc.property(fc.subarray(names, { minLength: 1 }), fc.subarray(names), (mounted, boundNames) => {
        const all = names.map((n) => (boundNames.includes(n) ? bound(claim(n), 'n1') : selectedOn(claim(n), 'n1')));
        const progress = volumeBindingProgress(
          pod(...mounted),
          'n1',
          true,
          claims(...all),
          mounted.map((name) => ({ name })),
        );
        const unbound = mounted.filter((n) => !boundNames.includes(n));
        expect(progress).toEqual(unbound.length ? { waiting: unbound } : { bound: true });
      }),
    );
  });
});
