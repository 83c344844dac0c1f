// What etcd-druid deploys for an `Etcd`, as pure functions: the StatefulSet `<name>` (one etcd member per Pod, etcd's
// own flags: data dir on the data volume, client and peer TLS from the referenced Secrets, listening on the Pod IP,
// quota and compaction from the spec), the client Service `<name>-client` and the headless peer Service `<name>-peer`,
// all owned by the Etcd with druid's labels. With `spec.backup.store` the Pod gets druid's etcd-backup-restore
// sidecar (`backup-restore`, `etcdbrctl server` with druid's flags: snapshots into the store, its HTTP API on
// `spec.backup.port`) and the store: for the `Local` provider the host directory `<hostPath>/<container>` (`hostPath`
// of the store Secret) mounted at `/home/nonroot/<container>` and named by `STORAGE_CONTAINER`, as druid does.
// Deviation: druid's etcd-wrapper asks the sidecar to initialize (validate, restore) the data dir over
// `/initialization/start` before it starts etcd; here an init container `backup-restore-initialize` runs
// `etcdbrctl initialize` with the same store flags before etcd starts (the local equivalent, since etcd runs as the
// plain binary here).
import { tryParseQuantity } from '@gardener-ts/api';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import type { EtcdResource, EtcdSecretReference, EtcdStoreSpec, EtcdTLSConfig } from './kinds.js';

/** druid's defaults: ports, quota, snapshot count, compaction, storage. */
export const EtcdDefaults = {
  clientPort: 2379,
  serverPort: 2380,
  /** etcd's `--listen-metrics-urls` port: plain HTTP `/metrics` and `/health` (the readiness probe). */
  metricsPort: 2381,
  quota: '8Gi',
  snapshotCount: 75000,
  autoCompactionMode: 'periodic',
  autoCompactionRetention: '30m',
  storageCapacity: '16Gi',
  metrics: 'basic',
} as const;

/**
 * Images whose program is the etcd binary taking etcd's own flags (upstream etcd and Gardener's etcd builds). An Etcd
 * naming another image (druid's etcd-wrapper, which needs the backup-restore sidecar) runs {@link DefaultEtcdImage}.
 */
export const EtcdImageRepositories: readonly string[] = [
  'registry.k8s.io/etcd',
  'quay.io/coreos/etcd',
  'gcr.io/etcd-development/etcd',
  'europe-docker.pkg.dev/gardener-project/releases/gardener/etcd',
  'europe-docker.pkg.dev/gardener-project/public/gardener/etcd',
];

/** The etcd image used when the Etcd names none that runs plain etcd. */
export const DefaultEtcdImage = 'registry.k8s.io/etcd:3.5.21-0';

/** druid's label keys and the value of `app.kubernetes.io/managed-by`. */
export const DruidLabels = {
  managedBy: 'app.kubernetes.io/managed-by',
  partOf: 'app.kubernetes.io/part-of',
  name: 'app.kubernetes.io/name',
  component: 'app.kubernetes.io/component',
  managedByValue: 'etcd-druid',
} as const;

/** Where the data volume is mounted (druid's path). */
export const DataMountPath = '/var/etcd/data';
/** etcd's `--data-dir` on the data volume (druid's path). */
export const DataDir = `${DataMountPath}/new.etcd`;

/** The objects of an Etcd. */
export interface EtcdObjects {
  statefulSet: KubernetesObject;
  clientService: KubernetesObject;
  peerService: KubernetesObject;
}

/** Options of {@link etcdObjects}. */
export interface EtcdObjectsOptions {
  /** The data volume is a PersistentVolumeClaim per member (druid's); otherwise an emptyDir that lives with the Pod. */
  persistentVolumes: boolean;
  /**
   * The backup store's host directory (`hostPath` of the store Secret, druid's default
   * {@link LocalProviderDefaultMountPath}) when `spec.backup.store` is set.
   */
  backupHostPath?: string;
  /** The etcd-backup-restore image (druid's image vector); {@link DefaultBackupRestoreImage} by default. */
  backupRestoreImage?: string;
}

