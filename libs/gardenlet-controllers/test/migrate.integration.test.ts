// The Shoot controller's control plane migration against the local API server (garden and both seeds one cluster, no
// admission: the test moves `spec.seedName` itself, as `shoots/binding` would). The source seed's reconciler runs the
// migrate flow on a shoot whose control plane namespace holds extension resources with state; the test plays the
// extensions as our SDK answers `migrate` (annotation taken, lastOperation Migrate Succeeded, finalizer released) and
// `restore`. It checks what the destination relies on: a Bastion blocks the migration; every extension resource was
// asked to migrate and reported it before it was deleted (none deleted for real); the ShootState holds the persisted
// secrets and the extension states; the namespace and the Cluster are gone; lastOperation Migrate Succeeded with
// status.seedName moved to the destination. Then the destination's reconciler restores — the persisted CA back in
// the namespace, the Infrastructure asked to `restore` with its state already in its status — and, without a
// ShootState, fails the Restore naming it. Both seeds have backup: the shoot's core BackupEntry is moved with it —
// the source seed's BackupEntry controller (started once the migrate flow asked it to `migrate`) has the extension
// BackupEntry migrated, deletes it and its Secret and releases the entry; the destination's restores it on the restore
// flow's `restore` request. The entry starts as a retried migration left it (`spec.seedName` moved already, still
// running on the source): with `spec.seedName` on the source the flow would take etcd's final snapshot, which needs
// the seed's Service names. The restore copies etcd's backups into the destination's bucket (its BackupBucket is
// named by its UID): the source BackupEntry is reconciled in the old bucket (the test's provider-local writes
// `source-etcd-backup`), the entry moves to the new bucket, the etcdcopybackupstask controller runs the copy Job —
// played by the test with our `etcdbrctl copy` on host directories — and the snapshots of the old bucket arrive in the
// new one before etcd is deployed there; the source entry is deleted after.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import {
  ApiClient,
  isNotFound,
  kind,
  Manager,
  type KubernetesObject,
  type ReconcileContext,
} from '@gardener-ts/controller-runtime';
import { startTestEnvironment, type TestEnvironment } from '@gardener-ts/testing';
import { ShootReconciler } from '../src/controller/shoot/reconciler.js';
import { exampleCloudProfile, exampleShoot } from '../src/component/testdata/fixtures.js';
import { controlPlaneNamespaceOf } from '../src/component/values.js';
import { SeedKind } from '../src/seed-kind.js';
import { answerOperation, shootFlowSeedCRDs } from './support/extensions.js';
import { registerReadySeed } from './support/seed.js';
import { ShootKind, type Shoot } from '../src/shoot/kinds.js';
import { ShootStateKind, deleteShootState } from '../src/shoot/shootstate-writer.js';
import { shootSyncDecision, responsibleSeedName } from '../src/shoot/sync.js';
import { addBackupEntryController } from '../src/controller/backupentry/add.js';
import { BackupEntryKind } from '../src/controller/backupentry/kinds.js';
import { etcdCopyBackupsTaskCRD } from '../src/controller/etcd/crd.js';
import { addEtcdCopyBackupsTaskController } from '../src/controller/etcdcopybackupstask/add.js';
import { parseEtcdbrctlArgs, runCopy } from '../src/etcdbr/command.js';
import { deltaSnapshot, fullSnapshot, snapshotName } from '../src/etcdbr/snapshot.js';
import { LocalSnapStore, localStoreDirectory } from '../src/etcdbr/store.js';

const VERSION = 'v0.0.0-test';
const ext = (name: string) =>
  kind<KubernetesObject & { status?: Record<string, unknown> }>('extensions.gardener.cloud/v1alpha1', name);
const ExtensionKinds = ['Infrastructure', 'ControlPlane', 'Network', 'Worker', 'Extension'];
const log = { info: () => undefined, error: () => undefined, debug: () => undefined, warn: () => undefined };
const sync = {
  syncPeriod: 3600_000,
  respectSyncPeriodOverwrite: false,
  reconcileInMaintenanceOnly: false,
  waitSyncPeriod: 1_000,
};

