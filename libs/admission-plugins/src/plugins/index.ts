// The admission plugins of gardener-apiserver this library implements, in the order the chain runs them.
import { SeedRestriction } from '../authorizer/seed-restriction.js';
import type { AdmissionPlugin } from '../chain.js';
import { AdmissionPluginSecretValidator } from './admission-plugin-secret.js';
import { AuditPolicyValidator } from './audit-policy.js';
import { BastionValidator } from './bastion.js';
import { ControllerRegistrationResources } from './controller-registration-resources.js';
import { CustomVerbAuthorizer } from './custom-verb-authorizer.js';
import { DeletionConfirmation } from './deletion-confirmation.js';
import { ExtensionValidator } from './extension-validator.js';
import { FinalizerRemoval } from './finalizer-removal.js';
import { InternalDomainSecretValidator } from './internal-domain-secret.js';
import { KubeconfigSecretValidator } from './kubeconfig-secret.js';
import { ManagedSeedValidator } from './managed-seed.js';
import { NamespacedCloudProfileValidator } from './namespaced-cloudprofile.js';
import { NamespaceDeletion } from './namespace-deletion.js';
import { ClusterOpenIDConnectPreset, OpenIDConnectPreset } from './openidconnect-preset.js';
import { ShootDNS } from './shoot-dns.js';
import { ShootQuotaValidator } from './shoot-quota.js';
import {
  ShootExposureClass,
  ShootNodeLocalDNSEnabledByDefault,
  ShootVPAEnabledByDefault,
} from './shoot-defaults-by-plugin.js';
import { ShootTolerationRestriction } from './shoot-toleration-restriction.js';
import { ExtensionLabels } from './extension-labels.js';
import { ProjectMutator, ProjectValidator } from './project.js';
import { ProviderSecretLabels } from './provider-secret-labels.js';
import { ResourceReferenceManager } from './resource-reference-manager.js';
import { ManagedSeedShoot, ShootManagedSeed } from './seed-and-managed-seed.js';
import { SeedMutator, SeedValidator } from './seed.js';
import { BackupBucketValidator } from './backup-bucket.js';
import { ShootMutator } from './shoot-mutator.js';
import { ShootResourceReservation } from './shoot-resource-reservation.js';
import { ShootValidator } from './shoot-validator.js';
import { StrategyDefaulting, StrategyValidation } from './strategy.js';
import { UpdateRestriction } from './update-restriction.js';
import { AuthenticationConfigurationValidator } from './structured-authentication.js';
import { AuthorizationConfigurationValidator } from './structured-authorization.js';

export { admitAuditPolicy, auditPolicyConfigMapName, auditPolicyErrors, AuditPolicyValidator } from './audit-policy.js';
export { BastionValidator } from './bastion.js';
export { configMapValidator, type ConfigMapValidatorSpec, type ConfigRefusal } from './config-validator.js';
export { ControllerRegistrationResources, primaryConflicts } from './controller-registration-resources.js';
export { CustomVerbAuthorizer, ManageMembers, ModifySpecTolerationsWhitelist } from './custom-verb-authorizer.js';
export { DeletionConfirmation, deletionRefusal, ShootIgnore } from './deletion-confirmation.js';
export { ExtensionValidator, neededExtensions } from './extension-validator.js';
export { FinalizerRemoval, GardenerFinalizer } from './finalizer-removal.js';
export { domainOf, InternalDomainRole, InternalDomainSecretValidator } from './internal-domain-secret.js';
export { KubeconfigSecretValidator, kubeconfigProblems } from './kubeconfig-secret.js';
export { AdmissionPluginSecretValidator, shootsUsingAdmissionPluginSecret } from './admission-plugin-secret.js';
export { ManagedSeedValidator } from './managed-seed.js';
export { ShootQuotaValidator, shootClaim } from './shoot-quota.js';
export {
  ShootExposureClass,
  ShootNodeLocalDNSEnabledByDefault,
  ShootVPAEnabledByDefault,
} from './shoot-defaults-by-plugin.js';
export { NamespacedCloudProfileValidator } from './namespaced-cloudprofile.js';
export { NamespaceDeletion } from './namespace-deletion.js';
export {
  choosePreset,
  ClusterOpenIDConnectPreset,
  oidcConfigFromPreset,
  OpenIDConnectPreset,
  withPresetOIDCConfig,
} from './openidconnect-preset.js';
export { managedIssuerConfigSecret, managedIssuerRefusal } from './shoot-managed-issuer.js';
export { ShootDNS, defaultDomains, DefaultDomainRole, DNSDomainAnnotation } from './shoot-dns.js';
export { isUnrestricted, resourceSizeValidator, sizeLimitFor } from './resource-size.js';
export { ShootTolerationRestriction, tolerationErrors } from './shoot-toleration-restriction.js';
export { ExtensionLabels, extensionLabels, ExtensionLabelPrefix } from './extension-labels.js';
export { ProjectMutator, ProjectValidator, withCreator } from './project.js';
export {
  providerTypesOf,
  ProviderSecretLabels,
  secretBindingTypes,
  ShootProviderLabelPrefix,
  withProviderLabels,
} from './provider-secret-labels.js';
export { ResourceReferenceManager } from './resource-reference-manager.js';
export { ManagedSeedShoot, ShootManagedSeed, managedSeedShootUpdateErrors } from './seed-and-managed-seed.js';
export {
  LabelPrefixSeedName,
  maintainSeedNameLabels,
  SeedMutator,
  SeedValidator,
  usesSeed,
  validateSeedSpecUpdate,
} from './seed.js';
export { BackupBucketValidator } from './backup-bucket.js';
export {
  addTasks,
  FailedShootNeedsRetryOperation,
  keepMachineImages,
  ShootMutator,
  ShootTaskDeployDNSRecordExternal,
  ShootTaskDeployDNSRecordIngress,
  ShootTaskDeployDNSRecordInternal,
  ShootTaskDeployInfrastructure,
} from './shoot-mutator.js';
export {
  calculateCPUReservation,
  calculateMemoryReservation,
  reservationForMachineType,
  ShootResourceReservation,
  shootResourceReservation,
  StaticKubeReserved,
  type ShootResourceReservationConfiguration,
} from './shoot-resource-reservation.js';
export {
  ShootValidator,
  validateShootAgainstProfile,
  cloudProfileSpecFor,
  cloudProfileReference,
} from './shoot-validator.js';
export { StrategyDefaulting, StrategyValidation } from './strategy.js';
export { UpdateRestriction, UpdateRestrictionLabel, updateRestrictionRefusal } from './update-restriction.js';
export {
  admitAuthenticationConfiguration,
  authenticationConfigMapName,
  authenticationConfigurationErrors,
  AuthenticationConfigurationValidator,
  shootIssuers,
} from './structured-authentication.js';
export {
  admitAuthorizationConfiguration,
  authorizationConfigMapName,
  authorizationConfigurationErrors,
  AuthorizationConfigurationValidator,
} from './structured-authorization.js';

