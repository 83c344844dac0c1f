// The scheduler with the persistentvolume-binder (against the in-process API server) on pods with PersistentVolumeClaims:
// a pod waiting for its claim is retried on the event that unblocks it, not after the fallback period (30 s); a claim
// without a class is taken as of the default class (the path of a shoot's etcd StatefulSet); and, as kube's
// VolumeBinding PreBind does, a pod is bound only once its claims are Bound: the node is selected on a
// WaitForFirstConsumer claim first, the volume made for it (here by the test, standing in for a provisioner), then the
// pod bound. A reserved pod whose claims do not bind in time fails with kube's SchedulerError and is scheduled anew.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { type Harness, startHarness } from '../../../test/controllers/support/harness.js';
import { pod } from '../../../test/controllers/support/fixtures.js';
import {
  EventKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  PersistentVolumeClaimKind,
  type Pod,
  PodKind,
  type StorageClass,
} from '../shared/kinds.js';
import { ANN_SELECTED_NODE } from '../persistentvolume/binding.js';

/** Well below the fallback period: a retry this fast came from an event. */
const EVENT_DRIVEN_MS = 5_000;
/** Long enough for the scheduler to have bound a pod it was going to bind at once. */
const SETTLE_MS = 500;

let h: Harness;
/** The controllers' clock runs this far ahead of the wall clock: moving it on expires the bind timeout. */
let clockOffsetMs = 0;

beforeAll(async () => {
  h = await startHarness(['scheduler', 'persistentvolume-binder'], { now: () => Date.now() + clockOffsetMs });
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
const storageClass = (
  name: string,
  isDefault = false,
  volumeBindingMode: StorageClass['volumeBindingMode'] = 'WaitForFirstConsumer',
): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: {
    name,
    ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}),
  },
  provisioner: 'example.com/none',
  volumeBindingMode,
});
const mounting = (name: string, claimName: string) =>
  pod(name, {}, { volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] });
