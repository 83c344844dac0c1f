// The ManagedSeed controller against two local API servers: a garden serving Gardener's kinds and a second cluster
// that plays the shoot (reached with its admin kubeconfig instead of the shoot access Secret), the gardenlet chart
// rendered with the real helm. A ManagedSeed of a reconciled shoot on seed `local` gets the `garden` namespace and the
// gardenlet (Deployment, ConfigMap with the merged configuration naming Seed `infra`, bootstrap kubeconfig Secret)
// applied into the shoot and a bootstrap token in the garden; SeedRegistered turns True when the Seed reports
// GardenletReady; deletion deletes the Seed first and waits for it, then the gardenlet and the namespace, then the
// finalizer is released.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, isNotFound, Kinds, Manager, type KubernetesObject } from '@gardener-ts/controller-runtime';
import {
  installCrds,
  loadCrds,
  startTestCluster,
  waitFor,
  workspaceRoot,
  type TestCluster,
} from '@gardener-ts/testing';
import { parse } from 'yaml';
import { gardenletChartRenderer } from '../../charts/gardenlet-chart.js';
import { HelmRenderer } from '../../charts/helm.js';
import { exampleShoot } from '../../component/testdata/fixtures.js';
import { addManagedSeedController } from './add.js';
import { ManagedSeedKind, SeedKind, ShootKind, type ManagedSeed } from './kinds.js';

let gardenCluster: TestCluster;
let shootCluster: TestCluster;
let garden: ApiClient;
let shoot: ApiClient;
let mgr: Manager;
const root = workspaceRoot();
const helm = new HelmRenderer({
  helmBinary: join(root, 'tools/k8s-binaries/vendor/helm'),
  chartsDir: join(root, 'deploy/charts'),
});
const gone = (read: Promise<unknown>) => read.then(() => false).catch((err: unknown) => isNotFound(err));
const managedSeed = () => garden.get(ManagedSeedKind, { namespace: 'garden', name: 'infra' });
const conditionOf = (ms: ManagedSeed, type: string) => ms.status?.conditions?.find((c) => c.type === type);

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

beforeAll(async () => {
  [gardenCluster, garden] = await startCluster(generatedCRDs(), ['garden']);
  [shootCluster, shoot] = await startCluster([], []);
  const created = await garden.create(
    exampleShoot((s) => {
      s.metadata = { name: 'infra', namespace: 'garden' };
      delete s.status;
    }),
  );
  await garden.updateStatus({
    ...created,
    status: {
      technicalID: 'shoot--garden--infra',
      seedName: 'local',
      observedGeneration: created.metadata?.generation,
      lastOperation: {
        type: 'Create',
        state: 'Succeeded',
        progress: 100,
        description: 'done',
        lastUpdateTime: new Date().toISOString(),
      },
    },
  } as never);
  mgr = await Manager.create({
    clusters: {
      garden: { kubeConfig: gardenCluster.kubeconfigPath },
      seed: { kubeConfig: shootCluster.kubeconfigPath },
    },
    gracefulShutdownTimeoutMs: 0,
  });
  addManagedSeedController(mgr, {
    seedName: 'local',
    gardenCluster: 'garden',
    seedCluster: 'seed',
    concurrentSyncs: 2,
    syncPeriodMs: 3_600_000,
    waitSyncPeriodMs: 200,
    parentConfig: {
      apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
      kind: 'GardenletConfiguration',
      controllers: { shootCare: { syncPeriod: '15s' } },
    },
    chart: gardenletChartRenderer(helm, join(root, 'deploy/charts')),
    garden: { server: 'https://garden.example:443' },
    shootConnector: async () => ({ client: shoot, close: () => undefined }),
  });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  await helm.close();
  garden?.close();
  shoot?.close();
  await shootCluster?.stop();
  await gardenCluster?.stop();
});

