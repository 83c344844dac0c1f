// etcd-druid's `etcds.druid.gardener.cloud` CustomResourceDefinition (v1alpha1, namespaced), authored from druid's API
// types (api/core/v1alpha1 `Etcd`): the status and scale subresources, druid's printer columns, and a structural
// schema that spells out what our etcd controller and Gardener's etcd component use and keeps every other field
// druid's Etcd has (`x-kubernetes-preserve-unknown-fields`). Likewise `etcdcopybackupstasks.druid.gardener.cloud`
// (druid's `EtcdCopyBackupsTask`: source and target store, maxBackups, maxBackupAge, waitForFinalSnapshot; status
// conditions, observedGeneration, lastError). No vendored copy of druid's CRDs exists in the repository, so the seed
// reconciler installs these beside Gardener's vendored seed CRDs.
import type { KubernetesObject } from '@gardener-ts/controller-runtime';

/** The CRD's name. */
export const EtcdCRDName = 'etcds.druid.gardener.cloud';

type Schema = Record<string, unknown>;

const preserve = (properties: Record<string, Schema> = {}, extra: Schema = {}): Schema => ({
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  ...(Object.keys(properties).length > 0 ? { properties } : {}),
  ...extra,
});
const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const int32 = (description?: string): Schema => ({
  type: 'integer',
  format: 'int32',
  ...(description ? { description } : {}),
});
const bool = (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) });
const stringMap = (description?: string): Schema => ({
  type: 'object',
  additionalProperties: { type: 'string' },
  ...(description ? { description } : {}),
});
// A resource.Quantity: a string or a number (`int-or-string` with the quantity pattern left to the controllers).
const quantity = (description?: string): Schema => ({
  'x-kubernetes-int-or-string': true,
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  ...(description ? { description } : {}),
});
const duration = (description?: string): Schema => ({
  type: 'string',
  pattern: '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$',
  ...(description ? { description } : {}),
});
const secretRef = (withDataKey: boolean): Schema => ({
  type: 'object',
  properties: {
    name: str('Name of the Secret.'),
    namespace: str('Namespace of the Secret.'),
    ...(withDataKey ? { dataKey: str('The key of the Secret data holding the credentials.') } : {}),
  },
  'x-kubernetes-map-type': 'atomic',
});
const tlsConfig = (description: string): Schema => ({
  type: 'object',
  description,
  required: ['serverTLSSecretRef', 'tlsCASecretRef'],
  properties: {
    tlsCASecretRef: secretRef(true),
    serverTLSSecretRef: secretRef(false),
    clientTLSSecretRef: secretRef(false),
  },
});
const condition: Schema = {
  type: 'object',
  required: ['lastTransitionTime', 'lastUpdateTime', 'message', 'reason', 'status', 'type'],
  properties: {
    type: str('Type of the Etcd condition.'),
    status: str('Status of the condition, one of True, False, Unknown.'),
    lastTransitionTime: { type: 'string', format: 'date-time' },
    lastUpdateTime: { type: 'string', format: 'date-time' },
    reason: str(),
    message: str(),
  },
};

const specSchema: Schema = preserve(
  {
    selector: preserve({}, { description: 'Deprecated: a label query over the etcd Pods.' }),
    labels: stringMap('Labels of the etcd Pods.'),
    annotations: stringMap('Annotations of the etcd Pods.'),
    etcd: preserve({
      quota: quantity('The etcd DB quota (--quota-backend-bytes).'),
      snapshotCount: { type: 'integer', format: 'int64' },
      defragmentationSchedule: str('Cron schedule of defragmentations.'),
      serverPort: int32('The peer port.'),
      clientPort: int32('The client port.'),
      wrapperPort: int32(),
      image: str('The etcd container image.'),
      authSecretRef: secretRef(false),
      metrics: { type: 'string', enum: ['basic', 'extensive'] },
      resources: preserve(),
      clientUrlTls: tlsConfig('TLS of the client URLs.'),
      peerUrlTls: tlsConfig('TLS of the peer URLs.'),
      etcdDefragTimeout: duration(),
      heartbeatDuration: duration(),
      clientService: preserve({
        annotations: stringMap(),
        labels: stringMap(),
        trafficDistribution: { type: 'string', enum: ['PreferClose'] },
      }),
    }),
    backup: preserve({
      port: int32('The port of the backup-restore sidecar.'),
      tls: tlsConfig('TLS of the backup-restore sidecar.'),
      image: str(),
      store: preserve(),
      resources: preserve(),
      compactionResources: preserve(),
      snapshotCompaction: preserve(),
      fullSnapshotSchedule: str(),
      garbageCollectionPolicy: { type: 'string', enum: ['Exponential', 'LimitBased'] },
      maxBackupsLimitBasedGC: int32(),
      garbageCollectionPeriod: duration(),
      deltaSnapshotPeriod: duration(),
      deltaSnapshotMemoryLimit: quantity(),
      deltaSnapshotRetentionPeriod: duration(),
      compression: preserve(),
      enableProfiling: bool(),
      etcdSnapshotTimeout: duration(),
      leaderElection: preserve(),
    }),
    sharedConfig: preserve({
      autoCompactionMode: { type: 'string', enum: ['periodic', 'revision'] },
      autoCompactionRetention: str(),
    }),
    schedulingConstraints: preserve(),
    replicas: int32('The number of etcd members.'),
    priorityClassName: str(),
    storageClass: str(),
    storageCapacity: quantity('The size of the data volume.'),
    volumeClaimTemplate: str('The name of the data volume claim template.'),
    runAsRoot: bool(),
    externallyManagedMemberAddresses: { type: 'array', items: { type: 'string' } },
  },
  { required: ['backup', 'etcd', 'labels', 'replicas'] },
);

