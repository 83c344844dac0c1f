export { defaultShoot, maintenanceWindowFor } from './shoot.js';
export { defaultSeed } from './seed.js';
export { defaultCloudProfile, defaultNamespacedCloudProfile } from './cloudprofile.js';
export { defaultControllerRegistration } from './controller.js';
export {
  defaultProject,
  defaultSecretBinding,
  normalizeProjectMembers,
  projectMemberRoles,
  ProjectMemberOwnerRole,
} from './project.js';
export { defaultManagedSeed } from './managedseed.js';
export { defaultOpenIDConnectPreset, defaultClusterOpenIDConnectPreset } from './settings.js';
export { applyCloudProfileDefaults, resolveKubernetesVersion } from './shoot-cloudprofile.js';
