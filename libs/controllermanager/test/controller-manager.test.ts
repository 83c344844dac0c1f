// The controller-manager against the local API server with Gardener's CRDs, started as the app starts it
// (startControllerManager with a ControllerManagerConfiguration), with short seed monitor periods. Gardener's example
// Project, Shoot and ControllerRegistration are the inputs; the gardenlet's side (CSRs from a bootstrap token, seed
// Leases) is played by the test.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controllerManagerConfigSpec } from '@gardener-ts/component-config';
import { generatedCRDs, type CloudProfile, type Project, type Shoot } from '@gardener-ts/api';
import {
  ApiClient,
  Checks,
  Kinds,
  isNotFound,
  microTime,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { startControllerManager } from '../src/index.js';
import {
  BastionKind,
  CertificateSigningRequestKind,
  CloudProfileKind,
  ControllerDeploymentKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  CredentialsBindingKind,
  NamespacedCloudProfileKind,
  ProjectKind,
  SeedKind,
  ShootKind,
} from '../src/kinds.js';
import { certificateRequestPem } from './support/csr.js';
import { example, localSeed, localShoot, providerLocalRegistration, registration } from './support/examples.js';

let env: TestEnvironment;
let client: ApiClient;
let stop: (() => Promise<void>) | undefined;
const abort = new AbortController();
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function installationsOf(seed: string): Promise<string[]> {
  const list = await client.list(ControllerInstallationKind);
  return list.items
    .filter((i) => i.spec.seedRef?.name === seed && !i.metadata?.deletionTimestamp)
    .map((i) => i.spec.registrationRef.name ?? '')
    .sort();
}

/** Waits until the seed's installations are exactly `names`. */
const installationsBecome = (seed: string, names: string[]) =>
  waitFor(
    `installations of seed ${seed} to be [${names.join(', ')}]`,
    async () => {
      const have = await installationsOf(seed);
      return JSON.stringify(have) === JSON.stringify([...names].sort()) ? have : undefined;
    },
    { timeoutMs: 20_000 },
  );

/** Waits until the shoot's `shoot.gardener.cloud/status` label is `value`. */
const statusLabel = (name: string, value: string) =>
  waitFor(`shoot ${name} to be labelled ${value}`, async () => {
    const shoot = await client.get(ShootKind, { namespace: 'garden-local', name });
    return shoot.metadata?.labels?.['shoot.gardener.cloud/status'] === value ? true : undefined;
  });

beforeAll(async () => {
  env = await startTestEnvironment({ crds: generatedCRDs() });
  client = await ApiClient.create(env.kubeconfigPath);
  for (const name of ['garden', 'gardener-system-seed-lease', 'garden-local'])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const config = controllerManagerConfigSpec.schema.parse({
    apiVersion: 'controllermanager.config.gardener.cloud/v1alpha1',
    kind: 'ControllerManagerConfiguration',
    gardenClientConnection: { kubeconfig: env.kubeconfigPath },
    leaderElection: { leaderElect: false },
    controllers: {
      seed: { syncPeriod: '500ms', monitorPeriod: '3s', shootMonitorPeriod: '3s' },
      event: { ttlNonShootEvents: '1s' },
    },
  });
  stop = await startControllerManager({
    config,
    log: createLogger({ name: 'controller-manager', level: (process.env.CM_TEST_LOG as 'info') ?? 'silent' }),
    metrics: new Registry(),
    ready: new Checks(),
    signal: abort.signal,
  });
}, 60_000);

afterAll(async () => {
  abort.abort();
  await stop?.();
  client?.close();
  await env?.stop();
});

describe('CertificateSigningRequest controller', () => {
  it("approves a gardenlet's seed client CSR created with a bootstrap token, and leaves other CSRs pending", async () => {
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' },
      type: 'bootstrap.kubernetes.io/token',
      stringData: {
        'token-id': 'abcdef',
        'token-secret': '0123456789abcdef',
        'usage-bootstrap-authentication': 'true',
      },
    } as KubernetesObject);
    // Gardener's seed-bootstrapper role: bootstrap tokens may create CSRs and the seedclient subresource.
    await client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gardener.cloud:system:seed-bootstrapper' },
      rules: [
        {
          apiGroups: ['certificates.k8s.io'],
          resources: ['certificatesigningrequests', 'certificatesigningrequests/seedclient'],
          verbs: ['create', 'get'],
        },
      ],
    } as KubernetesObject);
    await client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'gardener.cloud:system:seed-bootstrapper' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'gardener.cloud:system:seed-bootstrapper',
      },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers' }],
    } as KubernetesObject);
    const kubeconfig = join(dirname(env.kubeconfigPath), 'bootstrap.kubeconfig');
    const kc = env.kubeConfig.exportConfig();
    const parsed = JSON.parse(kc);
    parsed.users = [{ name: 'bootstrap', user: { token: 'abcdef.0123456789abcdef' } }];
    parsed.contexts = [{ name: 'bootstrap', context: { cluster: parsed.clusters[0].name, user: 'bootstrap' } }];
    parsed['current-context'] = 'bootstrap';
    await writeFile(kubeconfig, JSON.stringify(parsed));
    const gardenlet = await ApiClient.create(kubeconfig);
    try {
      const csr = (name: string, request: string) => ({
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name },
        spec: {
          request: b64(request),
          signerName: 'kubernetes.io/kube-apiserver-client',
          usages: ['digital signature', 'key encipherment', 'client auth'],
        },
      });
      await gardenlet.create(
        csr(
          'seed-csr-local',
          await certificateRequestPem('CN=gardener.cloud:system:seed:local, O=gardener.cloud:system:seeds'),
        ),
      );
      await gardenlet.create(csr('not-a-seed', await certificateRequestPem('CN=someone, O=team-a')));

      const approved = await waitFor('the seed CSR to be approved', async () => {
        const c = await client.get(CertificateSigningRequestKind, { name: 'seed-csr-local' });
        return c.status?.conditions?.find((x) => x.type === 'Approved') ? c : undefined;
      });
      expect(approved.spec?.username).toBe('system:bootstrap:abcdef');
      expect(approved.status?.conditions?.[0]).toMatchObject({
        type: 'Approved',
        status: 'True',
        reason: 'AutoApproved',
        message: 'Auto approving gardenlet client certificate after SubjectAccessReview.',
      });
      const other = await client.get(CertificateSigningRequestKind, { name: 'not-a-seed' });
      expect(other.status?.conditions ?? []).toEqual([]);
    } finally {
      gardenlet.close();
    }
  });
});