/** druid's etcd-backup-restore image (the image vector's `etcd-backup-restore`). */
export const DefaultBackupRestoreImage = 'europe-docker.pkg.dev/gardener-project/releases/gardener/etcdbrctl:v0.34.0';
/** druid's default host directory of the Local provider's buckets. */
export const LocalProviderDefaultMountPath = '/etc/gardener/local-backupbuckets';
/** The store Secret's key naming the host directory of the Local provider (druid's `hostPath`). */
export const EtcdBackupSecretHostPathKey = 'hostPath';
/** druid's default backup-restore port. */
export const DefaultBackupPort = 8080;
/** druid's default full snapshot schedule when the Etcd names none. */
export const DefaultFullSnapshotSchedule = '0 */1 * * *';

/** druid's storage provider for an infrastructure provider name; undefined when the Etcd has no store. */
export function storageProvider(etcd: EtcdResource): string | undefined {
  const store = backupStore(etcd);
  if (!store) return undefined;
  const provider = store.provider ?? '';
  const known: Record<string, string> = {
    aws: 'S3',
    S3: 'S3',
    azure: 'ABS',
    ABS: 'ABS',
    alicloud: 'OSS',
    OSS: 'OSS',
    openstack: 'Swift',
    Swift: 'Swift',
    gcp: 'GCS',
    GCS: 'GCS',
    dell: 'ECS',
    ECS: 'ECS',
    openshift: 'OCS',
    OCS: 'OCS',
    Local: 'Local',
    local: 'Local',
  };
  const mapped = known[provider];
  if (!mapped)
    throw new Error(
      `spec.backup.store.provider of Etcd ${etcdKey(etcd)}: unsupported storage provider ${JSON.stringify(provider)}`,
    );
  return mapped;
}

/** `spec.backup.store`, when set. */
export function backupStore(etcd: EtcdResource): EtcdStoreSpec | undefined {
  return (etcd.spec.backup?.store as EtcdStoreSpec | undefined) ?? undefined;
}

const etcdKey = (etcd: EtcdResource) => `${etcd.metadata?.namespace}/${etcd.metadata?.name}`;

/** Where the Local store is mounted in the backup-restore containers (druid's MountPathLocalStore). */
export function localStoreMountPath(etcd: EtcdResource): string {
  const home = etcd.spec.runAsRoot ? '/root' : '/home/nonroot';
  const container = backupStore(etcd)?.container;
  return container ? `${home}/${container}` : home;
}

/** The name of an Etcd's client Service. */
export const clientServiceName = (etcd: EtcdResource) => `${etcd.metadata!.name}-client`;
/** The name of an Etcd's headless peer Service (the StatefulSet's serviceName). */
export const peerServiceName = (etcd: EtcdResource) => `${etcd.metadata!.name}-peer`;

/** druid's default labels: managed by etcd-druid, part of the Etcd. They select the Etcd's Pods. */
export function selectorLabels(etcd: EtcdResource): Record<string, string> {
  return { [DruidLabels.managedBy]: DruidLabels.managedByValue, [DruidLabels.partOf]: etcd.metadata!.name! };
}

/** The repository of an image reference (without tag or digest). */
export function imageRepository(image: string): string {
  const withoutDigest = image.split('@')[0]!;
  const colon = withoutDigest.lastIndexOf(':');
  return colon > withoutDigest.lastIndexOf('/') ? withoutDigest.slice(0, colon) : withoutDigest;
}

/** The image of the etcd container: `spec.etcd.image` when it runs plain etcd, else `defaultImage`. */
export function etcdImage(etcd: EtcdResource, defaultImage = DefaultEtcdImage): string {
  const image = etcd.spec.etcd.image;
  return image && EtcdImageRepositories.includes(imageRepository(image)) ? image : defaultImage;
}

