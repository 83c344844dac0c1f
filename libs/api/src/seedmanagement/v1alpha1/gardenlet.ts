// ManagedSeed, ManagedSeedSet and Gardenlet (seedmanagement.gardener.cloud/v1alpha1): seeds run by Gardener itself.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { LabelSelector, ObjectMeta, ResourceRequirements } from '../../schema/meta.js';
import { Bool, Int32, Int64, Opt, RawExtension, Str, StringEnum, StringMap, Time } from '../../schema/primitives.js';
import { Condition } from '../../core/v1beta1/common.js';
import { OCIRepository } from '../../core/v1beta1/controller.js';
import { ShootSpec } from '../../core/v1beta1/shoot.js';

export const GroupVersion = { group: 'seedmanagement.gardener.cloud', version: 'v1alpha1' } as const;

export const Bootstrap = StringEnum(['BootstrapToken', 'ServiceAccount', 'None']);

/** How the gardenlet is deployed; the fields beyond the Helm chart reference are passed to the chart as values. */
export const GardenletDeployment = Type.Object({
  replicaCount: Opt(Int32()),
  revisionHistoryLimit: Opt(Int32()),
  serviceAccountName: Opt(Str()),
  image: Opt(Type.Object({ repository: Opt(Str()), tag: Opt(Str()), pullPolicy: Opt(Str()) })),
  resources: Opt(ResourceRequirements),
  podLabels: Opt(StringMap()),
  podAnnotations: Opt(StringMap()),
  additionalVolumes: Opt(Type.Array(RawExtension())),
  additionalVolumeMounts: Opt(Type.Array(RawExtension())),
  env: Opt(Type.Array(RawExtension())),
});

export const GardenletConfig = Type.Object({
  deployment: Opt(
    Type.Object({ ...GardenletDeployment.properties, helm: Opt(Type.Object({ ociRepository: OCIRepository })) }),
  ),
  config: Opt(RawExtension()),
  bootstrap: Opt(Bootstrap),
  mergeWithParent: Opt(Bool()),
});

const managedSeedInfo: KindInfo = {
  ...GroupVersion,
  kind: 'ManagedSeed',
  plural: 'managedseeds',
  singular: 'managedseed',
  namespaced: true,
  statusSubresource: true,
  printerColumns: [
    { name: 'Shoot', type: 'string', jsonPath: '.spec.shoot.name' },
    { name: 'Registered', type: 'string', jsonPath: '.status.conditions[?(@.type=="SeedRegistered")].status' },
    ageColumn,
  ],
};
export const ManagedSeedSpec = Type.Object({ shoot: Opt(Type.Object({ name: Str() })), gardenlet: GardenletConfig });
export const ManagedSeedKind = defineKind(
  managedSeedInfo,
  kindSchema(managedSeedInfo, {
    spec: ManagedSeedSpec,
    status: Opt(Type.Object({ conditions: Opt(Type.Array(Condition)), observedGeneration: Int64() })),
  }),
);
export type ManagedSeed = Static<typeof ManagedSeedKind.schema>;

const managedSeedSetInfo: KindInfo = {
  ...GroupVersion,
  kind: 'ManagedSeedSet',
  plural: 'managedseedsets',
  singular: 'managedseedset',
  namespaced: true,
  statusSubresource: true,
  printerColumns: [
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
    ageColumn,
  ],
};
export const ManagedSeedSetKind = defineKind(
  managedSeedSetInfo,
  kindSchema(managedSeedSetInfo, {
    spec: Type.Object({
      replicas: Opt(Int32()),
      selector: LabelSelector,
      template: Type.Object({ metadata: Opt(ObjectMeta), spec: ManagedSeedSpec }),
      shootTemplate: Type.Object({ metadata: Opt(ObjectMeta), spec: ShootSpec }),
      updateStrategy: Opt(
        Type.Object({
          type: Opt(StringEnum(['RollingUpdate'])),
          rollingUpdate: Opt(Type.Object({ partition: Opt(Int32()) })),
        }),
      ),
      revisionHistoryLimit: Opt(Int32()),
    }),
    status: Opt(
      Type.Object({
        observedGeneration: Int64(),
        replicas: Int32(),
        readyReplicas: Int32(),
        nextReplicaNumber: Int32(),
        currentReplicas: Int32(),
        updatedReplicas: Int32(),
        currentRevision: Str(),
        updateRevision: Str(),
        collisionCount: Opt(Int32()),
        conditions: Opt(Type.Array(Condition)),
        pendingReplica: Opt(
          Type.Object({
            name: Str(),
            // Gardener's PendingReplicaReason (ShootReconciling, ShootDeleting, ShootReconcileFailed, ShootDeleteFailed,
            // ManagedSeedPreparing, ManagedSeedDeleting, SeedNotReady, ShootNotHealthy): a plain string in its schema.
            reason: Str(),
            since: Time(),
            retries: Opt(Int32()),
          }),
        ),
      }),
    ),
  }),
);
export type ManagedSeedSet = Static<typeof ManagedSeedSetKind.schema>;

const gardenletInfo: KindInfo = {
  ...GroupVersion,
  kind: 'Gardenlet',
  plural: 'gardenlets',
  singular: 'gardenlet',
  namespaced: true,
  statusSubresource: true,
  printerColumns: [ageColumn],
};
export const GardenletKind = defineKind(
  gardenletInfo,
  kindSchema(gardenletInfo, {
    spec: Type.Object({
      deployment: Type.Object({
        ...GardenletDeployment.properties,
        helm: Type.Object({ ociRepository: OCIRepository }),
      }),
      config: RawExtension(),
      kubeconfigSecretRef: Opt(Type.Object({ name: Str() })),
    }),
    status: Opt(Type.Object({ conditions: Opt(Type.Array(Condition)), observedGeneration: Opt(Int64()) })),
  }),
);
export type Gardenlet = Static<typeof GardenletKind.schema>;
