import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim, Pod, StorageClass } from '../shared/kinds.js';
import { checkPodVolumes, podClaimNames, preFilterMessage } from './volume-binding.js';

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
