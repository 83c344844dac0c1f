// The Bastion controller against two local API servers: a garden serving Gardener's kinds (the operations.gardener.cloud
// Bastion among them) and a seed with Gardener's extension Bastion and Cluster CRDs, the extension played by the test
// (component/testdata/fake-extension.ts for its finalizer). A Bastion for a shoot on the seed becomes an extension
// Bastion in the shoot's control plane namespace with the Bastion's key in its user data; the extension's success
// with an ingress turns `BastionReady` True with `status.ingress`, its error False with the message; a new ingress is
// deployed again; the deletion waits for the extension Bastion to be gone before the finalizer is released.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, isNotFound, Manager } from '@gardener-ts/controller-runtime';
import {
  gardenerAsset,
  installCrds,
  loadCrds,
  startTestCluster,
  waitFor,
  type TestCluster,
} from '@gardener-ts/testing';
import { exampleShoot } from '../../component/testdata/fixtures.js';
import { fakeExtension } from '../../component/testdata/fake-extension.js';
import { addBastionController } from './add.js';
import { BastionKind, ExtensionBastionKind, type CoreBastion } from './kinds.js';

let gardenCluster: TestCluster;
let seedCluster: TestCluster;
let garden: ApiClient;
let seed: ApiClient;
let mgr: Manager;

const PROJECT = 'garden-p';
const CONTROL_PLANE = 'shoot--p--dev';
const NAME = 'cli-7h2kq';
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl bastion@test';
const gone = (read: Promise<unknown>) => read.then(() => false).catch((err: unknown) => isNotFound(err));
const bastionOf = () => garden.get(BastionKind, { namespace: PROJECT, name: NAME });
const extensionOf = () => seed.get(ExtensionBastionKind, { namespace: CONTROL_PLANE, name: NAME });
const readyOf = (b: CoreBastion) => b.status?.conditions?.find((c) => c.type === 'BastionReady');
const extensionRef = { kind: 'Bastion', name: NAME, namespace: CONTROL_PLANE };

async function startCluster(crds: Parameters<typeof loadCrds>[0], namespaces: string[]) {
  const cluster = await startTestCluster();
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  await installCrds(kc, await loadCrds(crds));
  const client = await ApiClient.create(cluster.kubeconfigPath);
  for (const name of namespaces) await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return [cluster, client] as const;
}

/** The extension's part: takes the reconcile request and reports `state` (with `status` extras) after it. */
async function report(state: string, status: Record<string, unknown> = {}): Promise<void> {
  const current = await extensionOf();
  const annotations = { ...current.metadata?.annotations };
  delete annotations['gardener.cloud/operation'];
  const updated = await seed.update({
    ...current,
    metadata: { ...current.metadata, annotations, finalizers: [fakeExtension(seed).finalizer] },
  });
  await seed.updateStatus({
    ...updated,
    status: {
      observedGeneration: updated.metadata?.generation,
      lastOperation: {
        type: 'Reconcile',
        state,
        progress: state === 'Succeeded' ? 100 : 50,
        description: state,
        // A new time for every report, so each is a change of the last operation.
        lastUpdateTime: new Date().toISOString(),
      },
      ...status,
    },
  });
}