describe('ControllerRegistration controllers', () => {
  it('installs an Always registration on every seed and an OnDemand one only where shoots need it; removing the need removes it', async () => {
    await client.create(localSeed('seed-a'));
    await client.create(localSeed('seed-b'));
    await client.create(providerLocalRegistration());
    await client.create(registration('networking-calico', [{ kind: 'Network', type: 'calico' }]));
    await installationsBecome('seed-a', ['provider-local']);
    await installationsBecome('seed-b', ['provider-local']);

    const installation = (await client.list(ControllerInstallationKind)).items.find(
      (i) => i.spec.seedRef?.name === 'seed-a',
    )!;
    expect(installation.metadata?.name).toMatch(/^provider-local-/);
    expect(installation.metadata?.labels).toMatchObject({
      'seed-spec-hash': expect.stringMatching(/^[0-9a-f]{16}$/),
      'registration-spec-hash': expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(installation.spec.registrationRef).toMatchObject({
      name: 'provider-local',
      resourceVersion: expect.any(String),
    });

    // Seeds and registrations in use carry the finalizer.
    await waitFor('the seed finalizer', async () =>
      (await client.get(SeedKind, { name: 'seed-a' })).metadata?.finalizers?.includes(
        'core.gardener.cloud/controllerregistration',
      )
        ? true
        : undefined,
    );
    await waitFor('the registration finalizer', async () =>
      (await client.get(ControllerRegistrationKind, { name: 'provider-local' })).metadata?.finalizers?.includes(
        'core.gardener.cloud/controllerregistration',
      )
        ? true
        : undefined,
    );

    await client.create(localShoot('on-a', 'seed-a'));
    await installationsBecome('seed-a', ['networking-calico', 'provider-local']);
    expect(await installationsOf('seed-b')).toEqual(['provider-local']);

    await client.delete(ShootKind, { namespace: 'garden-local', name: 'on-a' });
    await installationsBecome('seed-a', ['provider-local']);
  });
});

describe('seed lifecycle controller', () => {
  it('sets GardenletReady=Unknown when the Lease stops being renewed, then the shoots of the seed to Unknown', async () => {
    const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    await client.create(localSeed('lifecycle'));
    const condition = {
      type: 'GardenletReady',
      status: 'True',
      reason: 'GardenletReady',
      message: 'Gardenlet is posting ready status.',
      lastTransitionTime: now(),
      lastUpdateTime: now(),
    };
    await client.patch(
      SeedKind,
      { name: 'lifecycle' },
      { type: 'merge', patch: { status: { conditions: [condition] } } },
      { subresource: 'status' },
    );
    await client.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'lifecycle', namespace: 'gardener-system-seed-lease' },
      spec: { holderIdentity: 'lifecycle', leaseDurationSeconds: 2, renewTime: microTime(new Date()) },
    } as KubernetesObject);
    await client.create(localShoot('on-lifecycle', 'lifecycle'));
    // The gardenlet reconciled the shoot and found it healthy: the status label says so.
    const succeeded = {
      type: 'Reconcile',
      state: 'Succeeded',
      progress: 100,
      description: 'Shoot cluster has been successfully reconciled.',
      lastUpdateTime: now(),
    };
    const healthy = ['APIServerAvailable', 'ControlPlaneHealthy'].map((type) => ({
      ...condition,
      type,
      reason: 'HealthChecksPassed',
    }));
    await client.patch(
      ShootKind,
      { namespace: 'garden-local', name: 'on-lifecycle' },
      { type: 'merge', patch: { status: { lastOperation: succeeded, conditions: healthy } } },
      { subresource: 'status' },
    );
    await statusLabel('on-lifecycle', 'healthy');

    // The gardenlet renews for a while: the seed stays Ready.
    for (let i = 0; i < 3; i++) {
      await client.patch(
        Kinds.Lease,
        { namespace: 'gardener-system-seed-lease', name: 'lifecycle' },
        { type: 'merge', patch: { spec: { renewTime: microTime(new Date()) } } },
      );
      await new Promise((r) => setTimeout(r, 500));
      const seed = await client.get(SeedKind, { name: 'lifecycle' });
      expect(seed.status?.conditions?.find((c) => c.type === 'GardenletReady')?.status).toBe('True');
    }

    // It stops: once the monitor period (3 s, checked every 500 ms) has passed the seed turns Unknown.
    const seed = await waitFor(
      'GardenletReady=Unknown',
      async () => {
        const s = await client.get(SeedKind, { name: 'lifecycle' });
        return s.status?.conditions?.find((c) => c.type === 'GardenletReady' && c.status === 'Unknown') ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(seed.status?.conditions?.find((c) => c.type === 'GardenletReady')).toMatchObject({
      reason: 'SeedStatusUnknown',
      message: 'Gardenlet stopped posting seed status.',
    });

    // After the shoot monitor period (3 s) the shoots' conditions and constraints follow.
    const shoot = await waitFor(
      'the shoot conditions to be Unknown',
      async () => {
        const s = await client.get(ShootKind, { namespace: 'garden-local', name: 'on-lifecycle' });
        const conditions = s.status?.conditions ?? [];
        return conditions.length === 5 && conditions.every((c) => c.status === 'Unknown') ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(shoot.status?.conditions?.map((c) => [c.type, c.status, c.reason]).sort()).toEqual(
      [
        'APIServerAvailable',
        'ControlPlaneHealthy',
        'EveryNodeReady',
        'ObservabilityComponentsHealthy',
        'SystemComponentsHealthy',
      ].map((t) => [t, 'Unknown', 'StatusUnknown']),
    );
    expect(shoot.status?.constraints?.map((c) => c.type).sort()).toEqual([
      'HibernationPossible',
      'MaintenancePreconditionsSatisfied',
    ]);
    // The status label follows the conditions.
    await statusLabel('on-lifecycle', 'unknown');
  });
});

describe('project controller', () => {
  it("creates the example Project's namespace and RBAC; deletion waits for its shoots, then removes the namespace", async () => {
    const project = example<Project>('local', 'project.yaml');
    project.metadata = { name: 'dev' };
    project.spec = {
      namespace: 'garden-dev',
      owner: { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice@example.com' },
    };
    await client.create(project);
    const ready = await waitFor('the project to be Ready', async () => {
      const p = await client.get(ProjectKind, { name: 'dev' });
      return p.status?.phase === 'Ready' ? p : undefined;
    });
    expect(ready.metadata?.finalizers).toContain('gardener');
    const ns = await client.get(Kinds.Namespace, { name: 'garden-dev' });
    expect(ns.metadata?.labels).toMatchObject({
      'gardener.cloud/role': 'project',
      'project.gardener.cloud/name': 'dev',
    });
    expect(ns.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Project', name: 'dev', uid: ready.metadata?.uid });
    const admin = await client.get(Kinds.ClusterRoleBinding, { name: 'gardener.cloud:system:project:dev' });
    expect((admin as { subjects?: unknown[] }).subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice@example.com' },
    ]);
    await client.get(Kinds.RoleBinding, { namespace: 'garden-dev', name: 'gardener.cloud:system:project-member' });

    const shoot: Shoot = localShoot('blocker', undefined, 'garden-dev');
    await client.create(shoot);
    await client.delete(ProjectKind, { name: 'dev' });
    await waitFor('the project to be Terminating', async () =>
      (await client.get(ProjectKind, { name: 'dev' })).status?.phase === 'Terminating' ? true : undefined,
    );
    expect((await client.get(Kinds.Namespace, { name: 'garden-dev' })).metadata?.deletionTimestamp).toBeUndefined();

    await client.delete(ShootKind, { namespace: 'garden-dev', name: 'blocker' });
    await waitFor('the project namespace to be deleted', async () => {
      const n = await client
        .get(Kinds.Namespace, { name: 'garden-dev' })
        .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
      return !n || n.metadata?.deletionTimestamp ? true : undefined;
    });
  });
});

describe('shoot maintenance controller', () => {
  /** `HHMMSS+0000` of now plus `hours` (UTC). */
  const at = (hours: number) => {
    const d = new Date(Date.now() + hours * 3600_000);
    return `${String(d.getUTCHours()).padStart(2, '0')}${String(d.getUTCMinutes()).padStart(2, '0')}00+0000`;
  };
  const versionOf = async (name: string) =>
    (await client.get(ShootKind, { namespace: 'garden-local', name })).spec.kubernetes.version;

  it("updates a shoot's Kubernetes patch version inside its maintenance window and not outside", async () => {
    // Gardener's local CloudProfile with a newer patch of 1.34.
    const profile = example<CloudProfile>('local', 'cloudprofile.yaml');
    profile.spec.kubernetes!.versions = [{ version: '1.35.4' }, { version: '1.34.5' }, { version: '1.34.3' }];
    await client.create(profile);
    const shoot = (name: string, begin: string, end: string) => {
      const s = localShoot(name, undefined);
      s.spec.kubernetes.version = '1.34.3';
      s.spec.maintenance = {
        autoUpdate: { kubernetesVersion: true, machineImageVersion: false },
        timeWindow: { begin, end },
      };
      return s;
    };
    await client.create(shoot('outside', at(3), at(4)));
    await client.create(shoot('inside', at(-1), at(2)));

    const inside = await waitFor('the shoot in its window to be maintained', async () => {
      const s = await client.get(ShootKind, { namespace: 'garden-local', name: 'inside' });
      return s.status?.lastMaintenance?.state === 'Succeeded' ? s : undefined;
    });
    expect(inside.spec.kubernetes.version).toBe('1.34.5');
    expect(inside.status?.lastMaintenance?.description).toBe(
      'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.34.3" to "1.34.5". Reason: Automatic update of Kubernetes version configured',
    );
    expect(await versionOf('outside')).toBe('1.34.3');
    expect(
      (await client.get(ShootKind, { namespace: 'garden-local', name: 'outside' })).status?.lastMaintenance,
    ).toBeUndefined();

    // Moving the outside shoot's window over now maintains it too: the window was what held it back.
    await client.patch(
      ShootKind,
      { namespace: 'garden-local', name: 'outside' },
      { type: 'merge', patch: { spec: { maintenance: { timeWindow: { begin: at(-1), end: at(2) } } } } },
    );
    await waitFor('the moved shoot to be maintained', async () =>
      (await versionOf('outside')) === '1.34.5' ? true : undefined,
    );
  });
});

describe('protection controllers', () => {
  const exists = async (get: () => Promise<KubernetesObject>) =>
    get().then(
      () => true,
      (err: unknown) => (isNotFound(err) ? false : Promise.reject(err)),
    );

  it('keeps a CloudProfile while a Shoot uses it, and lets it go once the Shoot is gone', async () => {
    const profile = example<CloudProfile>('local', 'cloudprofile.yaml');
    profile.metadata = { name: 'guarded' };
    await client.create(profile);
    const shoot = localShoot('uses-guarded', undefined);
    shoot.spec.cloudProfile = { kind: 'CloudProfile', name: 'guarded' };
    await client.create(shoot);
    await waitFor('the CloudProfile finalizer', async () =>
      (await client.get(CloudProfileKind, { name: 'guarded' })).metadata?.finalizers?.includes('gardener')
        ? true
        : undefined,
    );

    await client.delete(CloudProfileKind, { name: 'guarded' });
    const deleting = await client.get(CloudProfileKind, { name: 'guarded' });
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();

    await client.delete(ShootKind, { namespace: 'garden-local', name: 'uses-guarded' });
    await waitFor('the CloudProfile to be gone', async () =>
      (await exists(() => client.get(CloudProfileKind, { name: 'guarded' }))) ? undefined : true,
    );
  });

  it('keeps a ControllerDeployment while a ControllerRegistration references it', async () => {
    await client.create({
      apiVersion: 'core.gardener.cloud/v1',
      kind: 'ControllerDeployment',
      metadata: { name: 'dep' },
      helm: { values: { replicas: 1 } },
    } as KubernetesObject);
    await client.create(registration('uses-dep', [], { policy: 'OnDemand', deploymentRefs: [{ name: 'dep' }] }));
    await waitFor('the ControllerDeployment finalizer', async () =>
      (await client.get(ControllerDeploymentKind, { name: 'dep' })).metadata?.finalizers?.includes(
        'core.gardener.cloud/controllerdeployment',
      )
        ? true
        : undefined,
    );
    await client.delete(ControllerDeploymentKind, { name: 'dep' });
    expect((await client.get(ControllerDeploymentKind, { name: 'dep' })).metadata?.deletionTimestamp).toBeDefined();

    await client.delete(ControllerRegistrationKind, { name: 'uses-dep' });
    await waitFor('the ControllerDeployment to be gone', async () =>
      (await exists(() => client.get(ControllerDeploymentKind, { name: 'dep' }))) ? undefined : true,
    );
  });
});

describe('bastion controller', () => {
  it('deletes an expired Bastion and keeps a live one', async () => {
    await client.create(localShoot('with-bastions', 'seed-a'));
    const bastion = (name: string) => ({
      apiVersion: 'operations.gardener.cloud/v1alpha1',
      kind: 'Bastion',
      metadata: { namespace: 'garden-local', name },
      spec: {
        shootRef: { name: 'with-bastions' },
        seedName: 'seed-a',
        sshPublicKey: Buffer.from(
          'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB5dhJqDeR8cTprYaxWfm5n4MSrgdL6jE1p7DL2bNOKc test',
        ).toString('base64'),
        ingress: [{ ipBlock: { cidr: '0.0.0.0/0' } }],
      },
    });
    await client.create(bastion('live') as KubernetesObject);
    await client.create(bastion('expired') as KubernetesObject);
    const expiration = (minutes: number) =>
      new Date(Date.now() + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await client.patch(
      BastionKind,
      { namespace: 'garden-local', name: 'live' },
      { type: 'merge', patch: { status: { expirationTimestamp: expiration(30) } } },
      { subresource: 'status' },
    );
    await client.patch(
      BastionKind,
      { namespace: 'garden-local', name: 'expired' },
      { type: 'merge', patch: { status: { expirationTimestamp: expiration(-1) } } },
      { subresource: 'status' },
    );
    await waitFor('the expired Bastion to be deleted', async () =>
      (await client.get(BastionKind, { namespace: 'garden-local', name: 'expired' }).then(
        () => false,
        (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
      ))
        ? true
        : undefined,
    );
    expect(
      (await client.get(BastionKind, { namespace: 'garden-local', name: 'live' })).metadata?.deletionTimestamp,
    ).toBeUndefined();

    // Its Shoot going away ends the live one too.
    await client.delete(ShootKind, { namespace: 'garden-local', name: 'with-bastions' });
    await waitFor('the live Bastion to be deleted with its Shoot', async () =>
      (await client.get(BastionKind, { namespace: 'garden-local', name: 'live' }).then(
        () => false,
        (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
      ))
        ? true
        : undefined,
    );
  });
});

describe('event controller', () => {
  it('deletes non-shoot events after ttlNonShootEvents and keeps shoot events', async () => {
    const event = (name: string, involvedObject: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { namespace: 'garden-local', name },
      involvedObject: { namespace: 'garden-local', ...involvedObject },
      reason: 'Test',
      message: 'test event',
      type: 'Normal',
      lastTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
    await client.create(
      event('about-shoot', {
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'Shoot',
        name: 'local',
      }) as KubernetesObject,
    );
    await client.create(event('about-secret', { apiVersion: 'v1', kind: 'Secret', name: 'local' }) as KubernetesObject);
    await waitFor('the secret event to be deleted', async () =>
      (await client.get(Kinds.Event, { namespace: 'garden-local', name: 'about-secret' }).then(
        () => false,
        (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
      ))
        ? true
        : undefined,
    );
    await client.get(Kinds.Event, { namespace: 'garden-local', name: 'about-shoot' });
  });
});

describe('NamespacedCloudProfile controller', () => {
  it('writes the parent CloudProfile merged with the namespaced one into the status, and follows parent changes', async () => {
    const parent = example<CloudProfile>('local', 'cloudprofile.yaml');
    parent.metadata = { name: 'parent' };
    await client.create(parent);
    await client.create({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'NamespacedCloudProfile',
      metadata: { namespace: 'garden-local', name: 'custom' },
      spec: {
        parent: { kind: 'CloudProfile', name: 'parent' },
        kubernetes: { versions: [{ version: '1.33.0', expirationDate: '2030-01-01T00:00:00Z' }] },
        machineTypes: [{ name: 'big', cpu: '8', gpu: '0', memory: '32Gi', usable: true }],
      },
    } as KubernetesObject);
    const merged = await waitFor('the merged status', async () => {
      const p = await client.get(NamespacedCloudProfileKind, { namespace: 'garden-local', name: 'custom' });
      return p.status?.cloudProfileSpec ? p.status.cloudProfileSpec : undefined;
    });
    expect(merged.machineTypes.map((m) => m.name)).toEqual(['local', 'big']);
    expect(merged.kubernetes.versions?.find((v) => v.version === '1.33.0')?.expirationDate).toBe(
      '2030-01-01T00:00:00Z',
    );

    await client.patch(
      CloudProfileKind,
      { name: 'parent' },
      { type: 'merge', patch: { spec: { regions: [{ name: 'local' }, { name: 'remote' }] } } },
    );
    await waitFor('the parent change in the status', async () => {
      const p = await client.get(NamespacedCloudProfileKind, { namespace: 'garden-local', name: 'custom' });
      return p.status?.cloudProfileSpec?.regions.some((r) => r.name === 'remote') ? true : undefined;
    });
  });
});

describe('CredentialsBinding controller', () => {
  it("labels and protects the example binding's Secret; deletion waits for its Shoot, then releases the Secret", async () => {
    const namespace = 'garden-bind';
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace, name: 'local' },
      type: 'Opaque',
      stringData: { token: 'not-a-real-token' },
    } as KubernetesObject);
    const binding = example('local', 'credentialsbinding.yaml');
    binding.metadata.namespace = namespace;
    binding.credentialsRef.namespace = namespace;
    await client.create(binding);
    await client.create(localShoot('uses-binding', undefined, namespace));
    const secretOf = () => client.get(Kinds.Secret, { namespace, name: 'local' });
    const secret = await waitFor('the Secret to be labelled and protected', async () => {
      const s = await secretOf();
      return s.metadata?.finalizers?.includes('gardener.cloud/gardener') &&
        s.metadata.labels?.['provider.shoot.gardener.cloud/local']
        ? s
        : undefined;
    });
    expect(secret.metadata?.labels).toMatchObject({
      'reference.gardener.cloud/credentialsbinding': 'true',
      'provider.shoot.gardener.cloud/local': 'true',
    });
    await waitFor('the binding finalizer', async () =>
      (await client.get(CredentialsBindingKind, { namespace, name: 'local' })).metadata?.finalizers?.includes(
        'gardener',
      )
        ? true
        : undefined,
    );

    await client.delete(CredentialsBindingKind, { namespace, name: 'local' });
    expect(
      (await client.get(CredentialsBindingKind, { namespace, name: 'local' })).metadata?.deletionTimestamp,
    ).toBeDefined();
    expect((await secretOf()).metadata?.finalizers).toContain('gardener.cloud/gardener');

    await client.delete(ShootKind, { namespace, name: 'uses-binding' });
    const released = await waitFor('the Secret to be released', async () => {
      const s = await secretOf();
      return s.metadata?.finalizers?.includes('gardener.cloud/gardener') ? undefined : s;
    });
    expect(released.metadata?.labels?.['reference.gardener.cloud/credentialsbinding']).toBeUndefined();
    await waitFor('the binding to be gone', async () =>
      (await client.get(CredentialsBindingKind, { namespace, name: 'local' }).then(
        () => false,
        (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
      ))
        ? true
        : undefined,
    );
  });
});

describe('seed secrets controller', () => {
  it('creates seed-<name> and keeps the copies of the role-labelled garden Secrets in step with their originals', async () => {
    const original = (data: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'alerting-smtp', namespace: 'garden', labels: { 'gardener.cloud/role': 'alerting' } },
      data: { auth: b64(data) },
    });
    await client.create(original('one') as KubernetesObject);
    await client.create(localSeed('seed-sync'));
    const seed = await client.get(SeedKind, { name: 'seed-sync' });
    const namespace = await waitFor('namespace seed-seed-sync', () =>
      client.get(Kinds.Namespace, { name: 'seed-seed-sync' }).catch(() => undefined),
    );
    expect(namespace.metadata?.labels).toMatchObject({ 'gardener.cloud/role': 'seed' });
    expect(namespace.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Seed', name: 'seed-sync', uid: seed.metadata?.uid, controller: true }),
    ]);
    const copyData = () =>
      client
        .get(Kinds.Secret, { namespace: 'seed-seed-sync', name: 'alerting-smtp' })
        .then((s) => s.data?.auth)
        .catch(() => 'gone');
    await waitFor('the copy', async () => ((await copyData()) === b64('one') ? true : undefined));

    await client.patch(
      Kinds.Secret,
      { namespace: 'garden', name: 'alerting-smtp' },
      { type: 'merge', patch: { data: { auth: b64('two') } } },
    );
    await waitFor('the copy to follow the change', async () => ((await copyData()) === b64('two') ? true : undefined));

    await client.delete(Kinds.Secret, { namespace: 'garden', name: 'alerting-smtp' });
    await waitFor('the copy to be deleted', async () => ((await copyData()) === 'gone' ? true : undefined));
  });

  it("installs a new seed's extensions once its copy of the garden's internal domain Secret is there", async () => {
    // As the landscape has it: Gardener's internal domain Secret in garden; the registration controller reads the
    // seed's copy in seed-<name> (the manager caches Secrets of garden only).
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'internal-domain-internal-local-gardener-cloud',
        namespace: 'garden',
        labels: { 'gardener.cloud/role': 'internal-domain' },
        annotations: {
          'dns.gardener.cloud/domain': 'internal.local.gardener.cloud',
          'dns.gardener.cloud/provider': 'local',
        },
      },
    } as KubernetesObject);
    await client.create(localSeed('seed-dns'));
    await installationsBecome('seed-dns', ['provider-local']);
  });
});

describe('shoot reference and retry controllers', () => {
  const namespace = 'garden-local';
  const finalizersOf = async (kind: 'Secret' | 'ConfigMap', name: string) =>
    (await client.get(kind === 'Secret' ? Kinds.Secret : Kinds.ConfigMap, { namespace, name })).metadata?.finalizers ??
    [];
  const protection = 'gardener.cloud/reference-protection';

  it('protects the Secrets and ConfigMaps a Shoot references and releases them when it stops or is gone', async () => {
    await client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace, name: 'ref-secret' } });
    await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name: 'ref-audit' } });
    const shoot = localShoot('references', undefined);
    shoot.spec.kubernetes.kubeAPIServer = { auditConfig: { auditPolicy: { configMapRef: { name: 'ref-audit' } } } };
    shoot.spec.resources = [{ name: 'r', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: 'ref-secret' } }];
    await client.create(shoot);
    await waitFor('the references and the Shoot to be protected', async () =>
      (await finalizersOf('Secret', 'ref-secret')).includes(protection) &&
      (await finalizersOf('ConfigMap', 'ref-audit')).includes(protection) &&
      (await client.get(ShootKind, { namespace, name: 'references' })).metadata?.finalizers?.includes(protection)
        ? true
        : undefined,
    );

    await client.patch(
      ShootKind,
      { namespace, name: 'references' },
      { type: 'merge', patch: { spec: { resources: null } } },
    );
    await waitFor('the Secret to be released', async () =>
      (await finalizersOf('Secret', 'ref-secret')).includes(protection) ? undefined : true,
    );
    expect(await finalizersOf('ConfigMap', 'ref-audit')).toContain(protection);

    await client.delete(ShootKind, { namespace, name: 'references' });
    await waitFor('the ConfigMap to be released and the Shoot gone', async () =>
      !(await finalizersOf('ConfigMap', 'ref-audit')).includes(protection) &&
      (await client.get(ShootKind, { namespace, name: 'references' }).then(
        () => false,
        (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
      ))
        ? true
        : undefined,
    );
  });

  it('annotates a Shoot that failed due to rate limits long enough ago with gardener.cloud/operation=retry', async () => {
    const created = await client.create(localShoot('rate-limited', undefined));
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await client.patch(
      ShootKind,
      { namespace, name: 'rate-limited' },
      {
        type: 'merge',
        patch: {
          status: {
            observedGeneration: created.metadata?.generation,
            lastOperation: {
              type: 'Create',
              state: 'Failed',
              progress: 10,
              description: 'failed',
              lastUpdateTime: hourAgo,
            },
            lastErrors: [{ description: 'throttled', codes: ['ERR_INFRA_RATE_LIMITS_EXCEEDED'] }],
          },
        },
      },
      { subresource: 'status' },
    );
    await waitFor('the retry annotation', async () =>
      (await client.get(ShootKind, { namespace, name: 'rate-limited' })).metadata?.annotations?.[
        'gardener.cloud/operation'
      ] === 'retry'
        ? true
        : undefined,
    );
  });
});
