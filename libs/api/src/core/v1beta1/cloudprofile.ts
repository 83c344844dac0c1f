// CloudProfile and NamespacedCloudProfile: what a provider environment offers to Shoots.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { LabelSelector } from '../../schema/meta.js';
import {
  Bool,
  Duration,
  Int32,
  Int64,
  Opt,
  Quantity,
  RawExtension,
  Str,
  StringEnum,
  StringMap,
  Time,
} from '../../schema/primitives.js';
import { AccessRestriction, GroupVersion } from './common.js';

export const VersionClassification = StringEnum(['preview', 'supported', 'deprecated', 'unavailable', 'expired']);

const expirableVersionFields = {
  version: Str(),
  expirationDate: Opt(Time()),
  classification: Opt(VersionClassification),
  lifecycle: Opt(Type.Array(Type.Object({ classification: VersionClassification, startTime: Opt(Time()) }))),
};
export const ExpirableVersion = Type.Object(expirableVersionFields);
export type ExpirableVersion = Static<typeof ExpirableVersion>;

const Capabilities = Type.Record(Type.String(), Type.Array(Str()));

export const MachineImageVersion = Type.Object({
  ...expirableVersionFields,
  cri: Opt(
    Type.Array(
      Type.Object({
        name: StringEnum(['containerd']),
        containerRuntimes: Opt(Type.Array(Type.Object({ type: Str() }))),
      }),
    ),
  ),
  architectures: Opt(Type.Array(Str())),
  kubeletVersionConstraint: Opt(Str()),
  inPlaceUpdates: Opt(Type.Object({ supported: Bool(), minVersionForUpdate: Opt(Str()) })),
  capabilityFlavors: Opt(Type.Array(Capabilities)),
});

export const MachineImage = Type.Object({
  name: Str(),
  versions: Type.Array(MachineImageVersion),
  updateStrategy: Opt(StringEnum(['patch', 'minor', 'major'])),
});

export const MachineType = Type.Object({
  cpu: Quantity(),
  gpu: Quantity(),
  memory: Quantity(),
  name: Str(),
  storage: Opt(Type.Object({ class: Opt(Str()), size: Opt(Quantity()), type: Str(), minSize: Opt(Quantity()) })),
  usable: Opt(Bool()),
  architecture: Opt(Str()),
  capabilities: Opt(Capabilities),
  machineControllerManager: Opt(
    Type.Object({
      machineDrainTimeout: Opt(Duration()),
      machineHealthTimeout: Opt(Duration()),
      machineCreationTimeout: Opt(Duration()),
      maxEvictRetries: Opt(Int32()),
      nodeConditions: Opt(Type.Array(Str())),
      inPlaceUpdateTimeout: Opt(Duration()),
      disableHealthTimeout: Opt(Bool()),
    }),
  ),
});

export const VolumeType = Type.Object({ class: Str(), name: Str(), usable: Opt(Bool()), minSize: Opt(Quantity()) });

export const Region = Type.Object({
  name: Str(),
  zones: Opt(
    Type.Array(
      Type.Object({
        name: Str(),
        unavailableMachineTypes: Opt(Type.Array(Str())),
        unavailableVolumeTypes: Opt(Type.Array(Str())),
      }),
    ),
  ),
  labels: Opt(StringMap()),
  accessRestrictions: Opt(Type.Array(AccessRestriction)),
});

const KubernetesSettings = Type.Object({ versions: Opt(Type.Array(ExpirableVersion)) });
const Limits = Type.Object({ maxNodesTotal: Opt(Int32()) });

export const CloudProfileSpec = Type.Object({
  caBundle: Opt(Str()),
  kubernetes: KubernetesSettings,
  machineImages: Type.Array(MachineImage),
  machineTypes: Type.Array(MachineType),
  providerConfig: Opt(RawExtension()),
  regions: Type.Array(Region),
  seedSelector: Opt(Type.Object({ ...LabelSelector.properties, providerTypes: Opt(Type.Array(Str())) })),
  type: Str(),
  volumeTypes: Opt(Type.Array(VolumeType)),
  bastion: Opt(
    Type.Object({
      machineImage: Opt(Type.Object({ name: Str(), version: Opt(Str()) })),
      machineType: Opt(Type.Object({ name: Str() })),
    }),
  ),
  limits: Opt(Limits),
  machineCapabilities: Opt(Type.Array(Type.Object({ name: Str(), values: Type.Array(Str()) }))),
});
export type CloudProfileSpec = Static<typeof CloudProfileSpec>;

const cloudProfileInfo: KindInfo = {
  ...GroupVersion,
  kind: 'CloudProfile',
  plural: 'cloudprofiles',
  singular: 'cloudprofile',
  namespaced: false,
  shortNames: ['cprofile', 'cpfl'],
  statusSubresource: false,
  printerColumns: [{ name: 'Type', type: 'string', jsonPath: '.spec.type' }, ageColumn],
};
export const CloudProfileKind = defineKind(cloudProfileInfo, kindSchema(cloudProfileInfo, { spec: CloudProfileSpec }));
export type CloudProfile = Static<typeof CloudProfileKind.schema>;

export const NamespacedCloudProfileSpec = Type.Object({
  caBundle: Opt(Str()),
  kubernetes: Opt(KubernetesSettings),
  machineImages: Opt(Type.Array(MachineImage)),
  machineTypes: Opt(Type.Array(MachineType)),
  volumeTypes: Opt(Type.Array(VolumeType)),
  parent: Type.Object({ kind: StringEnum(['CloudProfile']), name: Str() }),
  providerConfig: Opt(RawExtension()),
  limits: Opt(Limits),
});

const namespacedCloudProfileInfo: KindInfo = {
  ...GroupVersion,
  kind: 'NamespacedCloudProfile',
  plural: 'namespacedcloudprofiles',
  singular: 'namespacedcloudprofile',
  namespaced: true,
  shortNames: ['nscpfl'],
  statusSubresource: true,
  printerColumns: [{ name: 'Parent', type: 'string', jsonPath: '.spec.parent.name' }, ageColumn],
};
export const NamespacedCloudProfileKind = defineKind(
  namespacedCloudProfileInfo,
  kindSchema(namespacedCloudProfileInfo, {
    spec: NamespacedCloudProfileSpec,
    status: Opt(Type.Object({ cloudProfileSpec: CloudProfileSpec, observedGeneration: Opt(Int64()) })),
  }),
);
export type NamespacedCloudProfile = Static<typeof NamespacedCloudProfileKind.schema>;
