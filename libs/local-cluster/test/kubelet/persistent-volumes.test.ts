// PersistentVolumeClaims end to end on one node: the default StorageClass `standard` (local-path, WaitForFirstConsumer),
// the persistentvolume-binder, the local-path provisioner, the scheduler's volume checks, the StatefulSet controller's
// claims and the kubelet mounting the claim's volume — data outlives the Pods that wrote it.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import { createLogger } from '@gardener-ts/logging';
import { kubectl, waitFor } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControllerManager, type ControllerManager } from '../../src/controllers/controller-manager.js';
import { installDefaultStorageClass } from '../../src/cluster/storage.js';
import { containerStatus, type Harness, NODE_NAME, startHarness } from './harness.js';

let h: Harness;
let manager: ControllerManager;
let volumes: string;

beforeAll(async () => {
  h = await startHarness();
  volumes = join(await mkdtemp(join(tmpdir(), 'local-volumes-')), 'volumes');
  await installDefaultStorageClass(h.config);
  manager = await startControllerManager({
    kubeConfig: h.config,
    controllers: ['scheduler', 'statefulset', 'persistentvolume-binder', 'local-path-provisioner', 'pvc-protection'],
    localVolumesDir: volumes,
    logger: createLogger({ name: 'pv-test', level: process.env.CM_TEST_LOG ? 'debug' : 'silent' }),
  });
}, 60_000);
afterAll(async () => {
  await manager?.stop();
  await h?.stop();
  if (volumes) await rm(dirname(volumes), { recursive: true, force: true });
});

const apply = (manifest: object) =>
  kubectl(h.cluster.kubeconfigPath, ['apply', '-f', '-'], { input: JSON.stringify(manifest) });
const readClaim = (name: string) => h.core.readNamespacedPersistentVolumeClaim({ name, namespace: 'default' });
const claimUntil = (name: string, what: string, check: (c: k8s.V1PersistentVolumeClaim) => boolean) =>
  waitFor(
    `claim ${name}: ${what}`,
    async () => {
      const claim = await readClaim(name).catch(() => undefined);
      return claim && check(claim) ? claim : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
const volumeGone = (name: string) =>
  waitFor(
    `volume ${name} to be deleted`,
    async () =>
      (await h.core.readPersistentVolume({ name }).then(
        () => false,
        () => true,
      )) || undefined,
    { timeoutMs: 20_000, intervalMs: 100 },
  );

// A claim as in kube's docs: no storageClassName, so it gets the default class.
const claimManifest = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra },
});
const dataVolume = (claim: string): Partial<k8s.V1PodSpec> => ({
  volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }],
});
const container = (args: string[]): k8s.V1Container => ({
  name: 'main',
  image: 'fixture',
  args,
  volumeMounts: [{ name: 'data', mountPath: '/data' }],
});
/** A pod left to the scheduler (no nodeName), as a user creates it. */
const scheduledPod = (name: string, claim: string, args: string[]) =>
  h.createPod(name, {
    nodeName: undefined,
    restartPolicy: 'Never',
    containers: [container(args)],
    ...dataVolume(claim),
  });