/** The value of `--quota-backend-bytes` for `spec.etcd.quota` (druid's 8Gi when unset); throws on a bad quantity. */
export function quotaBytes(etcd: EtcdResource): string {
  const quota = etcd.spec.etcd.quota ?? EtcdDefaults.quota;
  const parsed = tryParseQuantity(quota);
  if (!parsed || parsed.sign() <= 0)
    throw new Error(`spec.etcd.quota of Etcd ${etcd.metadata?.namespace}/${etcd.metadata?.name}: invalid ${quota}`);
  return parsed.value().toString();
}

const ownerReference = (etcd: EtcdResource) => ({
  apiVersion: 'druid.gardener.cloud/v1alpha1',
  kind: 'Etcd',
  name: etcd.metadata!.name!,
  uid: etcd.metadata!.uid!,
  controller: true,
  blockOwnerDeletion: true,
});

const metadata = (etcd: EtcdResource, name: string, component: string, extra: Record<string, string> = {}) => ({
  name,
  namespace: etcd.metadata!.namespace!,
  labels: { ...extra, ...selectorLabels(etcd), [DruidLabels.component]: component, [DruidLabels.name]: name },
  ownerReferences: [ownerReference(etcd)],
});

// The mount paths of the TLS Secrets (druid's layout).
const TLSPaths = {
  clientCA: '/var/etcd/ssl/client/ca',
  clientServer: '/var/etcd/ssl/client/server',
  clientClient: '/var/etcd/ssl/client/client',
  peerCA: '/var/etcd/ssl/peer/ca',
  peerServer: '/var/etcd/ssl/peer/server',
} as const;

const caFile = (dir: string, ref: EtcdSecretReference) => `${dir}/${ref.dataKey ?? 'ca.crt'}`;

/** The scheme of URLs with or without TLS. */
const scheme = (tls: EtcdTLSConfig | undefined) => (tls ? 'https' : 'http');

/** The peer URL of member `ordinal` (its stable DNS name through the peer Service). */
function memberPeerURL(etcd: EtcdResource, member: string): string {
  const port = etcd.spec.etcd.serverPort ?? EtcdDefaults.serverPort;
  return `${scheme(etcd.spec.etcd.peerUrlTls)}://${member}.${peerServiceName(etcd)}.${etcd.metadata!.namespace}.svc:${port}`;
}

/**
 * etcd's flags for a member of the Etcd. Members listen on the Pod IP only (a program that is no Node.js program
 * must bind it itself in local mode, where Pods share one network namespace; 127.0.0.1:2379 would collide between
 * etcds) and advertise their stable DNS names; `$(POD_NAME)`/`$(POD_IP)` come from the container's environment.
 */
