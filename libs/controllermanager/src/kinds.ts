// The kinds the controller-manager reads and writes, typed for the controller-runtime client and caches.
import {
  corev1beta1,
  operationsv1alpha1,
  securityv1alpha1,
  seedmanagementv1alpha1,
  type Bastion,
  type BackupBucket,
  type BackupEntry,
  type CloudProfile,
  type CredentialsBinding,
  type ExposureClass,
  type ControllerDeployment,
  type ControllerInstallation,
  type ControllerRegistration,
  type NamespacedCloudProfile,
  type Project,
  type Quota,
  type SecretBinding,
  type Seed,
  type Shoot,
} from '@gardener-ts/api';
import { kind, kindFrom, type KubernetesObject } from '@gardener-ts/controller-runtime';

export const ShootKind = kindFrom<Shoot>(corev1beta1.ShootKind);
export const SeedKind = kindFrom<Seed>(corev1beta1.SeedKind);
export const CloudProfileKind = kindFrom<CloudProfile>(corev1beta1.CloudProfileKind);
export const NamespacedCloudProfileKind = kindFrom<NamespacedCloudProfile>(corev1beta1.NamespacedCloudProfileKind);
export const ExposureClassKind = kindFrom<ExposureClass>(corev1beta1.ExposureClassKind);
export const QuotaKind = kindFrom<Quota>(corev1beta1.QuotaKind);
export const SecretBindingKind = kindFrom<SecretBinding>(corev1beta1.SecretBindingKind);
export const CredentialsBindingKind = kindFrom<CredentialsBinding>(securityv1alpha1.CredentialsBindingKind);
export const BastionKind = kindFrom<Bastion>(operationsv1alpha1.BastionKind);
export const ProjectKind = kindFrom<Project>(corev1beta1.ProjectKind);
export const BackupBucketKind = kindFrom<BackupBucket>(corev1beta1.BackupBucketKind);
export const BackupEntryKind = kindFrom<BackupEntry>(corev1beta1.BackupEntryKind);
export const ControllerRegistrationKind = kindFrom<ControllerRegistration>(corev1beta1.ControllerRegistrationKind);
export const ControllerInstallationKind = kindFrom<ControllerInstallation>(corev1beta1.ControllerInstallationKind);
export const ControllerDeploymentKind = kindFrom<ControllerDeployment>(corev1beta1.ControllerDeploymentKind);
/** A seedmanagement.gardener.cloud/v1alpha1 ManagedSeed: a Shoot registered as a Seed. */
export type ManagedSeed = seedmanagementv1alpha1.ManagedSeed;
export const ManagedSeedKind = kindFrom<ManagedSeed>(seedmanagementv1alpha1.ManagedSeedKind);
/** A seedmanagement.gardener.cloud/v1alpha1 ManagedSeedSet: ManagedSeeds (and their Shoots) by replica count. */
export type ManagedSeedSet = seedmanagementv1alpha1.ManagedSeedSet;
export const ManagedSeedSetKind = kindFrom<ManagedSeedSet>(seedmanagementv1alpha1.ManagedSeedSetKind);

/** A certificates.k8s.io/v1 CertificateSigningRequest with the fields the approver reads. */
export interface CertificateSigningRequest extends KubernetesObject {
  spec?: {
    request?: string;
    signerName?: string;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: {
    certificate?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string; lastUpdateTime?: string }[];
  };
}
export const CertificateSigningRequestKind = kind<CertificateSigningRequest>(
  'certificates.k8s.io/v1',
  'CertificateSigningRequest',
);
