// The scheduler (alone, against the in-process API server) on pods with PersistentVolumeClaims: a pod waiting for its
// claim is retried on the event that unblocks it, not after the fallback period (30 s), and a claim without a class is
// taken as of the default class (the path of a shoot's etcd StatefulSet).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../test/controllers/support/harness.js';
import { pod } from '../../../test/controllers/support/fixtures.js';
import {
  EventKind,
  type PersistentVolumeClaim,
  PersistentVolumeClaimKind,
  type Pod,
  PodKind,
  type StorageClass,
} from '../shared/kinds.js';
import { ANN_SELECTED_NODE } from '../persistentvolume/binding.js';

/** Well below the fallback period: a retry this fast came from an event. */
const EVENT_DRIVEN_MS = 5_000;

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['scheduler']);
  await h.kubelet.addNode('n1');
});
afterAll(() => h?.stop());

const key = (name: string) => ({ namespace: 'default', name });
const scheduled = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'PodScheduled');
const claim = (name: string, storageClassName?: string): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'default' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '1Gi' } },
    ...(storageClassName === undefined ? {} : { storageClassName }),
  },
});
const storageClass = (name: string, isDefault = false): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: {
    name,
    ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}),
  },
  provisioner: 'example.com/none',
  volumeBindingMode: 'WaitForFirstConsumer',
});
const mounting = (name: string, claimName: string) =>
  pod(name, {}, { volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] });

describe('scheduler and volume events', () => {
  it('retries a pod waiting for a missing claim as soon as the claim is created', async () => {
    await h.api.create(mounting('early', 'late-claim'));
    const waiting = await h.eventually(
      'early Unschedulable',
      PodKind,
      key('early'),
      (p) => scheduled(p)?.status === 'False',
    );
    expect(scheduled(waiting)?.message).toBe('0/1 nodes are available: persistentvolumeclaim "late-claim" not found.');
    await h.api.create(claim('late-claim', 'manual'));
    // A claim of a class that does not exist binds at once or never: the pod still waits, for the class now.
    await h.eventually(
      'early waiting for the unbound claim',
      PodKind,
      key('early'),
      (p) => scheduled(p)?.message === '0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.',
      EVENT_DRIVEN_MS,
    );
  });

  it('schedules a pod whose claim names a class not there yet as soon as the class is created', async () => {
    await h.api.create(claim('fast-data', 'fast'));
    await h.api.create(mounting('on-fast', 'fast-data'));
    await h.eventually('on-fast Unschedulable', PodKind, key('on-fast'), (p) => scheduled(p)?.status === 'False');
    await h.api.create(storageClass('fast'));
    const bound = await h.eventually(
      'on-fast bound right after its class appeared',
      PodKind,
      key('on-fast'),
      (p) => p.spec?.nodeName === 'n1',
      EVENT_DRIVEN_MS,
    );
    expect(bound.spec?.nodeName).toBe('n1');
    const annotated = await h.api.get(PersistentVolumeClaimKind, key('fast-data'));
    expect(annotated.metadata?.annotations?.[ANN_SELECTED_NODE]).toBe('n1');
  });

  it('binds a pod whose claim has no class yet at once when the cluster has a default class', async () => {
    await h.api.create(storageClass('standard', true));
    await h.api.create(claim('etcd-data'));
    await h.api.create(mounting('etcd-0', 'etcd-data'));
    const bound = await h.eventually(
      'etcd-0 bound',
      PodKind,
      key('etcd-0'),
      (p) => p.spec?.nodeName === 'n1',
      EVENT_DRIVEN_MS,
    );
    expect(scheduled(bound)?.status).toBe('True');
    const events = (await h.api.list(EventKind, { namespace: 'default' })).items.filter(
      (e) => e.involvedObject.name === 'etcd-0',
    );
    expect(events.map((e) => e.reason)).toEqual(['Scheduled']);
    const annotated = await h.api.get(PersistentVolumeClaimKind, key('etcd-data'));
    expect(annotated.metadata?.annotations?.[ANN_SELECTED_NODE]).toBe('n1');
  });
});