export function etcdArgs(etcd: EtcdResource): string[] {
  const spec = etcd.spec;
  const name = etcd.metadata!.name!;
  const clientPort = spec.etcd.clientPort ?? EtcdDefaults.clientPort;
  const serverPort = spec.etcd.serverPort ?? EtcdDefaults.serverPort;
  const client = spec.etcd.clientUrlTls;
  const peer = spec.etcd.peerUrlTls;
  const members = Array.from({ length: Math.max(1, spec.replicas) }, (_, i) => `${name}-${i}`);
  const ownPeerURL = memberPeerURL(etcd, '$(POD_NAME)');
  const args = [
    '--name=$(POD_NAME)',
    `--data-dir=${DataDir}`,
    `--listen-client-urls=${scheme(client)}://$(POD_IP):${clientPort}`,
    `--advertise-client-urls=${scheme(client)}://$(POD_NAME).${peerServiceName(etcd)}.${etcd.metadata!.namespace}.svc:${clientPort}`,
    `--listen-peer-urls=${scheme(peer)}://$(POD_IP):${serverPort}`,
    `--initial-advertise-peer-urls=${ownPeerURL}`,
    `--initial-cluster=${members.map((m) => `${m}=${memberPeerURL(etcd, m)}`).join(',')}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${name}`,
    `--listen-metrics-urls=http://$(POD_IP):${EtcdDefaults.metricsPort}`,
    `--metrics=${spec.etcd.metrics ?? EtcdDefaults.metrics}`,
    `--quota-backend-bytes=${quotaBytes(etcd)}`,
    `--snapshot-count=${spec.etcd.snapshotCount ?? EtcdDefaults.snapshotCount}`,
    `--auto-compaction-mode=${spec.sharedConfig?.autoCompactionMode ?? EtcdDefaults.autoCompactionMode}`,
    `--auto-compaction-retention=${spec.sharedConfig?.autoCompactionRetention ?? EtcdDefaults.autoCompactionRetention}`,
  ];
  if (client) {
    args.push(
      `--cert-file=${TLSPaths.clientServer}/tls.crt`,
      `--key-file=${TLSPaths.clientServer}/tls.key`,
      '--client-cert-auth=true',
      `--trusted-ca-file=${caFile(TLSPaths.clientCA, client.tlsCASecretRef)}`,
    );
  }
  if (peer) {
    args.push(
      `--peer-cert-file=${TLSPaths.peerServer}/tls.crt`,
      `--peer-key-file=${TLSPaths.peerServer}/tls.key`,
      '--peer-client-cert-auth=true',
      `--peer-trusted-ca-file=${caFile(TLSPaths.peerCA, peer.tlsCASecretRef)}`,
    );
  }
  return args;
}

/** The name of the data volume (and claim template): `spec.volumeClaimTemplate`, else the Etcd's name. */
export const dataVolumeName = (etcd: EtcdResource) => etcd.spec.volumeClaimTemplate ?? etcd.metadata!.name!;

function tlsVolumes(etcd: EtcdResource) {
  const volumes: { name: string; mountPath: string; secretName: string }[] = [];
  const add = (name: string, mountPath: string, ref: EtcdSecretReference | undefined) => {
    if (ref?.name) volumes.push({ name, mountPath, secretName: ref.name });
  };
  const client = etcd.spec.etcd.clientUrlTls;
  add('client-url-ca-etcd', TLSPaths.clientCA, client?.tlsCASecretRef);
  add('client-url-etcd-server-tls', TLSPaths.clientServer, client?.serverTLSSecretRef);
  add('client-url-etcd-client-tls', TLSPaths.clientClient, client?.clientTLSSecretRef);
  const peer = etcd.spec.etcd.peerUrlTls;
  add('peer-url-ca-etcd', TLSPaths.peerCA, peer?.tlsCASecretRef);
  add('peer-url-etcd-server-tls', TLSPaths.peerServer, peer?.serverTLSSecretRef);
  return volumes;
}

/** Where the backup-restore server's TLS Secret is mounted (druid's path). */
const BackupRestoreServerTLSPath = '/var/etcdbr/ssl/server';
/** The volume of the Local store (druid's name). */
const LocalBackupVolume = 'local-backup';

/** The store flags of etcdbrctl (druid's): provider, prefix, and for `server` schedule, GC and compression. */
function backupStoreArgs(etcd: EtcdResource, provider: string, server: boolean): string[] {
  const backup = etcd.spec.backup;
  const args = [`--storage-provider=${provider}`, `--store-prefix=${backupStore(etcd)!.prefix}`];
  if (!server) return args;
  args.push(`--schedule=${backup.fullSnapshotSchedule ?? DefaultFullSnapshotSchedule}`);
  if (backup.deltaSnapshotPeriod) args.push(`--delta-snapshot-period=${backup.deltaSnapshotPeriod}`);
  const policy = backup.garbageCollectionPolicy ?? 'LimitBased';
  args.push(`--garbage-collection-policy=${policy}`);
  if (policy === 'LimitBased') args.push(`--max-backups=${backup.maxBackupsLimitBasedGC ?? 7}`);
  if (backup.garbageCollectionPeriod) args.push(`--garbage-collection-period=${backup.garbageCollectionPeriod}`);
  if (backup.compression?.enabled) args.push('--compress-snapshots=true');
  if (backup.compression?.policy) args.push(`--compression-policy=${backup.compression.policy}`);
  args.push(`--etcd-snapshot-timeout=${backup.etcdSnapshotTimeout ?? '15m'}`);
  return args;
}

