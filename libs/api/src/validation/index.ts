export * from './field.js';
export { validateShoot } from './shoot/index.js';
export {
  RotationOperations,
  isRolloutWorkersOperation,
  rolloutWorkersPools,
  rotationOperationErrors,
  rotationPhase,
  shootInHibernation,
  shootReadyForRotationStart,
  validateShootRotationOperation,
  type PhasedCredentialKind,
  type ShootRotationPhase,
} from './shoot/rotation.js';
export { validateSeed } from './seed.js';
export { validateCloudProfile, validateNamespacedCloudProfile } from './cloudprofile.js';
export {
  validateProject,
  validateQuota,
  validateSecretBinding,
  validateCredentialsBinding,
  validateExposureClass,
} from './project.js';
export {
  validateControllerRegistration,
  validateControllerDeployment,
  validateControllerInstallation,
  ExtensionKinds,
} from './controller.js';
export { validateBackupBucket, validateBackupEntry } from './backup.js';
export { validateManagedSeed } from './managedseed.js';
export { validateManagedSeedSet, validateManagedSeedSetStatusUpdate } from './managedseedset.js';
export { validateGardenlet } from './gardenlet.js';
export { validateBastion, validateBastionStatusUpdate, isAuthorizedKey } from './bastion.js';
export {
  validateOpenIDConnectPreset,
  validateClusterOpenIDConnectPreset,
  validateOpenIDConnectPresetSpec,
  isPEMCertificate,
} from './settings.js';
export {
  validateLabelSelector,
  hasInvalidLabelValueInSelector,
  type LabelSelectorValidationOptions,
} from './label-selector.js';
export { validateObject, defaultObject, hasValidation } from './registry.js';
export { cronError, validTimeZone } from './cron.js';
export { parseCIDR, cidrsOverlap, formatCIDR, parseIP } from './net.js';
export { parseDuration, parseQuantity, parseVersion, compareVersions } from './formats.js';
export {
  isDNS1123Label,
  isDNS1123Subdomain,
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  dns1035LabelErrors,
  maxLenError,
  regexError,
  qualifiedNameErrors,
  validateObjectMeta,
  validateLabels,
  validateAnnotations,
} from './names.js';