/** What a provisioner makes for the claim: a volume of its class, pre-bound to it (the binder completes the binding). */
const volumeFor = (claimName: string, storageClassName: string): PersistentVolume => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: `pv-${claimName}` },
  spec: {
    capacity: { storage: '1Gi' },
    accessModes: ['ReadWriteOnce'],
    storageClassName,
    hostPath: { path: `/tmp/${claimName}` },
    claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: 'default', name: claimName },
  },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const selectedNode = (c: PersistentVolumeClaim) => c.metadata?.annotations?.[ANN_SELECTED_NODE];

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

  it('selects the node of a pod whose claim names a class not there yet as soon as the class is created', async () => {
    await h.api.create(claim('fast-data', 'fast'));
    await h.api.create(mounting('on-fast', 'fast-data'));
    await h.eventually('on-fast Unschedulable', PodKind, key('on-fast'), (p) => scheduled(p)?.status === 'False');
    await h.api.create(storageClass('fast'));
    await h.eventually(
      'fast-data given the node right after its class appeared',
      PersistentVolumeClaimKind,
      key('fast-data'),
      (c) => selectedNode(c) === 'n1',
      EVENT_DRIVEN_MS,
    );
    await h.api.create(volumeFor('fast-data', 'fast'));
    const bound = await h.eventually(
      'on-fast bound once its claim is',
      PodKind,
      key('on-fast'),
      (p) => p.spec?.nodeName === 'n1',
      EVENT_DRIVEN_MS,
    );
    expect(bound.spec?.nodeName).toBe('n1');
  });

  it('selects the node of a claim without a class at once when the cluster has a default class', async () => {
    await h.api.create(storageClass('standard', true));
    await h.api.create(claim('etcd-data'));
    await h.api.create(mounting('etcd-0', 'etcd-data'));
    await h.eventually(
      'etcd-data given the node',
      PersistentVolumeClaimKind,
      key('etcd-data'),
      (c) => selectedNode(c) === 'n1',
      EVENT_DRIVEN_MS,
    );
    await h.api.create(volumeFor('etcd-data', 'standard'));
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
  });

  it('binds a pod only once its WaitForFirstConsumer claim is Bound: node selected, volume made, then the pod', async () => {
    await h.api.create(claim('ordered-data', 'standard'));
    await h.api.create(mounting('ordered', 'ordered-data'));
    const selected = await h.eventually(
      'ordered-data given the node',
      PersistentVolumeClaimKind,
      key('ordered-data'),
      (c) => selectedNode(c) === 'n1',
      EVENT_DRIVEN_MS,
    );
    expect(selected.status?.phase).toBe('Pending');
    // Reserved on n1, not bound, and not marked Unschedulable: it waits for its claim.
    await sleep(SETTLE_MS);
    const reserved = await h.api.get(PodKind, key('ordered'));
    expect(reserved.spec?.nodeName).toBeUndefined();
    expect(scheduled(reserved)).toBeUndefined();

    await h.api.create(volumeFor('ordered-data', 'standard'));
    const bound = await h.eventually(
      'ordered bound',
      PodKind,
      key('ordered'),
      (p) => p.spec?.nodeName === 'n1',
      EVENT_DRIVEN_MS,
    );
    // The claim was Bound before the pod: the pod's binding is newer than the claim's Bound status.
    const claimNow = await h.api.get(PersistentVolumeClaimKind, key('ordered-data'));
    expect(claimNow.status?.phase).toBe('Bound');
    expect(Number(bound.metadata?.resourceVersion)).toBeGreaterThan(Number(claimNow.metadata?.resourceVersion));
  });

  it('binds a pod whose claims are all Bound at once', async () => {
    await h.api.create(storageClass('instant', false, 'Immediate'));
    await h.api.create(volumeFor('ready-data', 'instant'));
    await h.api.create(claim('ready-data', 'instant'));
    await h.eventually(
      'ready-data Bound',
      PersistentVolumeClaimKind,
      key('ready-data'),
      (c) => c.status?.phase === 'Bound',
    );
    await h.api.create(mounting('ready', 'ready-data'));
    await h.eventually('ready bound', PodKind, key('ready'), (p) => p.spec?.nodeName === 'n1', EVENT_DRIVEN_MS);
    const annotated = await h.api.get(PersistentVolumeClaimKind, key('ready-data'));
    expect(selectedNode(annotated)).toBeUndefined();
  });

  it("fails a reserved pod whose claims do not bind within the bind timeout with kube's SchedulerError", async () => {
    await h.api.create(claim('stuck-data', 'standard'));
    await h.api.create(mounting('stuck', 'stuck-data'));
    await h.eventually(
      'stuck-data given the node',
      PersistentVolumeClaimKind,
      key('stuck-data'),
      (c) => !!selectedNode(c),
    );
    // 10 minutes pass (kube's bind timeout); the claim's next event finds the wait expired.
    clockOffsetMs += 601_000;
    await h.api.patch(PersistentVolumeClaimKind, key('stuck-data'), {
      type: 'merge',
      patch: { metadata: { labels: { touched: 'yes' } } },
    });
    const failed = await h.eventually(
      'stuck SchedulerError',
      PodKind,
      key('stuck'),
      (p) => scheduled(p)?.reason === 'SchedulerError',
      EVENT_DRIVEN_MS,
    );
    expect(scheduled(failed)).toMatchObject({
      status: 'False',
      message: 'running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded',
    });
    expect(failed.spec?.nodeName).toBeUndefined();
    await waitFor('a FailedScheduling event for stuck', async () =>
      (await h.api.list(EventKind, { namespace: 'default' })).items.some(
        (e) => e.involvedObject.name === 'stuck' && e.reason === 'FailedScheduling',
      ),
    );
    // Scheduled anew: once the volume is there the pod is bound after all.
    await h.api.create(volumeFor('stuck-data', 'standard'));
    await h.eventually('stuck bound', PodKind, key('stuck'), (p) => p.spec?.nodeName === 'n1', EVENT_DRIVEN_MS);
  });
});
