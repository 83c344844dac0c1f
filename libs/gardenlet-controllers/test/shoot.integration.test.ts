// The gardenlet's Shoot controller against the local API server, garden and seed being one cluster (as in the local
// landscape), with the garden's admission registered: Gardener's provider-local example Project, CloudProfile,
// CredentialsBinding and Shoot applied with kubectl. The test plays the seed's other actors where this API server
// alone has none — the service proxy (the kube-apiserver Service's load balancer address), etcd-druid (Etcd ready),
// the kube controller manager (the Deployments' rollout status), the BackupEntry controller (the example seed has
// backup: entries reported Succeeded) and the shoot's gardener-resource-manager (tokens in
// the shoot access Secrets, ManagedResource conditions) — only through the fields those actors own, and a stand-in
// for the shoot's API server behind the load balancer address: an HTTPS server with the shoot's kube-apiserver
// certificate that answers the gardenlet's shoot client only with the token the "resource manager" issued. It checks what a user and the extensions rely on: the shoot claimed for the seed with its finalizer, the
// control plane objects in its namespace, the credentials as `cloudprovider`, the flow's outcome in lastOperation
// (tasks skipped with their reasons), failures in lastErrors with the task that failed, and deletion down to the
// namespace and the released finalizer.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs, parseManifests } from '@gardener-ts/api';
import { startTestAdmission, type TestGardenWebhooks } from '@gardener-ts/admission-plugins/testing';
import { ApiClient, Kinds, Manager, isNotFound, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { gardenerAsset, kubectl, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addShootController } from '../src/controller/shoot/add.js';
import { kubeconfigToken, withKubeconfigToken } from '../src/component/shoot-access.js';
import { BackupEntryKind } from '../src/controller/backupentry/kinds.js';
import { shootFlowSeedCRDs } from './support/extensions.js';
import { registerReadySeed } from './support/seed.js';
import { EtcdKind, ShootKind, type Shoot } from '../src/shoot/kinds.js';

const VERSION = 'v0.0.0-test';
const example = (file: string) => gardenerAsset('examples', 'local', file);

let env: TestEnvironment;
let admission: TestGardenWebhooks;
let admin: ApiClient;
let mgr: Manager;
let actors: { stop: () => void };
let shootAPIServer: Server;
const issuedTokens = new Set<string>();
const servedCertificates = new Set<string>();
const ManagedResourceKind = {
  group: 'resources.gardener.cloud',
  version: 'v1alpha1',
  kind: 'ManagedResource',
} as const;

/**
 * The stand-in of the shoot's API server: serves the certificate of the shoot's kube-apiserver once it exists and
 * answers discovery and `GET namespaces/kube-system` for the tokens the stand-in resource manager issued, else 401.
 */
async function startShootAPIServer(): Promise<Server> {
  const server = createServer({}, (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    res.setHeader('content-type', 'application/json');
    if (!token || !issuedTokens.has(token)) {
      res.statusCode = 401;
      res.end(
        JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 }),
      );
      return;
    }
    if (req.url === '/api/v1') {
      res.end(
        JSON.stringify({
          kind: 'APIResourceList',
          groupVersion: 'v1',
          resources: [{ name: 'namespaces', kind: 'Namespace', namespaced: false, verbs: ['get'] }],
        }),
      );
    } else if (req.url === '/apis') {
      res.end(JSON.stringify({ kind: 'APIGroupList', apiVersion: 'v1', groups: [] }));
    } else if (req.url === '/api/v1/namespaces/kube-system') {
      res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const decode = (data: Record<string, string> | undefined, key: string) =>
  Buffer.from(data?.[key] ?? '', 'base64').toString();

/** Plays the shoot's resource manager: fills shoot access tokens, reports ManagedResources applied and healthy. */
async function playResourceManager(namespace: string): Promise<void> {
  const secrets = await admin.list(Kinds.Secret, {
    namespace,
    labelSelector: 'resources.gardener.cloud/purpose=token-requestor',
  });
  for (const secret of secrets.items) {
    const data = (secret as { data?: Record<string, string> }).data;
    const kubeconfig = data?.kubeconfig ? decode(data, 'kubeconfig') : undefined;
    const current = kubeconfig ? kubeconfigToken(kubeconfig) : data?.token ? decode(data, 'token') : undefined;
    if (current) {
      issuedTokens.add(current);
      continue;
    }
    const token = `token-${secret.metadata!.name}-${issuedTokens.size}`;
    issuedTokens.add(token);
    const filled = kubeconfig
      ? { kubeconfig: Buffer.from(withKubeconfigToken(kubeconfig, token)).toString('base64') }
      : { token: Buffer.from(token).toString('base64') };
    await admin.patch(
      Kinds.Secret,
      { namespace, name: secret.metadata!.name! },
      {
        type: 'merge',
        patch: {
          metadata: {
            annotations: {
              'serviceaccount.resources.gardener.cloud/token-renew-timestamp': new Date(
                Date.now() + 3600_000,
              ).toISOString(),
            },
          },
          data: filled,
        },
      },
    );
  }
  for (const mr of (await admin.list(ManagedResourceKind, { namespace })).items) {
    const status = (mr as { status?: { observedGeneration?: number } }).status;
    if (status?.observedGeneration === mr.metadata?.generation) continue;
    const condition = (type: string, value: string) => ({
      type,
      status: value,
      reason: 'Test',
      message: '',
      lastTransitionTime: new Date().toISOString(),
      lastUpdateTime: new Date().toISOString(),
    });
    await admin.patch(
      ManagedResourceKind,
      { namespace, name: mr.metadata!.name! },
      {
        type: 'merge',
        patch: {
          status: {
            observedGeneration: mr.metadata?.generation,
            conditions: [
              condition('ResourcesApplied', 'True'),
              condition('ResourcesHealthy', 'True'),
              condition('ResourcesProgressing', 'False'),
            ],
          },
        },
      },
      { subresource: 'status' },
    );
  }
}

/** Serves the shoot kube-apiserver's certificate (from its Deployment's `/srv/kubernetes/apiserver` volume). */
async function serveShootCertificate(namespace: string): Promise<void> {
  const deployment = (await admin
    .get(Kinds.Deployment, { namespace, name: 'kube-apiserver' })
    .catch(() => undefined)) as
    { spec: { template: { spec: { volumes: any[]; containers: { volumeMounts: any[] }[] } } } } | undefined;
  if (!deployment) return;
  const spec = deployment.spec.template.spec;
  const mount = spec.containers[0]!.volumeMounts.find((m) => m.mountPath === '/srv/kubernetes/apiserver');
  const secretName = spec.volumes.find((v) => v.name === mount?.name)?.secret?.secretName;
  if (!secretName || servedCertificates.has(secretName)) return;
  servedCertificates.add(secretName);
  const secret = (await admin.get(Kinds.Secret, { namespace, name: secretName })) as { data?: Record<string, string> };
  shootAPIServer.setSecureContext({ cert: decode(secret.data, 'tls.crt'), key: decode(secret.data, 'tls.key') });
}

const key = (name: string) => ({ namespace: 'garden-local', name });
const getShoot = (name: string) => admin.get(ShootKind, key(name));

/** The example Shoot as a user writes it, named `name`, bound to seed `local` (the scheduler's part). */
async function applyShoot(name: string, change: (shoot: Record<string, any>) => void = () => undefined) {
  const shoot = parseManifests(readFileSync(example('shoot.yaml'), 'utf8'))[0] as Record<string, any>;
  shoot.metadata.name = name;
  shoot.spec.seedName = 'local';
  change(shoot);
  await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], { input: JSON.stringify(shoot) });
}

/** Plays the service proxy, etcd-druid and the controller manager for objects the flow created, via their status. */
function startActors(): { stop: () => void } {
  let running = true;
  const loop = (async () => {
    while (running) {
      // As the gardenlet's BackupEntry controller with its extension (the example seed has backup): a reconcile
      // request is picked up and reported Succeeded at the entry's generation.
      for (const entry of (await admin.list(BackupEntryKind)).items) {
        if (entry.metadata?.deletionTimestamp) continue;
        const key = { namespace: entry.metadata!.namespace!, name: entry.metadata!.name! };
        // provider-local's BackupEntry actuator: the Secret `etcd-backup` in the shoot namespace, which etcd-main's
        // backup store names (bucket and host directory).
        const shootNamespace = entry.metadata!.name!.split('--').slice(0, 3).join('--');
        const nsExists = await admin.get(Kinds.Namespace, { name: shootNamespace }).catch(() => undefined);
        if (
          nsExists &&
          !(await admin.get(Kinds.Secret, { namespace: shootNamespace, name: 'etcd-backup' }).catch(() => undefined))
        )
          await admin.create({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { namespace: shootNamespace, name: 'etcd-backup' },
            stringData: {
              bucketName: (entry.spec as { bucketName: string }).bucketName,
              hostPath: '/etc/gardener/local-backupbuckets',
            },
          } as KubernetesObject);
        if (entry.metadata?.annotations?.['gardener.cloud/operation'] === 'reconcile')
          await admin.patch(BackupEntryKind, key, {
            type: 'merge',
            patch: { metadata: { annotations: { 'gardener.cloud/operation': null } } },
          });
        if (
          entry.status?.lastOperation?.state === 'Succeeded' &&
          entry.status.observedGeneration === entry.metadata?.generation &&
          entry.metadata?.annotations?.['gardener.cloud/operation'] !== 'reconcile'
        )
          continue;
        await admin.patch(
          BackupEntryKind,
          key,
          {
            type: 'merge',
            patch: {
              status: {
                observedGeneration: entry.metadata?.generation,
                lastOperation: {
                  type: 'Create',
                  state: 'Succeeded',
                  progress: 100,
                  description: 'Backup entry has been successfully reconciled.',
                  lastUpdateTime: new Date(Date.now() + 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
                },
              },
            },
          },
          { subresource: 'status' },
        );
      }
      for (const ns of (await admin.list(Kinds.Namespace)).items) {
        const namespace = ns.metadata!.name!;
        if (!namespace.startsWith('shoot--')) continue;
        const service = await admin.get(Kinds.Service, { namespace, name: 'kube-apiserver' }).catch(() => undefined);
        if (service && !(service.status as { loadBalancer?: { ingress?: unknown } })?.loadBalancer?.ingress) {
          await admin.patch(
            Kinds.Service,
            { namespace, name: 'kube-apiserver' },
            {
              type: 'merge',
              patch: {
                status: {
                  loadBalancer: {
                    ingress: [
                      {
                        ip: '127.0.0.1',
                        ports: [{ port: (shootAPIServer.address() as AddressInfo).port, protocol: 'TCP' }],
                      },
                    ],
                  },
                },
              },
            },
            { subresource: 'status' },
          );
        }
        for (const etcd of (await admin.list(EtcdKind, { namespace })).items) {
          const key = { namespace, name: etcd.metadata!.name! };
          // As druid: a reconcile request is picked up (the annotation removed), then the generation observed.
          if (etcd.metadata?.annotations?.['gardener.cloud/operation'] === 'reconcile')
            await admin.patch(EtcdKind, key, {
              type: 'merge',
              patch: { metadata: { annotations: { 'gardener.cloud/operation': null } } },
            });
          if (etcd.status?.ready && etcd.status.observedGeneration === etcd.metadata?.generation) continue;
          await admin.patch(
            EtcdKind,
            key,
            { type: 'merge', patch: { status: { ready: true, observedGeneration: etcd.metadata?.generation } } },
            { subresource: 'status' },
          );
        }
        for (const deployment of (await admin.list(Kinds.Deployment, { namespace })).items) {
          if (deployment.status?.observedGeneration === deployment.metadata?.generation) continue;
          const replicas = deployment.spec?.replicas ?? 1;
          await admin.patch(
            Kinds.Deployment,
            { namespace, name: deployment.metadata!.name! },
            {
              type: 'merge',
              patch: {
                status: {
                  observedGeneration: deployment.metadata?.generation,
                  replicas,
                  updatedReplicas: replicas,
                  readyReplicas: replicas,
                  availableReplicas: replicas,
                },
              },
            },
            { subresource: 'status' },
          );
        }
        await serveShootCertificate(namespace);
        await playResourceManager(namespace);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })().catch(() => undefined);
  return { stop: () => void ((running = false), loop) };
}

beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [
      ...generatedCRDs(),
      ...shootFlowSeedCRDs([
        'clusters',
        'infrastructures',
        'controlplanes',
        'extensions',
        'containerruntimes',
        'networks',
      ]),
    ],
  });
  shootAPIServer = await startShootAPIServer();
  admin = await ApiClient.create(env.kubeconfigPath);
  admission = await startTestAdmission(env.kubeconfigPath);
  for (const file of ['namespace.yaml', 'project.yaml', 'cloudprofile.yaml']) {
    await kubectl(env.kubeconfigPath, ['apply', '-f', example(file)]);
  }
  // The credentials the CredentialsBinding names, written as users write Secrets.
  await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], {
    input: JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'local', namespace: 'garden-local' },
      stringData: { token: 'local-credentials' },
    }),
  });
  await kubectl(env.kubeconfigPath, ['apply', '-f', example('credentialsbinding.yaml')]);
  await kubectl(env.kubeconfigPath, [
    'create',
    'configmap',
    'cluster-identity',
    '-n',
    'kube-system',
    '--from-literal=cluster-identity=garden-test',
  ]);
  // The Seed as the gardenlet registers and reconciles it (registration, seed reconciler, heartbeat).
  await registerReadySeed(admin, 'local', VERSION);

  mgr = await Manager.create({
    clusters: { garden: { kubeConfig: env.kubeconfigPath }, seed: { kubeConfig: env.kubeconfigPath } },
    gracefulShutdownTimeoutMs: 0,
  });
  addShootController(mgr, {
    seedName: 'local',
    gardenCluster: 'garden',
    seedCluster: 'seed',
    concurrentSyncs: 2,
    sync: {
      syncPeriod: 3600_000,
      respectSyncPeriodOverwrite: false,
      reconcileInMaintenanceOnly: false,
      waitSyncPeriod: 1_000,
    },
    gardener: { id: 'test', name: 'gardenlet', version: VERSION },
    retryDurationMs: 3600_000,
    flowRetry: false,
    botanist: {
      gardenClusterIdentity: 'garden-test',
      certificateKey: { algorithm: 'ECDSA', curve: 'P-256' },
      controlPlaneWait: { interval: 100, timeout: 30_000 },
    },
  });
  await mgr.start();
  actors = startActors();
}, 120_000);

