// The shoot's control plane up to gardener-resource-manager and Gardener's shoot access, on a whole local seed
// cluster (API server, controller manager, scheduler, kubelet running Pods as processes, service proxy) with the
// built apps: the botanist's steps for Gardener's provider-local example Shoot bring up etcd, the shoot's
// kube-apiserver (its LoadBalancer Service), then the resource manager — bootstrapped with a client certificate of the
// shoot's client CA, after which its token requestor fills its own shoot access Secret and it runs with that token —
// then the `gardener` shoot access the gardenlet's shoot client is built from, then kube-controller-manager and
// kube-scheduler with their shoot access tokens: a Deployment applied to the shoot gets its ReplicaSet.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifests } from '@gardener-ts/api';
import { ApiClient, Kinds, Manager, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { clusterLayout, defaultComponents, runCluster, type RunningCluster } from '@gardener-ts/local-cluster';
import { createLogger } from '@gardener-ts/logging';
import { waitFor, workspaceRoot } from '@gardener-ts/testing';
import { exampleValues } from '../src/component/testdata/fixtures.js';
import { kubeconfigToken } from '../src/component/shoot-access.js';
import { addEtcdController } from '../src/controller/etcd/add.js';
import { etcdCRD } from '../src/controller/etcd/crd.js';
import { priorityClasses } from '../src/controller/seed/components.js';
import { Botanist } from '../src/shoot/botanist.js';

const values = exampleValues();
// This test is about the resource manager: its seed has no backup, so etcd-main runs without the backup-restore
// sidecar (etcd backups are the subject of etcd.integration.test.ts and etcdbr.integration.test.ts).
delete values.seed.spec.backup;
const namespace = values.namespace;
const builtApps = [
  'dist/tools/gardener-local/cli.js',
  'dist/tools/gardener-local/images/kube-apiserver.js',
  'dist/apps/resource-manager/main.js',
].every((f) => existsSync(join(workspaceRoot(), f)));
const ManagedResourceKind = kind<KubernetesObject & { status?: { conditions?: { type: string; status: string }[] } }>(
  'resources.gardener.cloud/v1alpha1',
  'ManagedResource',
);

let dir: string;
let cluster: RunningCluster | undefined;
let client: ApiClient;
let mgr: Manager | undefined;
let botanist: Botanist;
let bootstrapReason: string | undefined;

const secretData = async (name: string, key: string) => {
  const secret = (await client.get(Kinds.Secret, { namespace, name })) as { data?: Record<string, string> };
  const value = secret.data?.[key];
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString();
};

describe.skipIf(!builtApps || !existsSync('/usr/bin/etcd'))(
  "the shoot's gardener-resource-manager and Gardener's shoot access",
  () => {
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'shoot-grm-'));
      const logger = createLogger({ name: 'shoot-grm', level: process.env.SHOOT_GRM_TEST_LOG ? 'debug' : 'silent' });
      const layout = clusterLayout(dir, 'seed');
      cluster = await runCluster(layout, defaultComponents({ serverTLSBootstrap: false }), logger, {
        kubeletCertificateAuthority: false,
      });
      client = await ApiClient.create(layout.kubeconfig);
      // What the seed reconciler installs: the Etcd and ManagedResource CRDs and Gardener's PriorityClasses.
      const managedResourceCRD = parseManifests(
        await readFile(
          join(workspaceRoot(), 'deploy/gardener/crds/10-crd-resources.gardener.cloud_managedresources.yaml'),
          'utf8',
        ),
      );
      for (const obj of [etcdCRD(), ...managedResourceCRD, ...priorityClasses()])
        await client.apply(obj as KubernetesObject, { fieldManager: 'gardenlet', force: true });
      mgr = await Manager.create({ clusters: { seed: { kubeConfig: layout.kubeconfig } }, log: logger });
      addEtcdController(mgr, { seedCluster: 'seed', statusSyncPeriodMs: 1_000 });
      await mgr.start();

      // The reconcile flow's steps up to kube-apiserver, as the flow orders them. The test process is not in the
      // seed's Pod network, so the gardenlet's shoot client goes through the advertised (load balancer) address.
      botanist = new Botanist(client, client, values, {
        certificateKey: { algorithm: 'ECDSA' },
        controlPlaneWait: { interval: 250, timeout: 120_000 },
        resourceManagerBootstrap: { interval: 250, timeout: 120_000 },
        inSeedCluster: async () => false,
      });
      const s = botanist.seedSteps;
      const signal = AbortSignal.timeout(300_000);
      await s.deployNamespace();
      await s.initializeSecretsManagement();
      await s.deployKubeAPIServerService();
      await botanist.waitForKubeAPIServerService(signal);
      await botanist.deployEtcd();
      await botanist.waitForEtcd(signal);
      await s.deployKubeAPIServer();
      await botanist.waitForDeployment('kube-apiserver', signal);

      const steps = botanist.reconcileSteps() as Record<string, (signal: AbortSignal) => Promise<void>>;
      bootstrapReason = await s.deployGardenerResourceManager(signal);
      await steps.waitForGardenerResourceManager!(signal);
      await steps.deployGardenerAccess!(signal);
      await steps.initializeShootClients!(signal);
    }, 300_000);

    afterAll(async () => {
      botanist?.close();
      await mgr?.stop();
      client?.close();
      await cluster?.stop();
      if (dir && !process.env.SHOOT_GRM_TEST_KEEP) await rm(dir, { recursive: true, force: true });
    }, 60_000);

    it('bootstraps the resource manager, whose token requestor fills its own shoot access; then it runs on that token', async () => {
      expect(bootstrapReason).toBe('its shoot access secret has no token yet');
      const token = await secretData('shoot-access-gardener-resource-manager', 'token');
      expect(token?.split('.')).toHaveLength(3);
      // The bootstrap kubeconfig is gone; the Deployment mounts the generic kubeconfig with the shoot access token.
      const secrets = await client.list(Kinds.Secret, { namespace });
      expect(secrets.items.map((x) => x.metadata?.name)).not.toContainEqual(
        expect.stringMatching(/^shoot-access-gardener-resource-manager-bootstrap-[0-9a-f]{8}$/),
      );
      const deployment = (await client.get(Kinds.Deployment, { namespace, name: 'gardener-resource-manager' })) as any;
      const sources = deployment.spec.template.spec.volumes.find((v: any) => v.name === 'kubeconfig').projected.sources;
      expect(sources[1].secret.name).toBe('shoot-access-gardener-resource-manager');
      // Its own ManagedResource (the ClusterRoleBinding of its ServiceAccount) is applied to the shoot and healthy.
      const mr = await client.get(ManagedResourceKind, { namespace, name: 'shoot-core-gardener-resource-manager' });
      expect(mr.status?.conditions?.find((c) => c.type === 'ResourcesApplied')?.status).toBe('True');
      const binding = await botanist.shootClient().get(kind('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'), {
        name: 'gardener.cloud:target:resource-manager',
      });
      expect((binding as any).subjects).toEqual([
        { kind: 'ServiceAccount', name: 'gardener-resource-manager', namespace: 'kube-system' },
      ]);
      // A second deploy finds a working token: no bootstrap.
      expect(await botanist.seedSteps.deployGardenerResourceManager(AbortSignal.timeout(60_000))).toBeUndefined();
    });

    it("fills the token of Gardener's shoot access kubeconfigs; the shoot client acts as kube-system/gardener", async () => {
      for (const name of ['gardener', 'gardener-internal']) {
        expect(kubeconfigToken((await secretData(name, 'kubeconfig'))!)).toMatch(/^ey/);
      }
      const review = (await botanist.shootClient().create({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
      } as KubernetesObject)) as { status?: { userInfo?: { username?: string } } };
      expect(review.status?.userInfo?.username).toBe('system:serviceaccount:kube-system:gardener');
    });

    it('runs kube-controller-manager on its shoot access token: a Deployment applied to the shoot gets its ReplicaSet', async () => {
      const steps = botanist.reconcileSteps() as Record<string, (signal: AbortSignal) => Promise<void>>;
      await steps.deployKubeControllerManager!(AbortSignal.timeout(60_000));
      await steps.deployKubeScheduler!(AbortSignal.timeout(60_000));
      const shoot = botanist.shootClient();
      await shoot.apply(
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'hello', namespace: 'default' },
          spec: {
            replicas: 1,
            selector: { matchLabels: { app: 'hello' } },
            template: {
              metadata: { labels: { app: 'hello' } },
              spec: { containers: [{ name: 'hello', image: 'registry.k8s.io/pause:3.10' }] },
            },
          },
        } as KubernetesObject,
        { fieldManager: 'test', force: true },
      );
      const replicaSets = await waitFor(
        'the shoot controller manager to create the ReplicaSet',
        async () => {
          const list = await shoot.list(Kinds.ReplicaSet, { namespace: 'default' });
          return list.items.length ? list.items : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      expect(replicaSets[0]?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Deployment', name: 'hello' });
      // kube-controller-manager and kube-scheduler got their tokens from the resource manager's token requestor.
      for (const name of ['kube-controller-manager', 'kube-scheduler']) {
        expect((await secretData(`shoot-access-${name}`, 'token'))?.split('.')).toHaveLength(3);
      }
    }, 120_000);
  },
);
