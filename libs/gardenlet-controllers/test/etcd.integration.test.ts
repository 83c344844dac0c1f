// The etcd controller on a whole local cluster (API server, controller manager, kubelet running Pods as processes,
// service proxy): the example Shoot's `etcd-main` and `etcd-events`, rendered by Gardener's etcd component with the
// TLS Secrets the secrets manager generates for the shoot, become StatefulSets whose Pods run /usr/bin/etcd side by
// side; the Etcds turn ready and quorate (also in `kubectl get etcd`), a client with the etcd client certificate puts
// and gets a key through the `etcd-main-client` Service, the key survives scaling etcd-main to 0 and back (hibernation
// and wake-up: the data lives on a PersistentVolume of the cluster's default StorageClass), and deleting the Etcds
// removes their StatefulSets, Pods and Services. With a backup store (provider-local's `etcd-backup` Secret: bucket
// and host directory) etcd-main gets the backup-restore sidecar, which writes full snapshots into the backup entry's
// directory, then delta snapshots; after a final full snapshot over its API and a delta after it, losing the data dir
// loses nothing: the init container restores the full snapshot and replays the delta when etcd-main is scaled up. etcdbrctl runs from the sources here (an image map entry overrides the
// built-in one, which runs the built `gardener-local etcdbrctl`).
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds, Manager, ignoreNotFound, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { clusterLayout, defaultComponents, runCluster, type RunningCluster } from '@gardener-ts/local-cluster';
import { createLogger } from '@gardener-ts/logging';
import { parseManifests } from '@gardener-ts/api';
import { kubectl, waitFor, workspaceRoot } from '@gardener-ts/testing';
import { renderEtcd } from '../src/component/etcd.js';
import { exampleValues } from '../src/component/testdata/fixtures.js';
import { addEtcdController } from '../src/controller/etcd/add.js';
import { etcdCRD, EtcdCRDName } from '../src/controller/etcd/crd.js';
import { EtcdKind, type EtcdResource } from '../src/controller/etcd/kinds.js';
import { priorityClasses } from '../src/controller/seed/components.js';
import { hibernateControlPlane } from '../src/shoot/hibernation-steps.js';
import { SeedShootSteps } from '../src/shoot/seed-steps.js';

const ETCD_BINARY = '/usr/bin/etcd';
const values = exampleValues();
const namespace = values.namespace;
const key = { namespace, name: 'etcd-main' };

let dir: string;
let cluster: RunningCluster | undefined;
let client: ApiClient;
let mgr: Manager | undefined;
let kubeconfig: string;
let steps: SeedShootSteps;
let servicesFile: string;

const decode = (secret: KubernetesObject, dataKey: string) =>
  Buffer.from((secret as { data: Record<string, string> }).data[dataKey]!, 'base64');