let env: TestEnvironment;
let admin: ApiClient;
let playing = true;
/** What the played extensions saw: `<kind>` per migrate request answered. */
const migrated: string[] = [];
const deletedUnmigrated: string[] = [];
/** What the played extensions saw on `restore`: the kind and the state it found in its status. */
const restored: { kind: string; state: unknown }[] = [];

const shoot = exampleShoot();
const namespace = controlPlaneNamespaceOf(shoot);
const BUCKET = 'bucket-local';
/** The destination seed's BackupBucket: its UID, as the seed reconciler names it. */
let destinationBucket = '';
/** The host directory of the buckets (provider-local's backup root). */
let backupRoot = '';
const JobKind = kind<KubernetesObject & { spec?: any; status?: Record<string, unknown> }>('batch/v1', 'Job');
/** The copy Jobs the test ran (by uid). */
const ranJobs = new Set<string>();
/** The shoot's core BackupEntry (`<technical ID>--<shoot UID>`), named once the shoot exists. */
let entryName = '';
const managers: Manager[] = [];

const readySeed = (name: string) => registerReadySeed(admin, name, VERSION);

async function extensionResource(kindName: string, name: string, spec: Record<string, unknown>, state?: unknown) {
  const created = await admin.create({
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: kindName,
    metadata: { name, namespace, finalizers: ['extensions.gardener.cloud/provider-local'] },
    spec: { type: 'local', ...spec },
  } as KubernetesObject);
  await admin.updateStatus({
    ...created,
    status: {
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: 'ok',
        lastUpdateTime: new Date().toISOString(),
      },
      ...(state !== undefined ? { state } : {}),
    },
  } as KubernetesObject);
}

/** The extensions, as the SDK's generic reconciler answers: migrate → Migrate Succeeded and forget; a plain deletion of
 *  an object never migrated would delete for real (recorded, must not happen). */