/** The args of the backup-restore sidecar (`etcdbrctl server`), druid's flags for a plain etcd. */
export function backupRestoreArgs(etcd: EtcdResource): string[] {
  const provider = storageProvider(etcd);
  const name = etcd.metadata!.name!;
  const clientPort = etcd.spec.etcd.clientPort ?? EtcdDefaults.clientPort;
  const client = etcd.spec.etcd.clientUrlTls;
  const args = ['server', ...(provider ? backupStoreArgs(etcd, provider, true) : [])];
  if (client) {
    args.push(
      `--cacert=${caFile(TLSPaths.clientCA, client.tlsCASecretRef)}`,
      `--cert=${TLSPaths.clientClient}/tls.crt`,
      `--key=${TLSPaths.clientClient}/tls.key`,
      '--insecure-transport=false',
      '--insecure-skip-tls-verify=false',
    );
  } else {
    args.push('--insecure-transport=true', '--insecure-skip-tls-verify=true');
  }
  args.push(
    `--endpoints=${scheme(client)}://${name}-local:${clientPort}`,
    `--service-endpoints=${scheme(client)}://${clientServiceName(etcd)}:${clientPort}`,
  );
  if (etcd.spec.backup.tls?.serverTLSSecretRef?.name) {
    args.push(
      `--server-cert=${BackupRestoreServerTLSPath}/tls.crt`,
      `--server-key=${BackupRestoreServerTLSPath}/tls.key`,
    );
  }
  args.push(`--data-dir=${DataDir}`, `--server-port=${etcd.spec.backup.port ?? DefaultBackupPort}`);
  return args;
}

/** The args of the init container that validates and restores the data dir (`etcdbrctl initialize`). */
export function backupRestoreInitializeArgs(etcd: EtcdResource): string[] {
  const provider = storageProvider(etcd)!;
  return ['initialize', ...backupStoreArgs(etcd, provider, false), `--data-dir=${DataDir}`];
}

