import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim } from '../shared/kinds.js';
import {
  LOCAL_PATH_PROVISIONER,
  ownsDirectory,
  provisionedVolume,
  standardStorageClass,
  volumeDirectory,
  wantsVolume,
} from './local-path.js';

// A StatefulSet claim after the binder gave it the default class and handed it to the provisioner.
const claim = (annotations: Record<string, string>): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'main-etcd-etcd-main-0', namespace: 'shoot--local--local', uid: 'u1', annotations },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '10Gi' } } },
});
const handedOver = { 'volume.kubernetes.io/storage-provisioner': LOCAL_PATH_PROVISIONER };

describe('wantsVolume', () => {
  it('waits for the selected node under WaitForFirstConsumer', () => {
    expect(wantsVolume(claim(handedOver), standardStorageClass())).toBe(false);
    expect(
      wantsVolume(claim({ ...handedOver, 'volume.kubernetes.io/selected-node': 'n1' }), standardStorageClass()),
    ).toBe(true);
  });

  it('provisions at once under Immediate, and never for claims of others or bound ones', () => {
    const immediate = { ...standardStorageClass(), volumeBindingMode: 'Immediate' };
    expect(wantsVolume(claim(handedOver), immediate)).toBe(true);
    expect(wantsVolume(claim({ 'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com' }), immediate)).toBe(
      false,
    );
    expect(wantsVolume(claim(handedOver), { ...immediate, provisioner: 'ebs.csi.aws.com' })).toBe(false);
    const bound = claim(handedOver);
    bound.spec!.volumeName = 'pvc-u1';
    expect(wantsVolume(bound, immediate)).toBe(false);
  });
});

describe('provisionedVolume', () => {
  it('is a hostPath volume of the claim size, pre-bound to the claim, with the class reclaim policy', () => {
    const c = claim(handedOver);
    const path = volumeDirectory('/data/landscape/volumes', c);
    expect(path).toBe('/data/landscape/volumes/pvc-u1_shoot--local--local_main-etcd-etcd-main-0');
    const pv = provisionedVolume(c, { ...standardStorageClass(), reclaimPolicy: 'Retain' }, path);
    expect(pv.metadata).toEqual({
      name: 'pvc-u1',
      annotations: { 'pv.kubernetes.io/provisioned-by': LOCAL_PATH_PROVISIONER },
    });
    expect(pv.spec).toMatchObject({
      capacity: { storage: '10Gi' },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: 'standard',
      hostPath: { path, type: 'DirectoryOrCreate' },
      claimRef: { namespace: 'shoot--local--local', name: 'main-etcd-etcd-main-0', uid: 'u1' },
    });
  });
});

describe('ownsDirectory', () => {
  it('is true only for pvc- directories directly under the root', () => {
    expect(ownsDirectory('/d/volumes', '/d/volumes/pvc-u1_ns_name')).toBe(true);
    expect(ownsDirectory('/d/volumes/', '/d/volumes/pvc-u1_ns_name/')).toBe(true);
    expect(ownsDirectory('/d/volumes', '/d/volumes')).toBe(false);
    expect(ownsDirectory('/d/volumes', '/d/volumes/../pvc-x')).toBe(false);
    expect(ownsDirectory('/d/volumes', '/d/volumes/pvc-a/pvc-b')).toBe(false);
    expect(ownsDirectory('/d/volumes', '/home/user')).toBe(false);
  });
});