function playExtensions(): Promise<void> {
  return (async () => {
    while (playing) {
      for (const kindName of [...ExtensionKinds, 'BackupEntry']) {
        // The extension BackupEntry is cluster-scoped.
        const items = await admin.list(ext(kindName), kindName === 'BackupEntry' ? {} : { namespace }).then(
          (l) => l.items,
          () => [],
        );
        for (const obj of items) {
          const operation = obj.metadata?.annotations?.['gardener.cloud/operation'];
          const last = (obj.status?.lastOperation ?? {}) as { type?: string };
          try {
            if (operation === 'reconcile' && kindName === 'BackupEntry') {
              // The source BackupEntry of the restore: provider-local deploys `source-etcd-backup`.
              await etcdBackupSecret(obj);
              await answerReconcile(obj);
            } else if (operation === 'restore') {
              restored.push({ kind: kindName, state: obj.status?.state });
              // provider-local's BackupEntry actuator gives etcd its backup secret in the control plane namespace.
              if (kindName === 'BackupEntry') await etcdBackupSecret(obj);
              await answerOperation(admin, obj, {
                type: 'Restore',
                observeGeneration: true,
                lastUpdateTime: new Date(Date.now() + 1000).toISOString(),
              });
            } else if (operation === 'migrate') {
              await answerOperation(admin, obj, { type: 'Migrate', releaseFinalizers: true });
              migrated.push(kindName);
            } else if (obj.metadata?.deletionTimestamp && last.type !== 'Migrate' && obj.metadata.finalizers?.length) {
              deletedUnmigrated.push(`${kindName}/${obj.metadata.name}`);
              await admin.update({ ...obj, metadata: { ...obj.metadata, finalizers: [] } });
            }
          } catch {
            // A conflict or a gone object: the next round sees the current state.
          }
        }
      }
      await playCopyJobs();
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
}

/** An extension's answer to a plain reconcile request: Reconcile Succeeded, the request removed. */
async function answerReconcile(obj: KubernetesObject & { status?: Record<string, unknown> }): Promise<void> {
  const updated = await admin.updateStatus({
    ...obj,
    status: {
      ...obj.status,
      observedGeneration: obj.metadata?.generation,
      lastOperation: { ...succeededNow('Reconcile'), lastUpdateTime: new Date(Date.now() + 1000).toISOString() },
    },
  } as KubernetesObject);
  const annotations = { ...updated.metadata?.annotations };
  delete annotations['gardener.cloud/operation'];
  await admin.update({ ...updated, metadata: { ...updated.metadata, annotations } });
}

/**
 * The kubelet and Job controller of the copy Jobs: the container's mount paths in its args and environment mapped to
 * the volumes' host directories, our `etcdbrctl copy` run with them, the Job Complete (Failed when the copy failed).
 */
async function playCopyJobs(): Promise<void> {
  const jobs = await admin.list(JobKind, { namespace }).then(
    (l) => l.items,
    () => [],
  );
  for (const job of jobs) {
    const uid = job.metadata?.uid ?? '';
    if (ranJobs.has(uid) || job.metadata?.deletionTimestamp) continue;
    ranJobs.add(uid);
    const pod = job.spec.template.spec;
    const container = pod.containers[0];
    const hostPaths = new Map<string, string>(
      pod.volumes.map((v: { name: string; hostPath: { path: string } }) => [v.name, v.hostPath.path]),
    );
    const mounts: [string, string][] = container.volumeMounts.map((m: { name: string; mountPath: string }) => [
      m.mountPath,
      hostPaths.get(m.name)!,
    ]);
    const host = (value: string) => {
      const mount = mounts.find(([path]) => value === path || value.startsWith(`${path}/`));
      return mount ? mount[1] + value.slice(mount[0].length) : value;
    };
    const env = Object.fromEntries(
      container.env.map((e: { name: string; value: string }) => [e.name, host(e.value)]),
    ) as NodeJS.ProcessEnv;
    const quiet = { info: () => undefined, error: () => undefined };
    const settings = parseEtcdbrctlArgs(container.args.map(host), env);
    const code = await runCopy(settings, quiet, { finalSnapshotIntervalMs: 50 });
    const now = new Date().toISOString();
    const condition =
      code === 0
        ? { type: 'Complete', reason: 'CompletionsReached' }
        : { type: 'Failed', reason: 'BackoffLimitExceeded' };
    await admin.updateStatus({
      ...job,
      status: {
        ...(code === 0 ? { succeeded: 1 } : { failed: 1 }),
        conditions: [{ ...condition, status: 'True', message: '', lastProbeTime: now, lastTransitionTime: now }],
      },
    } as KubernetesObject);
  }
}

let player: Promise<void>;

/** provider-local's `[source-]etcd-backup` of an extension BackupEntry: its bucket and the backup root. */
async function etcdBackupSecret(entry: KubernetesObject & { spec?: { bucketName?: string } }): Promise<void> {
  const name = entry.metadata?.name?.startsWith('source-') ? 'source-etcd-backup' : 'etcd-backup';
  await admin
    .create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace },
      stringData: { bucketName: entry.spec?.bucketName ?? '', hostPath: backupRoot },
    } as KubernetesObject)
    .catch(() => undefined);
}