afterAll(async () => {
  actors?.stop();
  await mgr?.stop();
  await admission?.stop();
  shootAPIServer?.close();
  admin?.close();
  await env?.stop();
});

const lastOperation = (name: string, type: string, state: string) => {
  let seen: Shoot | undefined;
  return waitFor(
    `Shoot ${name} to report ${type} ${state}`,
    async () => {
      const shoot = (seen = await getShoot(name));
      const op = shoot.status?.lastOperation;
      return op?.type === type && op.state === state ? shoot : undefined;
    },
    { timeoutMs: 90_000 },
  ).catch((err: Error) => {
    // Where the flow stood: its last operation and errors.
    const { lastOperation: op, lastErrors } = seen?.status ?? {};
    throw new Error(`${err.message}; last seen: ${JSON.stringify({ lastOperation: op, lastErrors })}`);
  });
};

describe("the gardenlet's Shoot controller", { timeout: 180_000 }, () => {
  it("creates Gardener's example shoot's control plane in the seed and reports the flow in lastOperation", async () => {
    await applyShoot('local');
    const shoot = await lastOperation('local', 'Create', 'Succeeded');

    expect(shoot.metadata?.finalizers).toContain('gardener');
    expect(shoot.status).toMatchObject({
      seedName: 'local',
      technicalID: 'shoot--local--local',
      uid: shoot.metadata?.uid,
      observedGeneration: shoot.metadata?.generation,
      clusterIdentity: `shoot--local--local-${shoot.metadata?.uid}-garden-test`,
      gardener: { version: VERSION },
      advertisedAddresses: [
        { name: 'unmanaged', url: `https://127.0.0.1:${(shootAPIServer.address() as AddressInfo).port}` },
      ],
    });
    expect(shoot.status?.lastOperation?.progress).toBe(100);
    // What the flow skipped is named with the reason, e.g. an extension nobody registered.
    expect(shoot.status?.lastOperation?.description).toContain(
      'no ControllerRegistration in the garden serves Infrastructure of type local: Deploying Shoot infrastructure',
    );
    expect(shoot.status?.lastOperation?.description).toContain('not implemented in the local flow yet');

    // The cluster CA for the shoot's users, in the project namespace.
    const ca = await admin.get(Kinds.ConfigMap, { namespace: 'garden-local', name: 'local.ca-cluster' });
    expect(ca.data?.['ca.crt']).toContain('BEGIN CERTIFICATE');
    expect(ca.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Shoot', name: 'local', uid: shoot.metadata?.uid });

    const namespace = 'shoot--local--local';
    const ns = await admin.get(Kinds.Namespace, { name: namespace });
    expect(ns.metadata?.labels).toMatchObject({ 'gardener.cloud/role': 'shoot' });
    const cloudprovider = await admin.get(Kinds.Secret, { namespace, name: 'cloudprovider' });
    expect(Buffer.from(cloudprovider.data!.token!, 'base64').toString()).toBe('local-credentials');
    expect(cloudprovider.metadata?.labels).toMatchObject({ 'gardener.cloud/purpose': 'cloudprovider' });
    const etcds = (await admin.list(EtcdKind, { namespace })).items.map((e) => e.metadata?.name).sort();
    expect(etcds).toEqual(['etcd-events', 'etcd-main']);
    const kapi = await admin.get(Kinds.Deployment, { namespace, name: 'kube-apiserver' });
    expect(
      (kapi as KubernetesObject & { spec: { template: { spec: { containers: { image: string }[] } } } }).spec.template
        .spec.containers[0].image,
    ).toContain('kube-apiserver');
    // The shoot's resource manager, kube-controller-manager and kube-scheduler, and Gardener's shoot access with the
    // token the resource manager issued.
    for (const name of ['gardener-resource-manager', 'kube-controller-manager', 'kube-scheduler']) {
      expect((await admin.get(Kinds.Deployment, { namespace, name })).metadata?.name).toBe(name);
    }
    const access = await admin.get(Kinds.Secret, { namespace, name: 'gardener' });
    expect(kubeconfigToken(decode(access.data as Record<string, string>, 'kubeconfig'))).toMatch(/^token-gardener-/);
    const cluster = await admin.get(
      { group: 'extensions.gardener.cloud', version: 'v1alpha1', kind: 'Cluster' },
      { name: namespace },
    );
    expect((cluster as KubernetesObject & { spec: { shoot: Shoot } }).spec.shoot.metadata?.name).toBe('local');
  });

  it('reports a failing task in lastErrors with the task and the object it could not read', async () => {
    // Credentials deleted after their binding was created: admission accepted the Shoot, the gardenlet cannot copy them.
    await kubectl(env.kubeconfigPath, [
      'create',
      'secret',
      'generic',
      'gone',
      '-n',
      'garden-local',
      '--from-literal=token=x',
    ]);
    await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'security.gardener.cloud/v1alpha1',
        kind: 'CredentialsBinding',
        metadata: { name: 'gone', namespace: 'garden-local' },
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'gone', namespace: 'garden-local' },
        provider: { type: 'local' },
      }),
    });
    await kubectl(env.kubeconfigPath, ['delete', 'secret', 'gone', '-n', 'garden-local']);
    await applyShoot('broken', (shoot) => (shoot.spec.credentialsBindingName = 'gone'));
    const shoot = await lastOperation('broken', 'Create', 'Error');
    expect(shoot.status?.lastErrors?.[0]).toMatchObject({ taskID: 'Deploying cloud provider account secret' });
    expect(shoot.status?.lastErrors?.[0]?.description).toContain('gone');
    expect(shoot.status?.lastOperation?.description).toContain('Operation will be retried');
  });

  it('deletes the control plane and releases the shoot once the namespace is gone', async () => {
    await kubectl(env.kubeconfigPath, [
      'annotate',
      'shoot',
      'local',
      '-n',
      'garden-local',
      'confirmation.gardener.cloud/deletion=true',
    ]);
    await kubectl(env.kubeconfigPath, ['delete', 'shoot', 'local', '-n', 'garden-local', '--wait=false']);
    await waitFor(
      'the Shoot to be gone',
      async () =>
        getShoot('local').then(
          () => undefined,
          (err: unknown) => (isNotFound(err) ? true : undefined),
        ),
      { timeoutMs: 90_000 },
    );
    await expect(admin.get(Kinds.Namespace, { name: 'shoot--local--local' })).rejects.toSatisfy(isNotFound);
    expect((await admin.list(EtcdKind, { namespace: 'shoot--local--local' })).items).toEqual([]);
  });
});