/** The backup-restore containers and volumes of an Etcd with a store (none without). */
export function backupRestorePodParts(etcd: EtcdResource, options: EtcdObjectsOptions) {
  const provider = storageProvider(etcd);
  if (!provider) return { initContainers: [], containers: [], volumes: [] };
  if (provider !== 'Local')
    throw new Error(
      `spec.backup.store.provider of Etcd ${etcdKey(etcd)}: storage provider ${provider} has no local counterpart (only Local)`,
    );
  const store = backupStore(etcd)!;
  const image = options.backupRestoreImage ?? DefaultBackupRestoreImage;
  const dataVolume = dataVolumeName(etcd);
  const hostPath = options.backupHostPath ?? LocalProviderDefaultMountPath;
  const storeMount = { name: LocalBackupVolume, mountPath: localStoreMountPath(etcd) };
  const fieldEnv = (envName: string, fieldPath: string) => ({ name: envName, valueFrom: { fieldRef: { fieldPath } } });
  const env = [
    { name: 'STORAGE_CONTAINER', value: storeMount.mountPath },
    fieldEnv('POD_NAME', 'metadata.name'),
    fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
    fieldEnv('POD_IP', 'status.podIP'),
  ];
  const tls = tlsVolumes(etcd).filter(
    (v) => v.name === 'client-url-ca-etcd' || v.name === 'client-url-etcd-client-tls',
  );
  const serverTLS = etcd.spec.backup.tls?.serverTLSSecretRef?.name;
  const resources = etcd.spec.backup.resources;
  const port = etcd.spec.backup.port ?? DefaultBackupPort;
  return {
    initContainers: [
      {
        name: 'backup-restore-initialize',
        image,
        imagePullPolicy: 'IfNotPresent',
        args: backupRestoreInitializeArgs(etcd),
        env,
        volumeMounts: [{ name: dataVolume, mountPath: DataMountPath }, storeMount],
      },
    ],
    containers: [
      {
        name: 'backup-restore',
        image,
        imagePullPolicy: 'IfNotPresent',
        args: backupRestoreArgs(etcd),
        env,
        ports: [{ name: 'server', containerPort: port, protocol: 'TCP' }],
        ...(resources ? { resources } : {}),
        volumeMounts: [
          { name: dataVolume, mountPath: DataMountPath },
          ...tls.map((v) => ({ name: v.name, mountPath: v.mountPath, readOnly: true })),
          ...(serverTLS
            ? [{ name: 'backup-restore-server-tls', mountPath: BackupRestoreServerTLSPath, readOnly: true }]
            : []),
          storeMount,
        ],
      },
    ],
    volumes: [
      ...(serverTLS
        ? [{ name: 'backup-restore-server-tls', secret: { secretName: serverTLS, defaultMode: 0o640 } }]
        : []),
      {
        name: LocalBackupVolume,
        hostPath: { path: store.container ? `${hostPath}/${store.container}` : hostPath, type: 'Directory' },
      },
    ],
  };
}

/** The StatefulSet of an Etcd: `spec.replicas` members running `image`. */
export function etcdStatefulSet(etcd: EtcdResource, image: string, options: EtcdObjectsOptions): KubernetesObject {
  const spec = etcd.spec;
  const name = etcd.metadata!.name!;
  const clientPort = spec.etcd.clientPort ?? EtcdDefaults.clientPort;
  const serverPort = spec.etcd.serverPort ?? EtcdDefaults.serverPort;
  const dataVolume = dataVolumeName(etcd);
  const tls = tlsVolumes(etcd);
  const backup = backupRestorePodParts(etcd, options);
  const fieldEnv = (envName: string, fieldPath: string) => ({ name: envName, valueFrom: { fieldRef: { fieldPath } } });
  const podLabels = {
    ...spec.labels,
    ...selectorLabels(etcd),
    [DruidLabels.component]: 'etcd-statefulset',
    [DruidLabels.name]: name,
  };
  const securityContext = spec.runAsRoot
    ? { runAsUser: 0, runAsGroup: 0, fsGroup: 0 }
    : { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, fsGroup: 65532 };
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: metadata(etcd, name, 'etcd-statefulset'),
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: selectorLabels(etcd) },
      serviceName: peerServiceName(etcd),
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate' },
      template: {
        metadata: { labels: podLabels, ...(spec.annotations ? { annotations: spec.annotations } : {}) },
        spec: {
          automountServiceAccountToken: false,
          ...(spec.priorityClassName ? { priorityClassName: spec.priorityClassName } : {}),
          ...(spec.schedulingConstraints?.affinity ? { affinity: spec.schedulingConstraints.affinity } : {}),
          ...(spec.schedulingConstraints?.topologySpreadConstraints
            ? { topologySpreadConstraints: spec.schedulingConstraints.topologySpreadConstraints }
            : {}),
          securityContext,
          ...(backup.initContainers.length ? { initContainers: backup.initContainers } : {}),
          containers: [
            {
              name: 'etcd',
              image,
              imagePullPolicy: 'IfNotPresent',
              command: ['etcd'],
              args: etcdArgs(etcd),
              env: [
                fieldEnv('POD_NAME', 'metadata.name'),
                fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
                fieldEnv('POD_IP', 'status.podIP'),
              ],
              ports: [
                { name: 'server', containerPort: serverPort, protocol: 'TCP' },
                { name: 'client', containerPort: clientPort, protocol: 'TCP' },
                { name: 'metrics', containerPort: EtcdDefaults.metricsPort, protocol: 'TCP' },
              ],
              // Every second, not ready after 10 s of failures: the kube-apiserver roll-out waits for this readiness.
              readinessProbe: {
                httpGet: { path: '/health', port: EtcdDefaults.metricsPort, scheme: 'HTTP' },
                periodSeconds: 1,
                failureThreshold: 10,
              },
              ...(spec.etcd.resources ? { resources: spec.etcd.resources } : {}),
              volumeMounts: [
                { name: dataVolume, mountPath: DataMountPath },
                ...tls.map((v) => ({ name: v.name, mountPath: v.mountPath, readOnly: true })),
              ],
            },
            ...backup.containers,
          ],
          volumes: [
            ...(options.persistentVolumes ? [] : [{ name: dataVolume, emptyDir: {} }]),
            ...tls.map((v) => ({ name: v.name, secret: { secretName: v.secretName, defaultMode: 0o640 } })),
            ...backup.volumes,
          ],
        },
      },
      ...(options.persistentVolumes
        ? {
            volumeClaimTemplates: [
              {
                metadata: { name: dataVolume },
                spec: {
                  accessModes: ['ReadWriteOnce'],
                  ...(spec.storageClass ? { storageClassName: spec.storageClass } : {}),
                  resources: { requests: { storage: String(spec.storageCapacity ?? EtcdDefaults.storageCapacity) } },
                },
              },
            ],
          }
        : {}),
    },
  } as KubernetesObject;
}