/** Both gardenlets' BackupEntry controllers (one API server is garden and seeds). */
async function startBackupEntryControllers(): Promise<void> {
  for (const seedName of ['local', 'other']) {
    const mgr = await Manager.create({
      clusters: { garden: { kubeConfig: env.kubeconfigPath }, seed: { kubeConfig: env.kubeconfigPath } },
      gracefulShutdownTimeoutMs: 0,
    });
    addBackupEntryController(mgr, {
      seedName,
      gardenCluster: 'garden',
      seedCluster: 'seed',
      concurrentSyncs: 1,
      config: { deletionGracePeriodHours: 0, deletionGracePeriodShootPurposes: [] },
    });
    await mgr.start();
    managers.push(mgr);
  }
  // The destination gardenlet's etcd-druid part that runs the copy Jobs.
  const druid = await Manager.create({
    clusters: { seed: { kubeConfig: env.kubeconfigPath } },
    gracefulShutdownTimeoutMs: 0,
  });
  addEtcdCopyBackupsTaskController(druid, { seedCluster: 'seed', backupRestoreImage: 'etcdbrctl:test' });
  await druid.start();
  managers.push(druid);
}

/** A ready core BackupBucket of a seed. */
async function readyBucket(name: string, seedName: string): Promise<void> {
  const bucket = await admin.create({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupBucket',
    metadata: { name },
    spec: {
      provider: { type: 'local', region: 'local' },
      credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup', namespace: 'garden' },
      seedName,
    },
  } as KubernetesObject);
  await admin.updateStatus({
    ...bucket,
    status: { observedGeneration: bucket.metadata?.generation, lastOperation: succeededNow('Reconcile') },
  } as KubernetesObject);
}

/** The seed's backup, as the shoot controller reads it (and the seed ready again for its new generation). */
async function withBackup(seedName: string): Promise<void> {
  const seed = await admin.patch(
    SeedKind,
    { name: seedName },
    {
      type: 'merge',
      patch: {
        spec: {
          backup: {
            provider: 'local',
            credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup', namespace: 'garden' },
          },
        },
      },
    },
  );
  await admin.patch(
    SeedKind,
    { name: seedName },
    { type: 'merge', patch: { status: { observedGeneration: seed.metadata?.generation } } },
    { subresource: 'status' },
  );
}

const succeededNow = (type: string) => ({
  type,
  state: 'Succeeded',
  progress: 100,
  description: 'done',
  lastUpdateTime: new Date().toISOString(),
});