describe('the ManagedSeed controller', { timeout: 60_000 }, () => {
  it('deploys the gardenlet into the shoot with a bootstrap token', async () => {
    await garden.create({
      apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
      kind: 'ManagedSeed',
      metadata: { name: 'infra', namespace: 'garden' },
      spec: {
        shoot: { name: 'infra' },
        gardenlet: {
          bootstrap: 'BootstrapToken',
          mergeWithParent: true,
          config: {
            apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
            kind: 'GardenletConfiguration',
            seedConfig: { spec: { provider: { type: 'local', region: 'infra' } } },
          },
        },
      },
    } as ManagedSeed);

    const deployment = await waitFor('the gardenlet Deployment in the shoot', () =>
      shoot.get(Kinds.Deployment, { namespace: 'garden', name: 'gardenlet' }).catch(() => undefined),
    );
    expect(deployment.metadata?.namespace).toBe('garden');
    const configMap = await shoot.get(Kinds.ConfigMap, { namespace: 'garden', name: 'gardenlet-config' });
    const config = parse(configMap.data!['config.yaml']!);
    expect(config.seedConfig).toEqual({
      metadata: { name: 'infra' },
      spec: { provider: { type: 'local', region: 'infra' } },
    });
    expect(config.controllers.shootCare.syncPeriod).toBe('15s');
    const bootstrap = await shoot.get(Kinds.Secret, { namespace: 'garden', name: 'gardenlet-kubeconfig-bootstrap' });
    const kubeconfig = parse(Buffer.from(bootstrap.data!['kubeconfig']!, 'base64').toString());
    expect(kubeconfig.clusters[0].cluster.server).toBe('https://garden.example:443');
    const [id] = (kubeconfig.users[0].user.token as string).split('.');
    await garden.get(Kinds.Secret, { namespace: 'kube-system', name: `bootstrap-token-${id}` });

    const ms = await waitFor('SeedRegistered False waiting for the Seed', async () => {
      const current = await managedSeed();
      return conditionOf(current, 'SeedRegistered')?.reason === 'Reconciling' ? current : undefined;
    });
    expect(ms.metadata?.finalizers).toEqual(['gardener']);
    expect(conditionOf(ms, 'ShootReconciled')?.status).toBe('True');
    expect(ms.status?.observedGeneration).toBe(ms.metadata?.generation);
  });

  it('reports SeedRegistered True once the new gardenlet registered its Seed and is ready', async () => {
    const seed: KubernetesObject = await garden.create<KubernetesObject>({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Seed',
      metadata: { name: 'infra', finalizers: ['gardener'] },
      spec: {
        provider: { type: 'local', region: 'infra' },
        dns: { provider: { type: 'local', secretRef: { name: 'x', namespace: 'garden' } } },
        ingress: { domain: 'ingress.infra.example', controller: { kind: 'nginx' } },
        networks: { nodes: '10.0.0.0/16', pods: '10.1.0.0/16', services: '10.2.0.0/16' },
      },
    } as KubernetesObject);
    await garden.updateStatus({
      ...seed,
      status: {
        conditions: [
          {
            type: 'GardenletReady',
            status: 'True',
            reason: 'GardenletReady',
            message: 'ok',
            lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            lastUpdateTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          },
        ],
      },
    } as never);
    await waitFor('SeedRegistered True', async () => {
      const current = await managedSeed();
      return conditionOf(current, 'SeedRegistered')?.status === 'True' ? current : undefined;
    });
  });

  it('deletes the Seed first, then the gardenlet and its namespace, then releases the finalizer', async () => {
    await garden.delete(ManagedSeedKind, { namespace: 'garden', name: 'infra' });
    const seed = await waitFor('the Seed being deleted', async () => {
      const current = await garden.get(SeedKind, { name: 'infra' });
      return current.metadata?.deletionTimestamp ? current : undefined;
    });
    // The child gardenlet still runs while its Seed is deleted.
    await new Promise((r) => setTimeout(r, 500));
    await shoot.get(Kinds.Deployment, { namespace: 'garden', name: 'gardenlet' });
    expect(await gone(managedSeed())).toBe(false);

    // The child gardenlet released its Seed.
    await garden.patch(SeedKind, { name: 'infra' }, { type: 'merge', patch: { metadata: { finalizers: null } } });
    expect(seed.metadata?.name).toBe('infra');
    await waitFor('the gardenlet gone from the shoot', () =>
      gone(shoot.get(Kinds.Deployment, { namespace: 'garden', name: 'gardenlet' })),
    );
    await waitFor(
      'the garden namespace gone from the shoot',
      () => gone(shoot.get(Kinds.Namespace, { name: 'garden' })),
      {
        timeoutMs: 20_000,
      },
    );
    await waitFor('the ManagedSeed gone', () => gone(managedSeed()), { timeoutMs: 20_000 });
    // The shoot itself is left alone.
    await garden.get(ShootKind, { namespace: 'garden', name: 'infra' });
  });
});