/**
 * The client Service `<name>-client`: the client and peer ports, and with a backup store the backup-restore port
 * (druid's `backuprestore`; without a store no sidecar listens on it).
 */
export function etcdClientService(etcd: EtcdResource): KubernetesObject {
  const clientPort = etcd.spec.etcd.clientPort ?? EtcdDefaults.clientPort;
  const serverPort = etcd.spec.etcd.serverPort ?? EtcdDefaults.serverPort;
  const backupPort = etcd.spec.backup?.port ?? DefaultBackupPort;
  const custom = etcd.spec.etcd.clientService;
  const meta = metadata(etcd, clientServiceName(etcd), 'etcd-client-service', custom?.labels);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { ...meta, ...(custom?.annotations ? { annotations: custom.annotations } : {}) },
    spec: {
      type: 'ClusterIP',
      sessionAffinity: 'None',
      selector: selectorLabels(etcd),
      ports: [
        { name: 'client', protocol: 'TCP', port: clientPort, targetPort: clientPort },
        { name: 'server', protocol: 'TCP', port: serverPort, targetPort: serverPort },
        ...(backupStore(etcd)
          ? [{ name: 'backuprestore', protocol: 'TCP', port: backupPort, targetPort: backupPort }]
          : []),
      ],
    },
  } as KubernetesObject;
}

/** The headless peer Service `<name>-peer`: every member's DNS name, ready or not. */
export function etcdPeerService(etcd: EtcdResource): KubernetesObject {
  const serverPort = etcd.spec.etcd.serverPort ?? EtcdDefaults.serverPort;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata(etcd, peerServiceName(etcd), 'etcd-peer-service'),
    spec: {
      clusterIP: 'None',
      type: 'ClusterIP',
      publishNotReadyAddresses: true,
      selector: selectorLabels(etcd),
      ports: [{ name: 'peer', protocol: 'TCP', port: serverPort, targetPort: serverPort }],
    },
  } as KubernetesObject;
}

/** Every object of an Etcd. */
export function etcdObjects(etcd: EtcdResource, image: string, options: EtcdObjectsOptions): EtcdObjects {
  return {
    statefulSet: etcdStatefulSet(etcd, image, options),
    clientService: etcdClientService(etcd),
    peerService: etcdPeerService(etcd),
  };
}