/** What the source seed holds of the shoot's BackupEntry: the core entry (running there), its extension entry and Secret. */
async function backupEntryOnSource(shootUID: string): Promise<void> {
  entryName = `${namespace}--${shootUID}`;
  await admin.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'backup', namespace: 'garden' },
    stringData: { accessKey: 'local' },
  } as KubernetesObject);
  await readyBucket(BUCKET, 'local');
  await readyBucket(destinationBucket, 'other');
  const entry = await admin.create({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupEntry',
    metadata: {
      name: entryName,
      namespace: 'garden-local',
      finalizers: ['gardener'],
      ownerReferences: [
        { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Shoot', name: shoot.metadata!.name!, uid: shootUID },
      ],
    },
    spec: { bucketName: BUCKET, seedName: 'other' },
  } as KubernetesObject);
  await admin.updateStatus({
    ...entry,
    status: {
      seedName: 'local',
      observedGeneration: entry.metadata?.generation,
      lastOperation: succeededNow('Reconcile'),
    },
  } as KubernetesObject);
  await admin.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `entry-${entryName}`, namespace: 'garden' },
    stringData: { accessKey: 'local' },
  } as KubernetesObject);
  const extension = await admin.create({
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'BackupEntry',
    metadata: { name: entryName, finalizers: ['extensions.gardener.cloud/provider-local'] },
    spec: {
      type: 'local',
      region: 'local',
      bucketName: BUCKET,
      secretRef: { name: `entry-${entryName}`, namespace: 'garden' },
    },
  } as KubernetesObject);
  await admin.updateStatus({ ...extension, status: { lastOperation: succeededNow('Reconcile') } } as KubernetesObject);
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
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
        'workers',
        'operatingsystemconfigs',
        'dnsrecords',
        'backupentries',
      ]),
      etcdCopyBackupsTaskCRD(),
    ],
  });
  backupRoot = await mkdtemp(join(tmpdir(), 'migrate-backups-'));
  admin = await ApiClient.create(env.kubeconfigPath);
  for (const name of ['garden', 'garden-local', namespace])
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubernetesObject);
  await admin.create({
    ...exampleCloudProfile(),
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'CloudProfile',
  } as KubernetesObject);
  await admin.create({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ControllerRegistration',
    metadata: { name: 'provider-local' },
    spec: {
      resources: ['Infrastructure', 'ControlPlane', 'Network', 'Worker'].map((k) => ({
        kind: k,
        type: k === 'Network' ? (shoot.spec.networking?.type ?? 'calico') : 'local',
      })),
    },
  } as KubernetesObject);
  // The credentials of the shoot's CredentialsBinding (the restore deploys them as `cloudprovider`).
  await admin.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'local', namespace: 'garden-local' },
    stringData: { token: 'local-credentials' },
  } as KubernetesObject);
  await admin.create({
    apiVersion: 'security.gardener.cloud/v1alpha1',
    kind: 'CredentialsBinding',
    metadata: { name: 'local', namespace: 'garden-local' },
    credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'local', namespace: 'garden-local' },
    provider: { type: 'local' },
  } as KubernetesObject);
  await readySeed('local');
  await readySeed('other');
  destinationBucket = (await admin.get(SeedKind, { name: 'other' })).metadata!.uid!;
  await withBackup('local');
  await withBackup('other');

  // The shoot as the source seed left it after a reconciliation, then bound to seed `other`.
  const created = await admin.create({
    ...shoot,
    metadata: { ...shoot.metadata, uid: undefined, generation: undefined },
  } as KubernetesObject);
  await admin.patch(
    ShootKind,
    { namespace: 'garden-local', name: shoot.metadata!.name! },
    {
      type: 'merge',
      patch: {
        status: {
          gardener: { id: 'test', name: 'gardenlet', version: VERSION },
          hibernated: false,
          technicalID: namespace,
          uid: created.metadata?.uid,
          seedName: 'local',
          observedGeneration: created.metadata?.generation,
          // The controller-manager's shoot-migration controller confirmed that the destination seed is ready.
          constraints: [
            {
              type: 'ReadyForMigration',
              status: 'True',
              reason: 'DestinationSeedReady',
              message: 'Destination seed cluster is ready for the shoot migration',
              lastTransitionTime: '2026-11-29T10:00:00Z',
              lastUpdateTime: '2026-11-29T10:00:00Z',
            },
          ],
          lastOperation: {
            type: 'Reconcile',
            state: 'Succeeded',
            progress: 100,
            description: 'done',
            lastUpdateTime: '2026-11-29T10:00:00Z',
          },
        },
      },
    },
    { subresource: 'status' },
  );
  await admin.patch(
    ShootKind,
    { namespace: 'garden-local', name: shoot.metadata!.name! },
    { type: 'merge', patch: { spec: { seedName: 'other' } } },
  );
  await backupEntryOnSource(created.metadata!.uid!);

  // What the source seed holds: extension resources with state (the flow's secrets manager writes the secrets).
  const secretRef = { name: 'cloudprovider', namespace };
  await extensionResource('Infrastructure', shoot.metadata!.name!, { region: 'local', secretRef }, { network: 'n-1' });
  await extensionResource('ControlPlane', shoot.metadata!.name!, {
    region: 'local',
    secretRef,
    infrastructureProviderStatus: {},
  });
  await extensionResource(
    'Worker',
    shoot.metadata!.name!,
    { region: 'local', secretRef, infrastructureProviderStatus: {}, pools: [] },
    { machines: 1 },
  );
  await extensionResource('Network', shoot.metadata!.name!, { podCIDR: '10.3.0.0/16', serviceCIDR: '10.4.0.0/16' });
  player = playExtensions();
}, 120_000);

afterAll(async () => {
  playing = false;
  await player;
  for (const mgr of managers) await mgr.stop();
  admin?.close();
  await env?.stop();
  if (backupRoot) await rm(backupRoot, { recursive: true, force: true });
});

