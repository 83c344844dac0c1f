// What etcd-druid deploys for an `Etcd`, reduced to what runs etcd without the backup-restore sidecar, as pure
// functions: the StatefulSet `<name>` (one etcd member per Pod, etcd's own flags: data dir on the data volume, client
// and peer TLS from the referenced Secrets, listening on the Pod IP, quota and compaction from the spec), the client
// Service `<name>-client` and the headless peer Service `<name>-peer`, all owned by the Etcd with druid's labels.
import { tryParseQuantity } from '@gardener-ts/api';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import type { EtcdResource, EtcdSecretReference, EtcdTLSConfig } from './kinds.js';

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

/** The StatefulSet of an Etcd: `spec.replicas` members running `image`. */
export function etcdStatefulSet(etcd: EtcdResource, image: string, options: EtcdObjectsOptions): KubernetesObject {
  const spec = etcd.spec;
  const name = etcd.metadata!.name!;
  const clientPort = spec.etcd.clientPort ?? EtcdDefaults.clientPort;
  const serverPort = spec.etcd.serverPort ?? EtcdDefaults.serverPort;
  const dataVolume = dataVolumeName(etcd);
  const tls = tlsVolumes(etcd);
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
              readinessProbe: {
                httpGet: { path: '/health', port: EtcdDefaults.metricsPort, scheme: 'HTTP' },
                periodSeconds: 2,
                failureThreshold: 5,
              },
              ...(spec.etcd.resources ? { resources: spec.etcd.resources } : {}),
              volumeMounts: [
                { name: dataVolume, mountPath: DataMountPath },
                ...tls.map((v) => ({ name: v.name, mountPath: v.mountPath, readOnly: true })),
              ],
            },
          ],
          volumes: [
            ...(options.persistentVolumes ? [] : [{ name: dataVolume, emptyDir: {} }]),
            ...tls.map((v) => ({ name: v.name, secret: { secretName: v.secretName, defaultMode: 0o640 } })),
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
 * The client Service `<name>-client`: the client and peer ports (druid's); druid's backup-restore port is left out,
 * nothing listens on it without the sidecar.
 */
export function etcdClientService(etcd: EtcdResource): KubernetesObject {
  const clientPort = etcd.spec.etcd.clientPort ?? EtcdDefaults.clientPort;
  const serverPort = etcd.spec.etcd.serverPort ?? EtcdDefaults.serverPort;
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