/**
 * Every plugin, in chain order. Each phase runs the plugins that take part in it in this order: the strategy's
 * defaulting comes first among the mutating ones (as decoding does in gardener-apiserver), the strategy's validation
 * first among the validating ones (kube runs it between mutating and validating admission).
 */
export const defaultPlugins: readonly AdmissionPlugin[] = [
  StrategyDefaulting,
  StrategyValidation,
  ResourceReferenceManager,
  ProjectMutator,
  ShootExposureClass,
  ShootTolerationRestriction,
  ShootMutator,
  ShootValidator,
  ShootDNS,
  BastionValidator,
  ExtensionLabels,
  ProjectValidator,
  CustomVerbAuthorizer,
  ShootQuotaValidator,
  ControllerRegistrationResources,
  NamespacedCloudProfileValidator,
  ManagedSeedValidator,
  ManagedSeedShoot,
  ShootResourceReservation,
  BackupBucketValidator,
  FinalizerRemoval,
  OpenIDConnectPreset,
  ClusterOpenIDConnectPreset,
  DeletionConfirmation,
  SeedValidator,
  SeedMutator,
  ShootManagedSeed,
  NamespaceDeletion,
  KubeconfigSecretValidator,
  AdmissionPluginSecretValidator,
  InternalDomainSecretValidator,
  AuditPolicyValidator,
  AuthenticationConfigurationValidator,
  AuthorizationConfigurationValidator,
  SeedRestriction,
  // gardener-admission-controller's handlers served on paths of their own only (webhook/server.ts).
  ProviderSecretLabels,
  UpdateRestriction,
];

/**
 * Plugins to be switched on (`enabledPlugins`): ShootVPAEnabledByDefault and ShootNodeLocalDNSEnabledByDefault are
 * off by default in Gardener too; ExtensionValidator is on in Gardener, but it refuses Shoots whose extension types
 * no ControllerRegistration lists, and the local landscape does not register every extension its example Shoot
 * names (networking `calico`) yet.
 */
export const optionalPlugins: readonly AdmissionPlugin[] = [
  ExtensionValidator,
  ShootVPAEnabledByDefault,
  ShootNodeLocalDNSEnabledByDefault,
];

/**
 * The default plugins without those named in `disabled` and with the optional ones named in `enabled`
 * (gardener-apiserver's `--disable-admission-plugins` / `--enable-admission-plugins`).
 */
export function selectPlugins(
  options: { disabled?: readonly string[]; enabled?: readonly string[] } = {},
): AdmissionPlugin[] {
  const disabled = options.disabled ?? [];
  const enabled = options.enabled ?? [];
  const known = [...defaultPlugins, ...optionalPlugins].map((p) => p.name);
  const unknown = [...disabled, ...enabled].filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`unknown admission plugin(s): ${unknown.join(', ')}`);
  const chosen = [...defaultPlugins, ...optionalPlugins.filter((p) => enabled.includes(p.name))];
  return chosen.filter((p) => !disabled.includes(p.name));
}
