// The shoot care controller against the local API server, which plays garden, seed and the shoot at once: Gardener's
// example Shoot (applied with kubectl, bound to seed `local`, its status as the Shoot reconciler writes it), its
// control plane objects in `shoot--local--local` with the statuses their controllers (the controller manager,
// etcd-druid, gardener-resource-manager) would write, the secrets the secrets manager keeps there — the cluster CA
// bundle and client CA being the test API server's own CA, the `health-check` static token one the test API server
// accepts — and a Node with its node-agent Lease. APIServerAvailable asks the test API server's real /healthz; the
// constraints read the webhook configurations applied to it with kubectl.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs, parseManifests } from '@gardener-ts/api';
import {
  ApiClient,
  Kinds,
  Manager,
  isAlreadyExists,
  isNotFound,
  type Condition,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import {
  gardenerAsset,
  installCrds,
  kubectl,
  loadCrds,
  startTestCluster,
  waitFor,
  type TestCluster,
} from '@gardener-ts/testing';
import { etcdCRD } from '../etcd/crd.js';
import { ShootKind, type Shoot } from '../../shoot/kinds.js';
import { addShootCareController } from './add.js';
import { EtcdKind, ManagedResourceKind } from './reconciler.js';

const NS = 'shoot--local--local';
const TOKEN = 'health-check-token-for-the-test';
let dir: string;
let cluster: TestCluster;
let admin: ApiClient;
let mgr: Manager;

const shootKey = { namespace: 'garden-local', name: 'local' };
const managedBy = { 'managed-by': 'secrets-manager', 'manager-identity': 'gardenlet' };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

async function patchStatus(
  kind: Parameters<ApiClient['patch']>[0],
  key: { namespace?: string; name: string },
  status: unknown,
) {
  await admin.patch(kind, key, { type: 'merge', patch: { status } }, { subresource: 'status' });
}

/** A control plane Deployment as the controller manager reports it once rolled out (or not available). */
async function deployment(name: string, available = true) {
  const labels = { app: name, 'gardener.cloud/role': 'controlplane' };
  await admin
    .create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: NS, labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: name }] } },
      },
    } as KubernetesObject)
    .catch((err: unknown) => {
      if (!isAlreadyExists(err)) throw err;
    });
  const d = await admin.get(Kinds.Deployment, { namespace: NS, name });
  const status = available ? 'True' : 'False';
  await patchStatus(
    Kinds.Deployment,
    { namespace: NS, name },
    {
      observedGeneration: d.metadata?.generation,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: available ? 1 : 0,
      availableReplicas: available ? 1 : 0,
      conditions: [
        {
          type: 'Available',
          status,
          reason: available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
          message: available
            ? 'Deployment has minimum availability.'
            : 'Deployment does not have minimum availability.',
          lastTransitionTime: now(),
          lastUpdateTime: now(),
        },
      ],
    },
  );
}

/** A ManagedResource as gardener-resource-manager reports it. */
async function managedResource(name: string, cls: string | undefined, healthy: boolean) {
  await admin
    .create({
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: { name, namespace: NS },
      spec: { ...(cls ? { class: cls } : {}), secretRefs: [{ name }] },
    } as KubernetesObject)
    .catch((err: unknown) => {
      if (!isAlreadyExists(err)) throw err;
    });
  const mr = await admin.get(ManagedResourceKind, { namespace: NS, name });
  const cond = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastTransitionTime: now(),
    lastUpdateTime: now(),
  });
  await patchStatus(
    ManagedResourceKind,
    { namespace: NS, name },
    {
      observedGeneration: mr.metadata?.generation,
      conditions: [
        cond('ResourcesApplied', 'True', 'ApplySucceeded', 'All resources are applied.'),
        healthy
          ? cond('ResourcesHealthy', 'True', 'ResourcesHealthy', 'All resources are healthy.')
          : cond('ResourcesHealthy', 'False', 'DeploymentUnhealthy', 'Deployment kube-system/coredns is unhealthy'),
        cond('ResourcesProgressing', 'False', 'ResourcesRolledOut', 'All resources are rolled out.'),
      ],
    },
  );
}