const statusSchema: Schema = preserve({
  observedGeneration: { type: 'integer', format: 'int64' },
  etcd: preserve({ apiVersion: str(), kind: str(), name: str() }),
  conditions: { type: 'array', items: condition },
  lastErrors: {
    type: 'array',
    items: {
      type: 'object',
      required: ['code', 'description', 'observedAt'],
      properties: { code: str(), description: str(), observedAt: { type: 'string', format: 'date-time' } },
    },
  },
  lastOperation: preserve({
    type: { type: 'string' },
    state: { type: 'string' },
    description: str(),
    runID: str(),
    lastUpdateTime: { type: 'string', format: 'date-time' },
  }),
  currentReplicas: int32(),
  replicas: int32(),
  readyReplicas: int32(),
  ready: bool(),
  labelSelector: preserve(),
  members: {
    type: 'array',
    items: preserve({
      name: str(),
      id: str(),
      role: str(),
      status: str(),
      reason: str(),
      lastTransitionTime: { type: 'string', format: 'date-time' },
    }),
  },
  peerUrlTLSEnabled: bool(),
  selector: str(),
});

/** The `etcds.druid.gardener.cloud` CRD as etcd-druid defines it (v1alpha1, served and stored). */
export function etcdCRD(): KubernetesObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: EtcdCRDName },
    spec: {
      group: 'druid.gardener.cloud',
      names: { kind: 'Etcd', listKind: 'EtcdList', plural: 'etcds', singular: 'etcd' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Ready', type: 'string', jsonPath: '.status.ready' },
            { name: 'Quorate', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
            {
              name: 'All Members Ready',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="AllMembersReady")].status',
            },
            {
              name: 'Backup Ready',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="BackupReady")].status',
            },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            { name: 'Cluster Size', type: 'integer', jsonPath: '.spec.replicas', priority: 1 },
            { name: 'Current Replicas', type: 'integer', jsonPath: '.status.currentReplicas', priority: 1 },
            { name: 'Ready Replicas', type: 'integer', jsonPath: '.status.readyReplicas', priority: 1 },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'Etcd is the Schema for the etcds API (etcd-druid).',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: specSchema,
                status: statusSchema,
              },
            },
          },
        },
      ],
    },
  } as KubernetesObject;
}

/** The EtcdCopyBackupsTask CRD's name. */
export const EtcdCopyBackupsTaskCRDName = 'etcdcopybackupstasks.druid.gardener.cloud';

// druid's StoreSpec: where snapshots are (provider, container, prefix, the credentials Secret).
const storeSpec = (description: string): Schema => ({
  type: 'object',
  description,
  required: ['prefix'],
  properties: {
    provider: str('The storage provider (Local, S3, ABS, GCS, Swift, OSS, ECS, OCS or the infrastructure name).'),
    container: str('The name of the container (bucket) the backups are stored in.'),
    prefix: str('The prefix of the keys of the backups in the container.'),
    secretRef: secretRef(false),
    endpointOverride: str(),
  },
});

/** The `etcdcopybackupstasks.druid.gardener.cloud` CRD as etcd-druid defines it (v1alpha1, served and stored). */
export function etcdCopyBackupsTaskCRD(): KubernetesObject {
  const uint32 = (description: string): Schema => ({ type: 'integer', format: 'int32', minimum: 0, description });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: EtcdCopyBackupsTaskCRDName },
    spec: {
      group: 'druid.gardener.cloud',
      names: {
        kind: 'EtcdCopyBackupsTask',
        listKind: 'EtcdCopyBackupsTaskList',
        plural: 'etcdcopybackupstasks',
        singular: 'etcdcopybackupstask',
      },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'EtcdCopyBackupsTask is a task for copying etcd backups from a source to a target store.',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: {
                  type: 'object',
                  required: ['sourceStore', 'targetStore'],
                  properties: {
                    podLabels: stringMap('Labels added to the pods of the copy Job.'),
                    sourceStore: storeSpec('The store the backups are copied from.'),
                    targetStore: storeSpec('The store the backups are copied to.'),
                    maxBackupAge: uint32('The maximum age in days of a backup to be copied; all by default.'),
                    maxBackups: uint32('The maximum number of backups copied, the most recent ones; all by default.'),
                    waitForFinalSnapshot: {
                      type: 'object',
                      required: ['enabled'],
                      properties: {
                        enabled: bool('Whether to wait for a final full snapshot before copying.'),
                        timeout: {
                          type: 'string',
                          pattern: '^(0|([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$',
                          description: 'How long to wait for the final snapshot; 0 or none: forever.',
                        },
                      },
                    },
                  },
                },
                status: {
                  type: 'object',
                  properties: {
                    conditions: { type: 'array', items: condition },
                    observedGeneration: { type: 'integer', format: 'int64' },
                    lastError: str('The last error of the reconciliation.'),
                  },
                },
              },
            },
          },
        },
      ],
    },
  } as KubernetesObject;
}

/**
 * `crds` plus druid's CRDs (Etcd, EtcdCopyBackupsTask) that are not among them yet (a vendored copy of either wins).
 */
export function withEtcdCRD(crds: readonly KubernetesObject[]): KubernetesObject[] {
  const names = new Set(crds.map((c) => c.metadata?.name));
  return [
    ...crds,
    ...(names.has(EtcdCRDName) ? [] : [etcdCRD()]),
    ...(names.has(EtcdCopyBackupsTaskCRDName) ? [] : [etcdCopyBackupsTaskCRD()]),
  ];
}