// Each test with its own claims, Pods and volumes: they run side by side, as workloads on a node do.
describe.concurrent('persistent volumes', () => {
  it('binds a claim of the default class at first use and keeps its data across Pods until the claim is deleted', async () => {
    await apply(claimManifest('notes'));
    // WaitForFirstConsumer: the claim gets the default class and waits, unbound, for a Pod.
    const pending = await claimUntil(
      'notes',
      'Pending in the default class',
      (c) => c.spec?.storageClassName === 'standard' && c.status?.phase === 'Pending',
    );
    expect(pending.spec?.volumeName).toBeUndefined();

    await scheduledPod('writer', 'notes', ['append', '/data/notes.txt', 'first']);
    await h.waitForPod('writer', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    const claim = await claimUntil('notes', 'Bound', (c) => c.status?.phase === 'Bound');
    expect(claim.metadata?.annotations?.['volume.kubernetes.io/selected-node']).toBe(NODE_NAME);
    expect(claim.status?.capacity).toEqual({ storage: '1Gi' });
    const pv = await h.core.readPersistentVolume({ name: claim.spec!.volumeName! });
    expect(pv.spec?.claimRef).toMatchObject({ namespace: 'default', name: 'notes', uid: claim.metadata?.uid });
    expect(pv.spec?.persistentVolumeReclaimPolicy).toBe('Delete');
    const path = pv.spec!.hostPath!.path;
    expect(dirname(path)).toBe(volumes);

    await h.core.deleteNamespacedPod({ name: 'writer', namespace: 'default', gracePeriodSeconds: 0 });
    await scheduledPod('second-writer', 'notes', ['append', '/data/notes.txt', 'second']);
    await h.waitForPod('second-writer', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    expect(readFileSync(join(path, 'notes.txt'), 'utf8')).toBe('first\nsecond\n');
    await h.core.deleteNamespacedPod({ name: 'second-writer', namespace: 'default', gracePeriodSeconds: 0 });

    // Reclaim policy Delete: the claim's deletion releases the volume, which goes with its directory.
    await h.core.deleteNamespacedPersistentVolumeClaim({ name: 'notes', namespace: 'default' });
    await volumeGone(pv.metadata!.name!);
    expect(existsSync(path)).toBe(false);
  });

  it('keeps a deleted claim, its volume and its data while a running Pod uses it (pvc-protection)', async () => {
    await apply(claimManifest('in-use'));
    await scheduledPod('user', 'in-use', ['keep', '/data/log', 'busy']);
    await h.waitForPod('user', 'running', (p) => containerStatus(p, 'main')?.state?.running !== undefined);
    const claim = await claimUntil(
      'in-use',
      'Bound and protected',
      (c) => c.status?.phase === 'Bound' && !!c.metadata?.finalizers?.includes('kubernetes.io/pvc-protection'),
    );
    const name = claim.spec!.volumeName!;
    const path = (await h.core.readPersistentVolume({ name })).spec!.hostPath!.path;

    await kubectl(h.cluster.kubeconfigPath, ['delete', 'pvc', 'in-use', '--wait=false']);
    const terminating = await claimUntil('in-use', 'terminating', (c) => !!c.metadata?.deletionTimestamp);
    expect(terminating.metadata?.finalizers).toContain('kubernetes.io/pvc-protection');
    // Still protected a moment later: the volume stays Bound and the data stays while the Pod runs.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await readClaim('in-use')).metadata?.deletionTimestamp).toBeDefined();
    expect((await h.core.readPersistentVolume({ name })).status?.phase).toBe('Bound');
    expect(readFileSync(join(path, 'log'), 'utf8')).toBe('busy\n');

    await h.core.deleteNamespacedPod({ name: 'user', namespace: 'default', gracePeriodSeconds: 0 });
    await volumeGone(name);
    expect(existsSync(path)).toBe(false);
  });

  it('provisions an Immediate class at once and keeps a Retain volume and its data after the claim', async () => {
    await apply({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'keep' },
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'Immediate',
    });
    await apply(claimManifest('archive', { storageClassName: 'keep' }));
    const claim = await claimUntil('archive', 'Bound', (c) => c.status?.phase === 'Bound');
    const name = claim.spec!.volumeName!;
    await h.core.deleteNamespacedPersistentVolumeClaim({ name: 'archive', namespace: 'default' });
    const released = await waitFor(
      `volume ${name} Released`,
      async () => {
        const pv = await h.core.readPersistentVolume({ name });
        return pv.status?.phase === 'Released' ? pv : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    expect(released.spec?.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(existsSync(released.spec!.hostPath!.path)).toBe(true);
  });

  it("leaves a Pod naming a missing claim Pending with kube's reasons, and runs it once the claim exists", async () => {
    await scheduledPod('waits-for-claim', 'later', ['append', '/data/x', 'x']);
    const pod = await h.waitForPod('waits-for-claim', 'unschedulable', (p) =>
      (p.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False'),
    );
    expect(pod.status?.phase).toBe('Pending');
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      reason: 'Unschedulable',
      message: '0/1 nodes are available: persistentvolumeclaim "later" not found.',
    });

    // A Pod placed on the node directly (no scheduler) waits in ContainerCreating with the kubelet's reason.
    await h.createPod('placed', {
      restartPolicy: 'Never',
      containers: [container(['append', '/data/x', 'x'])],
      ...dataVolume('later'),
    });
    const placed = await h.waitForPod('placed', 'waiting for its claim', (p) =>
      /persistentvolumeclaims "later" not found/.test(containerStatus(p, 'main')?.state?.waiting?.message ?? ''),
    );
    expect(placed.status?.phase).toBe('Pending');
    expect(containerStatus(placed, 'main')?.state?.waiting?.reason).toBe('ContainerCreating');

    await apply(claimManifest('later'));
    await h.waitForPod('waits-for-claim', 'Succeeded', (p) => p.status?.phase === 'Succeeded', 30_000);
    await h.core.deleteNamespacedPod({ name: 'placed', namespace: 'default', gracePeriodSeconds: 0 });
    await h.core.deleteNamespacedPod({ name: 'waits-for-claim', namespace: 'default', gracePeriodSeconds: 0 });
  });

  it("keeps a StatefulSet's claims when it scales to zero and gives the data back when it scales up", async () => {
    await apply({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'journal', namespace: 'default' },
      spec: {
        replicas: 1,
        serviceName: 'journal',
        selector: { matchLabels: { app: 'journal' } },
        template: {
          metadata: { labels: { app: 'journal' } },
          spec: { terminationGracePeriodSeconds: 5, containers: [container(['keep', '/data/log', 'started'])] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    });
    const running = () =>
      h.waitForPod('journal-0', 'running', (p) => containerStatus(p, 'main')?.state?.running !== undefined, 30_000);
    await running();
    const claim = await claimUntil('data-journal-0', 'Bound', (c) => c.status?.phase === 'Bound');
    const pv = await h.core.readPersistentVolume({ name: claim.spec!.volumeName! });
    const log = join(pv.spec!.hostPath!.path, 'log');
    await waitFor('the first line', async () => readFileSync(log, 'utf8') === 'started\n' || undefined, {
      timeoutMs: 10_000,
    });

    await kubectl(h.cluster.kubeconfigPath, ['scale', 'statefulset', 'journal', '--replicas=0']);
    await waitFor(
      'journal-0 to be gone',
      async () =>
        (await h.core.readNamespacedPod({ name: 'journal-0', namespace: 'default' }).then(
          () => false,
          () => true,
        )) || undefined,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect((await readClaim('data-journal-0')).status?.phase).toBe('Bound');

    await kubectl(h.cluster.kubeconfigPath, ['scale', 'statefulset', 'journal', '--replicas=1']);
    await running();
    await waitFor('the second line', async () => readFileSync(log, 'utf8') === 'started\nstarted\n' || undefined, {
      timeoutMs: 10_000,
    });
    expect((await readClaim('data-journal-0')).spec?.volumeName).toBe(pv.metadata?.name);

    // Deleting the member's claim and Pod: the claim goes once the Pod is gone (pvc-protection), the set waits for
    // that before it recreates the member, which starts on a new, empty volume.
    await kubectl(h.cluster.kubeconfigPath, ['delete', 'pvc', 'data-journal-0', '--wait=false']);
    await h.core.deleteNamespacedPod({ name: 'journal-0', namespace: 'default' });
    const fresh = await claimUntil(
      'data-journal-0',
      'recreated and Bound',
      (c) => c.metadata?.uid !== claim.metadata?.uid && c.status?.phase === 'Bound',
    );
    expect(fresh.spec?.volumeName).not.toBe(pv.metadata?.name);
    await running();
    const freshPath = (await h.core.readPersistentVolume({ name: fresh.spec!.volumeName! })).spec!.hostPath!.path;
    await waitFor(
      'the new volume to be written',
      async () => readFileSync(join(freshPath, 'log'), 'utf8') === 'started\n' || undefined,
      {
        timeoutMs: 10_000,
      },
    );
    await volumeGone(pv.metadata!.name!);
    expect(existsSync(log)).toBe(false);
  });
});