/** A POST to etcd's JSON gateway (v3) over TLS with the etcd client certificate, verifying the server's name. */
function etcdPost(port: number, path: string, body: object, tls: { ca: Buffer; cert: Buffer; key: Buffer }) {
  return new Promise<Record<string, any>>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', servername: 'etcd-main-client', ...tls },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${res.statusCode}: ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The local port of etcd-main-client's client port and the etcd client certificate of the shoot. */
async function etcdAccess() {
  const services = JSON.parse(await readFile(servicesFile, 'utf8')) as {
    services: { namespace: string; name: string; ports: { name: string; localPort: number }[] }[];
  };
  const service = services.services.find((s) => s.namespace === namespace && s.name === 'etcd-main-client');
  const port = service?.ports.find((p) => p.name === 'client')?.localPort ?? 0;
  const secret = async (name: string) => client.get(Kinds.Secret, { namespace, name });
  const tls = {
    ca: decode(await secret(steps.secrets.bundles['ca-etcd']!), 'bundle.crt'),
    cert: decode(await secret(steps.secrets.secrets['etcd-client']!), 'tls.crt'),
    key: decode(await secret(steps.secrets.secrets['etcd-client']!), 'tls.key'),
  };
  return { port, tls };
}

/** A GET to the backup-restore sidecar's API through etcd-main-client's `backuprestore` port (HTTPS, etcd's server certificate). */
async function backupRestoreGet(path: string): Promise<Record<string, any>> {
  const services = JSON.parse(await readFile(servicesFile, 'utf8')) as {
    services: { namespace: string; name: string; ports: { name: string; localPort: number }[] }[];
  };
  const service = services.services.find((s) => s.namespace === namespace && s.name === 'etcd-main-client');
  const port = service?.ports.find((p) => p.name === 'backuprestore')?.localPort;
  if (!port) throw new Error('etcd-main-client has no backuprestore port yet');
  const { tls } = await etcdAccess();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'GET', servername: 'etcd-main-client', ca: tls.ca },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${res.statusCode}: ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'etcd-controller-'));
  const logger = createLogger({ name: 'etcd-integration', level: process.env.ETCD_TEST_LOG ? 'debug' : 'silent' });
  const layout = clusterLayout(dir, 'seed');
  kubeconfig = layout.kubeconfig;
  servicesFile = layout.services;
  // druid's etcd-backup-restore image runs etcdbrctl from the sources.
  const imageMapFile = join(dir, 'image-map.json');
  const etcdbrctl = [
    process.execPath,
    '--conditions=@gardener-ts/source',
    '--import',
    pathToFileURL(join(workspaceRoot(), 'node_modules/tsx/dist/loader.mjs')).href,
    join(workspaceRoot(), 'libs/gardenlet-controllers/src/etcdbr/main.ts'),
  ];
  await writeFile(
    imageMapFile,
    JSON.stringify({
      images: ['releases', 'public'].map((r) => ({
        image: `europe-docker.pkg.dev/gardener-project/${r}/gardener/etcdbrctl`,
        command: etcdbrctl,
        binaries: ['etcdbrctl'],
      })),
    }),
  );
  cluster = await runCluster(layout, defaultComponents({ serverTLSBootstrap: false, imageMapFile }), logger, {
    kubeletCertificateAuthority: false,
  });
  client = await ApiClient.create(kubeconfig);
  // What the seed reconciler installs: the seed CRDs (the Etcd CRD among them) and Gardener's PriorityClasses.
  for (const obj of [etcdCRD(), ...priorityClasses()])
    await client.apply(obj, { fieldManager: 'gardenlet', force: true });
  await waitFor('the Etcd CRD to be established', async () => {
    const crd = (await client.get(Kinds.CustomResourceDefinition, { name: EtcdCRDName })) as {
      status?: { conditions?: { type: string; status: string }[] };
    };
    return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
  });
  mgr = await Manager.create({
    clusters: { seed: { kubeConfig: kubeconfig } },
    gracefulShutdownTimeoutMs: 0,
    log: logger,
  });
  addEtcdController(mgr, { seedCluster: 'seed', statusSyncPeriodMs: 2_000 });
  await mgr.start();

  // The shoot's control plane namespace and secrets, as the reconcile flow's first steps create them.
  steps = new SeedShootSteps(client, values, { certificateKey: { algorithm: 'ECDSA' } });
  await steps.deployNamespace();
  await steps.initializeSecretsManagement();
}, 120_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(!existsSync(ETCD_BINARY))('the etcd controller on a local cluster', () => {
  it("runs the example shoot's etcd-main: ready, quorate, and serving clients with the etcd client certificate", async () => {
    for (const role of ['main', 'events'] as const) {
      const etcd = renderEtcd(values, role, steps.secrets, { now: new Date().toISOString() });
      await client.apply(etcd as unknown as EtcdResource, { fieldManager: 'gardenlet', force: true });
    }

    const ready = await waitFor(
      'etcd-main to be ready',
      async () => {
        const e = await client.get(EtcdKind, key);
        return e.status?.ready === true && e.status.observedGeneration === e.metadata?.generation ? e : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(ready.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    expect(ready.metadata?.finalizers).toContain('druid.gardener.cloud/etcd-druid');
    expect(ready.status).toMatchObject({
      replicas: 1,
      readyReplicas: 1,
      members: [{ name: 'etcd-main-0', status: 'Ready' }],
      lastOperation: { type: 'Create', state: 'Succeeded' },
      etcd: { kind: 'StatefulSet', name: 'etcd-main' },
    });
    expect(ready.status?.lastErrors).toBeUndefined();
    expect(ready.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'Quorate',
    });
    expect(ready.status?.conditions?.find((c) => c.type === 'AllMembersReady')?.status).toBe('True');

    // The Pod runs the etcd binary of the image map.
    const pod = await client.get(Kinds.Pod, { namespace, name: 'etcd-main-0' });
    expect((pod.spec as { containers: { image: string }[] }).containers[0]!.image).toMatch(/^registry\.k8s\.io\/etcd:/);

    // druid's printer columns, as a user sees them.
    await waitFor(
      'etcd-events to be ready too',
      async () => (await client.get(EtcdKind, { namespace, name: 'etcd-events' })).status?.ready === true,
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const table = (await kubectl(kubeconfig, ['get', 'etcd', '-n', namespace])).trim().split('\n');
    expect(table[0]).toMatch(/^NAME\s+READY\s+QUORATE\s+ALL MEMBERS READY\s+BACKUP READY\s+AGE/);
    expect(table.slice(1).sort()).toEqual([
      expect.stringMatching(/^etcd-events\s+true\s+True\s+True\s+/),
      expect.stringMatching(/^etcd-main\s+true\s+True\s+True\s+/),
    ]);

    // A client with the etcd client certificate, through the etcd-main-client Service (the service proxy's port).
    const { port, tls } = await etcdAccess();
    expect(port).toBeGreaterThan(0);
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    await waitFor('a put through etcd-main-client', () =>
      etcdPost(port, '/v3/kv/put', { key: b64('/gardener-ts/hello'), value: b64('world') }, tls).then(
        () => true,
        () => false,
      ),
    );
    const range = await etcdPost(port, '/v3/kv/range', { key: b64('/gardener-ts/hello') }, tls);
    expect(Buffer.from(range.kvs[0].value, 'base64').toString()).toBe('world');
    // Without a client certificate etcd refuses the connection.
    await expect(
      etcdPost(port, '/v3/kv/range', { key: b64('/gardener-ts/hello') }, { ...tls, cert: undefined!, key: undefined! }),
    ).rejects.toThrow(/bad certificate|certificate required/);
  }, 120_000);

  it("keeps etcd-main's data on its PersistentVolume when hibernation scales it to 0 and wake-up back to 1", async () => {
    // The local cluster has kind's default StorageClass: each member gets a claim of it, bound to a local-path volume.
    const sts = (await client.get(Kinds.StatefulSet, key)) as { spec: { volumeClaimTemplates?: any[] } };
    expect(sts.spec.volumeClaimTemplates?.map((c) => c.metadata.name)).toEqual(['main-etcd']);
    const claimKey = { namespace, name: 'main-etcd-etcd-main-0' };
    const bound = async () => {
      const claim = (await client.get(Kinds.PersistentVolumeClaim, claimKey)) as {
        spec: { storageClassName?: string; volumeName?: string };
        status?: { phase?: string };
      };
      expect(claim.status?.phase).toBe('Bound');
      expect(claim.spec.storageClassName).toBe('standard');
      return claim.spec.volumeName;
    };
    const volume = await bound();
    // etcd writes its data dir into the volume's directory under the cluster's data dir, not into the Pod's.
    const pv = (await client.get(Kinds.PersistentVolume, { name: volume! })) as {
      spec: { hostPath: { path: string } };
    };
    expect(pv.spec.hostPath.path.startsWith(join(dir, 'seed', 'volumes'))).toBe(true);
    expect(readdirSync(pv.spec.hostPath.path).length).toBeGreaterThan(0);
    const { port, tls } = await etcdAccess();
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    await etcdPost(port, '/v3/kv/put', { key: b64('/gardener-ts/hibernation'), value: b64('kept') }, tls);

    // Hibernation: the flow's "Hibernating control plane" step scales the Etcds to the etcd component's hibernated
    // replicas (0) and returns once their Pods are gone (this seed runs no control plane Deployments).
    const hibernated = exampleValues((shoot) => (shoot.spec.hibernation = { enabled: true }));
    await hibernateControlPlane(
      { seed: client, values: hibernated, wait: { interval: 250, timeout: 60_000 } },
      new AbortController().signal,
    );
    expect(await client.get(Kinds.Pod, { namespace, name: 'etcd-main-0' }).catch(ignoreNotFound)).toBeUndefined();
    expect((await client.get(EtcdKind, key)).spec.replicas).toBe(0);
    expect(await bound()).toBe(volume);

    // Wake-up: the reconcile flow deploys the Etcd with 1 replica again; the new Pod mounts the same volume and serves
    // the key written before.
    const awake = renderEtcd(values, 'main', steps.secrets, { now: new Date().toISOString() });
    await client.apply(awake as unknown as EtcdResource, { fieldManager: 'gardenlet', force: true });
    const range = await waitFor(
      'the key after wake-up',
      () => etcdPost(port, '/v3/kv/range', { key: b64('/gardener-ts/hibernation') }, tls).catch(() => undefined),
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(Buffer.from(range.kvs[0].value, 'base64').toString()).toBe('kept');
    expect(await bound()).toBe(volume);
  }, 180_000);

  it("snapshots etcd-main into the backup entry's directory and restores the snapshot into a lost data dir", async () => {
    // What provider-local's BackupEntry actuator deploys: `etcd-backup` with the bucket and the host directory of the
    // buckets; the bucket directory exists (provider-local's BackupBucket actuator creates it).
    const backupRoot = join(dir, 'backupbuckets');
    const bucket = 'seed-uid';
    const entry = 'shoot--local--local--shoot-uid';
    await mkdir(join(backupRoot, bucket), { recursive: true });
    await client.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { namespace, name: 'etcd-backup' },
        data: {
          bucketName: Buffer.from(bucket).toString('base64'),
          hostPath: Buffer.from(backupRoot).toString('base64'),
        },
      } as KubernetesObject,
      { fieldManager: 'provider-local', force: true },
    );
    const backup = { provider: 'local', secretRefName: 'etcd-backup', container: bucket, prefix: entry };
    // Delta snapshots every second (Gardener's 5m0s would outlast the test).
    const deploy = async (shoot = values) => {
      const etcd = renderEtcd(shoot, 'main', steps.secrets, {
        now: new Date().toISOString(),
        backup,
      }) as unknown as EtcdResource;
      etcd.spec.backup.deltaSnapshotPeriod = '1s';
      return client.apply(etcd, { fieldManager: 'gardenlet', force: true });
    };
    await deploy();

    // The sidecar's first full snapshot lands in <hostPath>/<bucket>/<entry>/etcd-main/v2, gzip'd.
    const snapshots = join(backupRoot, bucket, entry, 'etcd-main', 'v2');
    await waitFor(
      'a full snapshot of etcd-main',
      async () => (await readdir(snapshots).catch(() => [])).find((n) => /^Full-0{8}-\d{8}-\d+\.gz$/.test(n)),
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const pod = (await client.get(Kinds.Pod, { namespace, name: 'etcd-main-0' })) as {
      spec: { initContainers?: { name: string }[]; containers: { name: string }[] };
    };
    expect(pod.spec.initContainers?.map((c) => c.name)).toEqual(['backup-restore-initialize']);
    expect(pod.spec.containers.map((c) => c.name)).toEqual(['etcd', 'backup-restore']);

    // A key written after it, then a final full snapshot over the sidecar's API (as before a migration).
    const { port, tls } = await etcdAccess();
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    await waitFor('a put after the sidecar started', () =>
      etcdPost(port, '/v3/kv/put', { key: b64('/gardener-ts/backup'), value: b64('restored') }, tls).then(
        () => true,
        () => false,
      ),
    );
    const final = await waitFor('the final full snapshot', () =>
      backupRestoreGet('/snapshot/full?final=true').catch(() => undefined),
    );
    expect(final).toMatchObject({ kind: 'Full', isFinal: true });
    expect(readdirSync(snapshots)).toContain(final.snapName);
    // A key written after the final snapshot reaches the store as a delta snapshot.
    await etcdPost(port, '/v3/kv/put', { key: b64('/gardener-ts/delta'), value: b64('replayed') }, tls);
    const deltaRevision = final.lastRevision + 1;
    await waitFor(
      'a delta snapshot up to the last write',
      () => readdirSync(snapshots).find((n) => n.startsWith(`Incr-${String(deltaRevision).padStart(8, '0')}-`)),
      { timeoutMs: 30_000, intervalMs: 250 },
    );

    // The volume is lost: etcd-main scaled to 0, its data dir wiped, scaled up again.
    await deploy(exampleValues((shoot) => (shoot.spec.hibernation = { enabled: true })));
    await waitFor(
      'etcd-main-0 to be gone',
      async () => (await client.get(Kinds.Pod, { namespace, name: 'etcd-main-0' }).catch(ignoreNotFound)) === undefined,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const claim = (await client.get(Kinds.PersistentVolumeClaim, { namespace, name: 'main-etcd-etcd-main-0' })) as {
      spec: { volumeName: string };
    };
    const pv = (await client.get(Kinds.PersistentVolume, { name: claim.spec.volumeName })) as {
      spec: { hostPath: { path: string } };
    };
    await rm(join(pv.spec.hostPath.path, 'new.etcd'), { recursive: true, force: true });
    await deploy();
    const range = await waitFor(
      'the key restored from the final snapshot',
      () => etcdPost(port, '/v3/kv/range', { key: b64('/gardener-ts/backup') }, tls).catch(() => undefined),
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(Buffer.from(range.kvs[0].value, 'base64').toString()).toBe('restored');
    // Earlier data is there too, and the delta replayed at its revision.
    const earlier = await etcdPost(port, '/v3/kv/range', { key: b64('/gardener-ts/hibernation') }, tls);
    expect(Buffer.from(earlier.kvs[0].value, 'base64').toString()).toBe('kept');
    const delta = await etcdPost(port, '/v3/kv/range', { key: b64('/gardener-ts/delta') }, tls);
    expect(Buffer.from(delta.kvs[0].value, 'base64').toString()).toBe('replayed');
    expect(Number(delta.kvs[0].mod_revision)).toBe(deltaRevision);
    expect(Number(range.header.revision)).toBe(deltaRevision);
  }, 180_000);

  it("keeps every field of a full druid Etcd applied with kubectl, and leaves a suspended one's spec alone", async () => {
    // An Etcd as etcd-druid's users write one: backup store, compaction, leader election, scheduling constraints,
    // client Service settings, peer TLS; spec reconciles suspended, so the controller deploys nothing for it.
    const manifest = `
apiVersion: druid.gardener.cloud/v1alpha1
kind: Etcd
metadata:
  name: etcd-sample
  namespace: ${namespace}
  annotations:
    druid.gardener.cloud/suspend-etcd-spec-reconcile: "true"
spec:
  labels: { app: etcd-statefulset, role: sample }
  annotations: { role: sample }
  replicas: 3
  priorityClassName: gardener-system-500
  storageClass: standard
  storageCapacity: 25Gi
  volumeClaimTemplate: sample-etcd
  runAsRoot: false
  etcd:
    metrics: extensive
    quota: 8Gi
    snapshotCount: 75000
    defragmentationSchedule: "0 */24 * * *"
    clientPort: 2379
    serverPort: 2380
    wrapperPort: 9095
    heartbeatDuration: 10s
    etcdDefragTimeout: 8m
    resources:
      requests: { cpu: 500m, memory: 1000Mi }
    clientService:
      annotations: { a: b }
      labels: { c: d }
      trafficDistribution: PreferClose
    peerUrlTls:
      tlsCASecretRef: { name: ca-etcd-peer, dataKey: bundle.crt }
      serverTLSSecretRef: { name: etcd-peer-server }
  backup:
    port: 8080
    fullSnapshotSchedule: "0 */24 * * *"
    garbageCollectionPolicy: LimitBased
    maxBackupsLimitBasedGC: 7
    garbageCollectionPeriod: 43200s
    deltaSnapshotPeriod: 300s
    deltaSnapshotMemoryLimit: 1Gi
    deltaSnapshotRetentionPeriod: 72h
    compression: { enabled: true, policy: zlib }
    enableProfiling: true
    etcdSnapshotTimeout: 15m
    leaderElection: { reelectionPeriod: 5s, etcdConnectionTimeout: 5s }
    snapshotCompaction:
      eventsThreshold: 1000000
      triggerFullSnapshotThreshold: 1500000
    store:
      secretRef: { name: etcd-backup }
      container: bucket
      provider: S3
      prefix: sample
  sharedConfig:
    autoCompactionMode: revision
    autoCompactionRetention: "1000"
  schedulingConstraints:
    topologySpreadConstraints:
      - { maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: { matchLabels: { role: sample } } }
`;
    await kubectl(kubeconfig, ['apply', '-f', '-'], { input: manifest });
    const stored = (await client.get(EtcdKind, { namespace, name: 'etcd-sample' })) as unknown as Record<string, any>;
    expect(stored.spec).toEqual(parseManifests(manifest)[0]!.spec);
    // Suspended: the status is observed, but no StatefulSet or Service is deployed and no finalizer set.
    await waitFor('the sample status to be observed', async () => {
      const e = await client.get(EtcdKind, { namespace, name: 'etcd-sample' });
      return e.status?.conditions?.length ? e : undefined;
    });
    expect(
      await client.get(Kinds.StatefulSet, { namespace, name: 'etcd-sample' }).catch(ignoreNotFound),
    ).toBeUndefined();
    expect(
      await client.get(Kinds.Service, { namespace, name: 'etcd-sample-client' }).catch(ignoreNotFound),
    ).toBeUndefined();
    await client.delete(EtcdKind, { namespace, name: 'etcd-sample' });
  }, 60_000);

  it('removes the StatefulSets, their Pods and the Services when the Etcds are deleted', async () => {
    const names = ['etcd-main', 'etcd-events'];
    for (const name of names) await client.delete(EtcdKind, { namespace, name });
    await waitFor(
      'the Etcds and their objects to be gone',
      async () => {
        const left = await Promise.all(
          names.flatMap((name) => [
            client.get(EtcdKind, { namespace, name }).catch(ignoreNotFound),
            client.get(Kinds.StatefulSet, { namespace, name }).catch(ignoreNotFound),
            client.get(Kinds.Pod, { namespace, name: `${name}-0` }).catch(ignoreNotFound),
            client.get(Kinds.Service, { namespace, name: `${name}-client` }).catch(ignoreNotFound),
            client.get(Kinds.Service, { namespace, name: `${name}-peer` }).catch(ignoreNotFound),
          ]),
        );
        return left.every((o) => o === undefined);
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const etcds = await client.list(EtcdKind, { namespace });
    expect(etcds.items as EtcdResource[]).toEqual([]);
  }, 90_000);
});