const conditions = async () => ((await admin.get(ShootKind, shootKey)).status?.conditions ?? []) as Condition[];
const conditionOf = (list: Condition[], type: string) => list.find((c) => c.type === type);

/** Waits until the care controller reports `type` with `status` (and `reason`). */
function waitForCondition(type: string, status: string, reason?: string) {
  return waitFor(
    `${type} ${status}${reason ? ` (${reason})` : ''}`,
    async () => {
      const c = conditionOf(await conditions(), type);
      return c?.status === status && (reason === undefined || c.reason === reason) ? c : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shootcare-'));
  const tokenFile = join(dir, 'tokens.csv');
  await writeFile(tokenFile, `${TOKEN},health-check,health-check\n`);
  cluster = await startTestCluster({ tokenFile });
  const crds = await loadCrds([
    ...generatedCRDs(),
    etcdCRD(),
    gardenerAsset('crds', '10-crd-resources.gardener.cloud_managedresources.yaml'),
  ]);
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  await installCrds(kc, crds);
  admin = await ApiClient.create(cluster.kubeconfigPath);

  // Gardener's example Shoot as a user applies it, bound to seed `local` (the scheduler's part) with the version
  // admission would default.
  await kubectl(cluster.kubeconfigPath, ['apply', '-f', gardenerAsset('examples', 'local', 'namespace.yaml')]);
  const shoot = parseManifests(readFileSync(gardenerAsset('examples', 'local', 'shoot.yaml'), 'utf8'))[0] as Record<
    string,
    any
  >;
  shoot.spec.seedName = 'local';
  shoot.spec.kubernetes.version = '1.33.1';
  await kubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], { input: JSON.stringify(shoot) });
  // Its status as the Shoot reconciler writes it after a successful reconciliation, plus a condition of another owner.
  await patchStatus(ShootKind, shootKey, {
    technicalID: NS,
    seedName: 'local',
    hibernated: false,
    advertisedAddresses: [{ name: 'unmanaged', url: cluster.server.url }],
    lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100, lastUpdateTime: now(), description: 'done' },
    conditions: [
      {
        type: 'SomethingElse',
        status: 'True',
        reason: 'Mine',
        message: 'written by another controller',
        lastTransitionTime: now(),
        lastUpdateTime: now(),
      },
    ],
  });

  // The control plane namespace with the secrets manager's secrets (the test API server's CA stands in for the
  // shoot's cluster and client CAs).
  await kubectl(cluster.kubeconfigPath, ['create', 'namespace', NS]);
  const { ca } = cluster.server.credentials;
  const secret = (name: string, config: string, data: Record<string, string>) =>
    admin.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: NS, labels: { name: config, ...managedBy } },
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
    } as KubernetesObject);
  await secret('ca-bundle-0123abcd', 'ca-bundle', { 'bundle.crt': ca.certPem });
  await secret('ca-client-0123abcd', 'ca-client', { 'ca.crt': ca.certPem, 'ca.key': ca.keyPem });
  await secret('kube-apiserver-static-token-0123abcd', 'kube-apiserver-static-token', {
    'static_tokens.csv': `${TOKEN},health-check,health-check\n`,
  });

  mgr = await Manager.create({
    clusters: { garden: { kubeConfig: cluster.kubeconfigPath }, seed: { kubeConfig: cluster.kubeconfigPath } },
    gracefulShutdownTimeoutMs: 0,
  });
  addShootCareController(mgr, {
    seedName: 'local',
    gardenCluster: 'garden',
    seedCluster: 'seed',
    concurrentSyncs: 1,
    syncPeriodMs: 300,
    thresholds: {},
    staleExtensionHealthCheckThresholdMs: 300_000,
  });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  admin?.close();
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the shoot care controller', { timeout: 60_000 }, () => {
  it('reports a control plane that is not there yet, naming what is missing', async () => {
    const cp = await waitForCondition('ControlPlaneHealthy', 'False', 'EtcdMissing');
    expect(cp.message).toBe('Missing required etcds: [etcd-events etcd-main]');
    const list = await conditions();
    expect(conditionOf(list, 'APIServerAvailable')).toMatchObject({
      status: 'False',
      reason: 'APIServerDown',
      message: 'Could not reach API server during client initialization.',
    });
    expect(conditionOf(list, 'EveryNodeReady')).toMatchObject({
      status: 'Unknown',
      message: 'Shoot control plane is not running at the moment.',
    });
    // Another controller's condition is kept.
    expect(conditionOf(list, 'SomethingElse')).toMatchObject({ status: 'True', reason: 'Mine' });
  });

  it('turns every condition True once the control plane and the node are healthy', async () => {
    for (const name of ['etcd-main', 'etcd-events']) {
      await admin.create({
        apiVersion: 'druid.gardener.cloud/v1alpha1',
        kind: 'Etcd',
        metadata: { name, namespace: NS, labels: { 'gardener.cloud/role': 'controlplane', role: name.slice(5) } },
        spec: { replicas: 1, labels: { app: name }, selector: { matchLabels: { app: name } }, etcd: {}, backup: {} },
      } as KubernetesObject);
      await patchStatus(EtcdKind, { namespace: NS, name }, { ready: true, observedGeneration: 1 });
    }
    const missingDeployments = await waitForCondition('ControlPlaneHealthy', 'False', 'DeploymentMissing');
    expect(missingDeployments.message).toBe(
      'Missing required deployments: [gardener-resource-manager kube-apiserver kube-controller-manager kube-scheduler]',
    );
    for (const name of ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'gardener-resource-manager']) {
      await deployment(name);
    }
    await managedResource('shoot-core-system', undefined, true);
    await managedResource('kube-apiserver-rbac', 'seed', true);
    // The worker's node in the shoot, as its kubelet and gardener-node-agent report it.
    await admin.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'machine-local-0', labels: { 'worker.gardener.cloud/pool': 'local' } },
    } as KubernetesObject);
    await patchStatus(
      Kinds.Node,
      { name: 'machine-local-0' },
      {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
            lastHeartbeatTime: now(),
            lastTransitionTime: now(),
          },
        ],
        nodeInfo: { kubeletVersion: 'v1.33.1' },
      },
    );
    await admin.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'gardener-node-agent-machine-local-0', namespace: 'kube-system' },
      spec: {
        holderIdentity: 'machine-local-0',
        leaseDurationSeconds: 3600,
        renewTime: new Date().toISOString().replace('Z', '000Z'),
      },
    } as KubernetesObject);

    await waitForCondition('ControlPlaneHealthy', 'True');
    await waitForCondition('EveryNodeReady', 'True');
    const list = await conditions();
    expect(list.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['SomethingElse', 'True', 'Mine'],
      ['APIServerAvailable', 'True', 'HealthzRequestSucceeded'],
      ['ControlPlaneHealthy', 'True', 'ControlPlaneRunning'],
      ['ObservabilityComponentsHealthy', 'True', 'ObservabilityComponentsRunning'],
      ['EveryNodeReady', 'True', 'EveryNodeReady'],
      ['SystemComponentsHealthy', 'True', 'SystemComponentsRunning'],
    ]);
    expect(conditionOf(list, 'ObservabilityComponentsHealthy')?.message).toContain('No monitoring or logging stack');
    const shoot: Shoot = await admin.get(ShootKind, shootKey);
    expect((shoot.status?.constraints ?? []).map((c) => [c.type, c.status, c.reason])).toEqual([
      ['HibernationPossible', 'True', 'NoProblematicWebhooks'],
      ['MaintenancePreconditionsSatisfied', 'True', 'NoProblematicWebhooks'],
    ]);
  });

  it('reports a webhook in the shoot that would block waking it up in the constraints', async () => {
    // Its URL answers nothing: no Pod is created while it exists, and it is deleted at the end.
    await kubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'pod-policy' },
        webhooks: [
          {
            name: 'pods.policy.example.com',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            failurePolicy: 'Fail',
            timeoutSeconds: 10,
            clientConfig: { url: 'https://127.0.0.1:1/validate' },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          },
        ],
      }),
    });
    const hibernation = await waitFor(
      'HibernationPossible False',
      async () => {
        const shoot: Shoot = await admin.get(ShootKind, shootKey);
        const c = shoot.status?.constraints?.find((x) => x.type === 'HibernationPossible');
        return c?.status === 'False' ? c : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    expect(hibernation).toMatchObject({ reason: 'ProblematicWebhooks', codes: ['ERR_PROBLEMATIC_WEBHOOK'] });
    await kubectl(cluster.kubeconfigPath, ['delete', 'validatingwebhookconfiguration', 'pod-policy']);
  });

  it('follows a failing kube-apiserver, shoot system component and node', async () => {
    await deployment('kube-apiserver', false);
    const cp = await waitForCondition('ControlPlaneHealthy', 'False', 'DeploymentUnhealthy');
    expect(cp.message).toContain(
      'Deployment "kube-apiserver" is unhealthy: condition "Available" has invalid status False',
    );
    await managedResource('shoot-core-system', undefined, false);
    const system = await waitForCondition('SystemComponentsHealthy', 'False', 'DeploymentUnhealthy');
    expect(system.message).toBe('Deployment kube-system/coredns is unhealthy');
    await patchStatus(
      Kinds.Node,
      { name: 'machine-local-0' },
      {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'KubeletNotReady',
            message: 'container runtime is down',
            lastHeartbeatTime: now(),
            lastTransitionTime: now(),
          },
        ],
      },
    );
    const nodes = await waitForCondition('EveryNodeReady', 'False', 'NodeUnhealthy');
    expect(nodes.message).toContain('Node "machine-local-0" in worker group "local" is unhealthy');

    await deployment('kube-apiserver');
    await managedResource('shoot-core-system', undefined, true);
    await waitForCondition('ControlPlaneHealthy', 'True');
    await waitForCondition('SystemComponentsHealthy', 'True');
  });

  it('reports the API server unreachable when its address does not answer', async () => {
    await patchStatus(ShootKind, shootKey, {
      advertisedAddresses: [{ name: 'unmanaged', url: 'https://127.0.0.1:1' }],
    });
    const c = await waitForCondition('APIServerAvailable', 'False', 'HealthzRequestFailed');
    expect(c.message).toMatch(/^Request to API server \/healthz endpoint failed\./);
    await patchStatus(ShootKind, shootKey, { advertisedAddresses: [{ name: 'unmanaged', url: cluster.server.url }] });
    await waitForCondition('APIServerAvailable', 'True');
  });

  it('deletes evicted pods in the control plane namespace and in the shoot', async () => {
    for (const namespace of [NS, 'kube-system']) {
      await admin.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'evicted', namespace },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      } as KubernetesObject);
      await patchStatus(
        Kinds.Pod,
        { namespace, name: 'evicted' },
        {
          phase: 'Failed',
          reason: 'Evicted',
          message: 'The node was low on resource: memory.',
        },
      );
    }
    for (const namespace of [NS, 'kube-system']) {
      await waitFor(
        `evicted pod in ${namespace} deleted`,
        async () =>
          admin.get(Kinds.Pod, { namespace, name: 'evicted' }).then(
            () => false,
            (err: unknown) => isNotFound(err),
          ),
        { timeoutMs: 20_000, intervalMs: 100 },
      );
    }
  });

  it('does not check a hibernated shoot', async () => {
    await admin.patch(ShootKind, shootKey, { type: 'merge', patch: { spec: { hibernation: { enabled: true } } } });
    await waitFor(
      'every care condition not checked',
      async () => {
        const list = (await conditions()).filter((c) => c.type !== 'SomethingElse');
        return list.length === 5 && list.every((c) => c.status === 'True' && c.reason === 'ConditionNotChecked');
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    const shoot: Shoot = await admin.get(ShootKind, shootKey);
    expect(shoot.status?.technicalID).toBe(NS);
    expect(shoot.status?.lastOperation).toMatchObject({ type: 'Reconcile', state: 'Succeeded' });
    expect((shoot.status?.constraints ?? []).map((c) => [c.type, c.status, c.reason])).toEqual([
      ['HibernationPossible', 'True', 'ConstraintNotChecked'],
      ['MaintenancePreconditionsSatisfied', 'True', 'ConstraintNotChecked'],
      ['CACertificateValiditiesAcceptable', 'True', 'ConstraintNotChecked'],
    ]);
  });
});