beforeAll(async () => {
  [gardenCluster, garden] = await startCluster(generatedCRDs(), ['garden', PROJECT]);
  [seedCluster, seed] = await startCluster(
    [
      gardenerAsset('crds', '10-crd-extensions.gardener.cloud_bastions.yaml'),
      gardenerAsset('crds', '10-crd-extensions.gardener.cloud_clusters.yaml'),
    ],
    [CONTROL_PLANE],
  );
  const shoot = exampleShoot((s) => {
    s.metadata = { name: 'dev', namespace: PROJECT };
    delete s.status;
  });
  await garden.create(shoot);
  // What the shoot flow writes into the seed: the Cluster resource of the control plane namespace.
  await seed.create({
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Cluster',
    metadata: { name: CONTROL_PLANE },
    spec: { shoot: { ...shoot, apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Shoot' }, seed: {}, cloudProfile: {} },
  });
  mgr = await Manager.create({
    clusters: {
      garden: { kubeConfig: gardenCluster.kubeconfigPath },
      seed: { kubeConfig: seedCluster.kubeconfigPath },
    },
    gracefulShutdownTimeoutMs: 0,
  });
  addBastionController(mgr, { seedName: 'local', gardenCluster: 'garden', seedCluster: 'seed', concurrentSyncs: 2 });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  garden?.close();
  seed?.close();
  await seedCluster?.stop();
  await gardenCluster?.stop();
});

describe('the Bastion controller', { timeout: 60_000 }, () => {
  it("deploys the extension Bastion with the Bastion's key in its user data", async () => {
    await garden.create({
      apiVersion: 'operations.gardener.cloud/v1alpha1',
      kind: 'Bastion',
      metadata: { name: NAME, namespace: PROJECT },
      spec: {
        shootRef: { name: 'dev' },
        seedName: 'local',
        providerType: 'local',
        sshPublicKey: KEY,
        ingress: [{ ipBlock: { cidr: '203.0.113.0/24' } }],
      },
    });
    const extension = await waitFor('the extension Bastion', () => extensionOf().catch(() => undefined));
    expect(extension.metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
    expect(extension.spec.type).toBe('local');
    expect(extension.spec.ingress).toEqual([{ ipBlock: { cidr: '203.0.113.0/24' } }]);
    const userData = Buffer.from(extension.spec.userData, 'base64').toString();
    expect(userData).toMatch(/^#!\/bin\/bash -eu\n/);
    expect(userData).toContain(`echo "${KEY}" > /home/gardener/.ssh/authorized_keys\n`);
    expect((await bastionOf()).metadata?.finalizers).toEqual(['gardener']);
    expect(readyOf(await bastionOf())?.status).not.toBe('True');
  });

  it("mirrors the extension's success: BastionReady True with the ingress", async () => {
    await report('Succeeded', { ingress: { ip: '172.18.255.10', hostname: 'bastion.local.gardener.cloud' } });
    const bastion = await waitFor('BastionReady True', async () => {
      const b = await bastionOf();
      return readyOf(b)?.status === 'True' ? b : undefined;
    });
    expect(readyOf(bastion)).toMatchObject({
      reason: 'SuccessfullyReconciled',
      message: 'The bastion has been reconciled successfully.',
    });
    expect(bastion.status?.ingress).toEqual({ ip: '172.18.255.10', hostname: 'bastion.local.gardener.cloud' });
    expect(bastion.status?.observedGeneration).toBe(bastion.metadata?.generation);
  });

  it("mirrors the extension's error: BastionReady False with its message", async () => {
    await report('Error', { lastError: { description: 'no capacity for the bastion host' } });
    const ready = await waitFor('BastionReady False', async () => {
      const c = readyOf(await bastionOf());
      return c?.status === 'False' ? c : undefined;
    });
    expect(ready).toMatchObject({
      reason: 'FailedReconciling',
      message: `Error while waiting for Bastion ${CONTROL_PLANE}/${NAME} to become ready: error during reconciliation: no capacity for the bastion host`,
    });
  });

  it('deploys a changed ingress again', async () => {
    await garden.patch(
      BastionKind,
      { namespace: PROJECT, name: NAME },
      { type: 'merge', patch: { spec: { ingress: [{ ipBlock: { cidr: '198.51.100.7/32' } }] } } },
    );
    const extension = await waitFor('the new ingress in the seed', async () => {
      const e = await extensionOf();
      return e.spec.ingress[0]?.ipBlock.cidr === '198.51.100.7/32' ? e : undefined;
    });
    expect(extension.metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
    await report('Succeeded', { ingress: { ip: '172.18.255.11' } });
    await waitFor('BastionReady True again', async () => {
      const b = await bastionOf();
      return readyOf(b)?.status === 'True' && b.status?.ingress?.ip === '172.18.255.11' ? true : undefined;
    });
  });

  it('deletes the extension Bastion and releases the finalizer once it is gone', async () => {
    await garden.delete(BastionKind, { namespace: PROJECT, name: NAME });
    await waitFor('the extension Bastion deleted', async () =>
      (await extensionOf()).metadata?.deletionTimestamp ? true : undefined,
    );
    // The Bastion waits for the extension.
    const deleting = await bastionOf();
    expect(deleting.metadata?.finalizers).toEqual(['gardener']);
    expect(readyOf(deleting)).toMatchObject({
      status: 'False',
      reason: 'DeletionInProgress',
      message: 'The bastion is being deleted.',
    });

    await fakeExtension(seed).release(extensionRef);
    await waitFor('the Bastion gone', async () => ((await gone(bastionOf())) ? true : undefined));
    expect(await gone(extensionOf())).toBe(true);
  });
});
