// Well-known annotation keys of Gardener objects (gardener/gardener pkg/apis/core/v1beta1/constants).

/** Requests an operation on an object; the controller removes it once the operation has started. */
export const GardenerOperation = 'gardener.cloud/operation';
/** Bumped next to the operation annotation so that watchers see an update even if the value did not change. */
export const GardenerTimestamp = 'gardener.cloud/timestamp';
export const GardenerDescription = 'gardener.cloud/description';
export const GardenerCreatedBy = 'gardener.cloud/created-by';
/** Must be "true" before a Project, Shoot, ShootState or other protected object may be deleted. */
export const ConfirmationDeletion = 'confirmation.gardener.cloud/deletion';
/** Tasks the gardenlet should run during the next reconciliation, comma separated. */
export const ShootTasks = 'shoot.gardener.cloud/tasks';
export const ShootNoCleanup = 'shoot.gardener.cloud/no-cleanup';
export const ShootIgnoreAlerts = 'shoot.gardener.cloud/ignore-alerts';
export const ShootSkipReadiness = 'shoot.gardener.cloud/skip-readiness';
export const ShootUID = 'shoot.gardener.cloud/uid';
export const ShootCloudConfigExecutionMaxDelaySeconds = 'shoot.gardener.cloud/cloud-config-execution-max-delay-seconds';
export const ShootInfrastructureCleanupWaitPeriodSeconds =
  'shoot.gardener.cloud/infrastructure-cleanup-wait-period-seconds';
/** "managed" lets Gardener manage the service account issuer of a Shoot. */
export const AuthenticationIssuer = 'authentication.gardener.cloud/issuer';
/** Operation the maintenance controller should run in the next maintenance time window. */
export const MaintenanceOperation = 'maintenance.gardener.cloud/operation';
/** Pod security level of the namespace an extension is installed into. */
export const PodSecurityEnforce = 'security.gardener.cloud/pod-security-enforce';
/** Objects carrying this annotation are not reconciled by the gardener-resource-manager. */
export const ResourcesIgnore = 'resources.gardener.cloud/ignore';
export const ResourcesMode = 'resources.gardener.cloud/mode';
export const ResourcesOrigin = 'resources.gardener.cloud/origin';
export const ResourcesKeepObject = 'resources.gardener.cloud/keep-object';
export const ResourcesDeleteOnInvalidUpdate = 'resources.gardener.cloud/delete-on-invalid-update';
export const ResourcesSkipHealthCheck = 'resources.gardener.cloud/skip-health-check';
export const ResourcesPreserveReplicas = 'resources.gardener.cloud/preserve-replicas';
export const ResourcesPreserveResources = 'resources.gardener.cloud/preserve-resources';
/** Annotations of the token-requestor controller of the gardener-resource-manager. */
export const ServiceAccountName = 'serviceaccount.resources.gardener.cloud/name';
export const ServiceAccountNamespace = 'serviceaccount.resources.gardener.cloud/namespace';
export const ServiceAccountTokenExpirationDuration =
  'serviceaccount.resources.gardener.cloud/token-expiration-duration';
export const ServiceAccountTokenRenewTimestamp = 'serviceaccount.resources.gardener.cloud/token-renew-timestamp';
export const TokenRequestorTargetSecretName = 'token-requestor.resources.gardener.cloud/target-secret-name';
export const TokenRequestorTargetSecretNamespace = 'token-requestor.resources.gardener.cloud/target-secret-namespace';