const reconcilerFor = (seedName: string) =>
  new ShootReconciler({
    garden: admin,
    gardenApi: admin,
    seed: admin,
    seedName,
    sync,
    gardener: { id: 'test', name: 'gardenlet', version: VERSION },
    retryDurationMs: 3600_000,
    flowRetry: false,
    botanist: {
      gardenClusterIdentity: 'garden-test',
      certificateKey: { algorithm: 'ECDSA', curve: 'P-256' },
      controlPlaneWait: { interval: 100, timeout: 20_000 },
      backupEntryWait: { interval: 100, timeout: 20_000 },
    },
  });

describe("the Shoot controller's control plane migration", () => {
  it('migrates the control plane away from the source seed and hands the shoot over to the destination', async () => {
    const key = { namespace: 'garden-local', name: shoot.metadata!.name! };
    const ctx = { signal: new AbortController().signal, log, controller: 'shoot' } as unknown as ReconcileContext;
    // The destination's gardenlet waits while the migration is pending.
    expect(await reconcilerFor('other').reconcile(key, ctx)).toBeUndefined();

    // A Bastion of the shoot blocks the migration (Gardener's rule), named in lastErrors.
    const bastion = kind('operations.gardener.cloud/v1alpha1', 'Bastion');
    await admin.create({
      apiVersion: 'operations.gardener.cloud/v1alpha1',
      kind: 'Bastion',
      metadata: { name: 'debug', namespace: 'garden-local' },
      spec: {
        shootRef: { name: key.name },
        sshPublicKey: 'ssh-ed25519 AAAA',
        ingress: [{ ipBlock: { cidr: '0.0.0.0/0' } }],
      },
    } as KubernetesObject);
    await reconcilerFor('local').reconcile(key, ctx);
    const blocked = await admin.get(ShootKind, key);
    expect(blocked.status?.lastOperation).toMatchObject({ type: 'Migrate', state: 'Error' });
    expect(blocked.status?.lastErrors?.[0]?.description).toMatch(/still has Bastions \(debug\)/);
    await admin.delete(bastion, { namespace: 'garden-local', name: 'debug' });

    // The BackupEntry controllers start once the flow asked to migrate the entry (else the source's had migrated the
    // entry at once: its spec.seedName was moved already).
    const entryKey = { namespace: 'garden-local', name: entryName };
    const controllers = waitUntil(
      async () =>
        (await admin.get(BackupEntryKind, entryKey)).metadata?.annotations?.['gardener.cloud/operation'] === 'migrate',
      30_000,
    ).then(startBackupEntryControllers);
    await reconcilerFor('local').reconcile(key, ctx);
    await controllers;
    const after = await admin.get(ShootKind, key);
    expect(after.status?.lastErrors ?? []).toEqual([]);
    expect(after.status?.lastOperation).toMatchObject({ type: 'Migrate', state: 'Succeeded', progress: 100 });
    expect(after.status?.seedName).toBe('other');
    expect(after.status?.lastOperation?.description).toMatch(/^Shoot cluster has been successfully migrated\./);
    expect(after.status?.lastOperation?.description).not.toContain('BackupEntry');

    // The source seed migrated the BackupEntry: its extension entry answered migrate and went with its Secret (the
    // backups stay in the bucket), and the core entry is released to the destination.
    const released = await admin.get(BackupEntryKind, entryKey);
    expect(released.spec.seedName).toBe('other');
    expect(released.status?.seedName).toBeUndefined();
    expect(released.status?.lastOperation).toMatchObject({ type: 'Migrate', state: 'Succeeded' });
    expect(released.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    expect(migrated).toContain('BackupEntry');
    await expect(admin.get(ext('BackupEntry'), { name: entryName })).rejects.toSatisfy(isNotFound);
    await expect(
      admin.get(kind('v1', 'Secret'), { namespace: 'garden', name: `entry-${entryName}` }),
    ).rejects.toSatisfy(isNotFound);

    // Every extension resource was asked to migrate and answered it before it went; nothing was deleted for real.
    expect([...new Set(migrated)].sort()).toEqual([
      'BackupEntry',
      'ControlPlane',
      'Infrastructure',
      'Network',
      'Worker',
    ]);
    expect(deletedUnmigrated).toEqual([]);
    for (const kindName of ExtensionKinds) {
      expect((await admin.list(ext(kindName), { namespace })).items).toEqual([]);
    }
    // The ShootState keeps what the destination restores.
    const state = await admin.get(ShootStateKind, key);
    // The persisted secrets: the CAs and the service account key the source's secrets manager generated.
    const persisted = state.spec.gardener ?? [];
    expect(persisted.map((d) => d.labels?.name)).toEqual(expect.arrayContaining(['ca', 'ca-client', 'ca-etcd']));
    expect(persisted.every((d) => d.type === 'secret' && d.labels?.persist === 'true')).toBe(true);
    expect(state.spec.extensions).toEqual(
      expect.arrayContaining([
        { kind: 'Infrastructure', name: shoot.metadata!.name!, state: { network: 'n-1' } },
        { kind: 'Worker', name: shoot.metadata!.name!, state: { machines: 1 } },
      ]),
    );
    // The control plane is gone from the source seed, with its Cluster.
    await expect(admin.get(kind('v1', 'Namespace'), { name: namespace })).rejects.toSatisfy(isNotFound);
    await expect(
      admin.get(kind('extensions.gardener.cloud/v1alpha1', 'Cluster'), { name: namespace }),
    ).rejects.toSatisfy(isNotFound);

    // The hand-over: the destination is responsible and restores; the source no longer acts.
    expect(responsibleSeedName(after as Shoot)).toBe('other');
    const destination = await admin.get(SeedKind, { name: 'other' });
    expect(
      shootSyncDecision({
        shoot: after as Shoot,
        seed: destination,
        config: sync,
        now: new Date(),
        gardenerVersion: VERSION,
      }),
    ).toEqual({
      action: 'reconcile',
      operation: 'Restore',
    });
    expect(await reconcilerFor('local').reconcile(key, ctx)).toBeUndefined();

    // The destination restores: the persisted secrets come back before its secrets manager runs, and the Infrastructure
    // is written with `wait-for-state`, gets its state, and only then is asked to `restore`. (The flow is stopped
    // there: the rest of the control plane needs the actors of shoot.integration.test.ts.)
    // etcd-main's backups in the old bucket, as the source's backup sidecar left them (the final full snapshot last).
    const prefix = `${entryName}/etcd-main`;
    const sourceStore = new LocalSnapStore(localStoreDirectory(join(backupRoot, BUCKET), prefix));
    const nowSeconds = Math.floor(Date.now() / 1000);
    const snapshots = [
      fullSnapshot(10, nowSeconds - 3600),
      deltaSnapshot(11, 25, nowSeconds - 1800),
      fullSnapshot(30, nowSeconds - 60, '.gz', true),
    ];
    for (const snapshot of snapshots)
      await sourceStore.save(snapshot, Buffer.from(`etcd data ${snapshotName(snapshot)}`));
    const targetStore = new LocalSnapStore(localStoreDirectory(join(backupRoot, destinationBucket), prefix));

    const stop = new AbortController();
    const destinationCtx = { signal: stop.signal, log, controller: 'shoot' } as unknown as ReconcileContext;
    const run = reconcilerFor('other')
      .reconcile(key, destinationCtx)
      .catch((err: unknown) => err);
    // The BackupEntry too: the restore flow asks the destination's controller to restore it, which does so in its
    // seed (the extension entry asked to `restore`); the flow waits for that request's success before etcd.
    const restoredEntry = async () => {
      const entry = await admin.get(BackupEntryKind, entryKey);
      return (
        restored.some((r) => r.kind === 'BackupEntry') &&
        entry.status?.seedName === 'other' &&
        entry.status.lastOperation?.state === 'Succeeded' &&
        entry.metadata?.annotations?.['gardener.cloud/operation'] === undefined &&
        (await admin.get(kind('druid.gardener.cloud/v1alpha1', 'Etcd'), { namespace, name: 'etcd-main' }).then(
          () => true,
          () => false,
        ))
      );
    };
    // The copy: the source BackupEntry is deleted once etcd is deployed (after the copy), the copy task is removed.
    const sourceKey = { namespace: 'garden-local', name: `source-${entryName}` };
    const gone = (k: Parameters<typeof admin.get>[0], key: { namespace?: string; name: string }) =>
      admin.get(k, key).then(
        () => false,
        (err: unknown) => isNotFound(err),
      );
    const copyTask = kind('druid.gardener.cloud/v1alpha1', 'EtcdCopyBackupsTask');
    await waitUntil(
      async () =>
        restored.some((r) => r.kind === 'Infrastructure') &&
        (await restoredEntry()) &&
        (await gone(BackupEntryKind, sourceKey)) &&
        (await gone(copyTask, { namespace, name: shoot.metadata!.name! })),
      30_000,
    );
    stop.abort();
    await run;
    const restoredBackupEntry = await admin.get(BackupEntryKind, entryKey);
    expect(restoredBackupEntry.spec).toEqual({ bucketName: destinationBucket, seedName: 'other' });
    expect(restoredBackupEntry.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    expect(restored.map((r) => r.kind)).toContain('BackupEntry');
    expect(await admin.get(ext('BackupEntry'), { name: entryName })).toMatchObject({
      spec: { bucketName: destinationBucket, secretRef: { name: `entry-${entryName}`, namespace: 'garden' } },
    });
    // The backups arrived in the destination's bucket byte for byte (the final snapshot an ordinary one there), the
    // copy Job ran once, and etcd-main is deployed on the new bucket.
    expect(ranJobs.size).toBe(1);
    const copied = await targetStore.list();
    expect(copied.map(snapshotName)).toEqual(snapshots.map((s) => snapshotName({ ...s, final: false })));
    for (const snapshot of snapshots)
      expect((await targetStore.fetch({ ...snapshot, final: false })).toString()).toBe(
        `etcd data ${snapshotName(snapshot)}`,
      );
    const etcdMain = await admin.get(kind<KubernetesObject & { spec?: any }>('druid.gardener.cloud/v1alpha1', 'Etcd'), {
      namespace,
      name: 'etcd-main',
    });
    expect(etcdMain.spec.backup.store).toMatchObject({ container: destinationBucket, prefix });
    expect(await admin.get(kind('v1', 'Secret'), { namespace: 'garden', name: `entry-${entryName}` })).toBeDefined();
    expect(restored.find((r) => r.kind === 'Infrastructure')?.state).toEqual({ network: 'n-1' });
    const during = await admin.get(ShootKind, key);
    expect(during.status?.lastOperation?.type).toBe('Restore');
    const caEntry = persisted.find((d) => d.labels?.name === 'ca')!;
    const ca = await admin.get(kind<KubernetesObject & { data?: unknown }>('v1', 'Secret'), {
      namespace,
      name: caEntry.name,
    });
    expect(ca.data).toEqual(caEntry.data);

    // Without its ShootState the destination does not restore half: the Restore fails, naming what is missing.
    await deleteShootState(admin, after as Shoot);
    await reconcilerFor('other').reconcile(key, ctx);
    const restoring = await admin.get(ShootKind, key);
    expect(restoring.status?.lastOperation).toMatchObject({ type: 'Restore', state: 'Error' });
    expect(restoring.status?.lastErrors?.[0]?.description).toMatch(/^ShootState garden-local\/local not found/);
  }, 60_000);
});
