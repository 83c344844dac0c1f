// Every kind this library defines with a TypeBox schema, for CRD generation and typed (de)serialisation.
import type { KindDefinition } from './schema/kind.js';
import {
  BackupBucketKind,
  BackupEntryKind,
  CloudProfileKind,
  ControllerDeploymentKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  ExposureClassKind,
  InternalSecretKind,
  NamespacedCloudProfileKind,
  ProjectKind,
  QuotaKind,
  SecretBindingKind,
  SeedKind,
  ShootKind,
  ShootStateKind,
} from './core/v1beta1/index.js';
import { CredentialsBindingKind } from './security/v1alpha1/index.js';
import { GardenletKind, ManagedSeedKind, ManagedSeedSetKind } from './seedmanagement/v1alpha1/index.js';
import { BastionKind } from './operations/v1alpha1/index.js';
import { ClusterOpenIDConnectPresetKind, OpenIDConnectPresetKind } from './settings/v1alpha1/index.js';

export const gardenerKinds: readonly KindDefinition[] = [
  ShootKind,
  SeedKind,
  CloudProfileKind,
  NamespacedCloudProfileKind,
  ProjectKind,
  QuotaKind,
  SecretBindingKind,
  CredentialsBindingKind,
  ControllerRegistrationKind,
  ControllerDeploymentKind,
  ControllerInstallationKind,
  BackupBucketKind,
  BackupEntryKind,
  ExposureClassKind,
  ShootStateKind,
  InternalSecretKind,
  ManagedSeedKind,
  ManagedSeedSetKind,
  GardenletKind,
  BastionKind,
  OpenIDConnectPresetKind,
  ClusterOpenIDConnectPresetKind,
];

export function findKind(apiVersion: string, kind: string): KindDefinition | undefined {
  return gardenerKinds.find((k) => `${k.info.group}/${k.info.version}` === apiVersion && k.info.kind === kind);
}
