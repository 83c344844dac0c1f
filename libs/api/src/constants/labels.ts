// Well-known label keys and values.

export const GardenRole = 'gardener.cloud/role';
export const GardenRoleValue = {
  Project: 'project',
  Seed: 'seed',
  Shoot: 'shoot',
  Extension: 'extension',
  ControlPlane: 'controlplane',
  SystemComponent: 'system-component',
  Monitoring: 'monitoring',
  Logging: 'logging',
  OptionalAddon: 'optional-addon',
  Kubeconfig: 'kubeconfig',
  SSHKeyPair: 'ssh-keypair',
} as const;

export const GardenerPurpose = 'gardener.cloud/purpose';
export const DeletionProtected = 'gardener.cloud/deletion-protected';
export const ProjectName = 'project.gardener.cloud/name';
/** Health summary of a Shoot: healthy, progressing, unhealthy or unknown. */
export const ShootStatus = 'shoot.gardener.cloud/status';
export const ShootStatusValue = {
  Healthy: 'healthy',
  Progressing: 'progressing',
  Unhealthy: 'unhealthy',
  Unknown: 'unknown',
} as const;
export const ShootPurpose = 'shoot.gardener.cloud/purpose';
export const BackupProvider = 'backup.gardener.cloud/provider';
export const SeedProvider = 'seed.gardener.cloud/provider';
export const ShootProvider = 'shoot.gardener.cloud/provider';
export const NetworkingProvider = 'networking.shoot.gardener.cloud/provider';
export const ExtensionConfiguration = 'extensions.gardener.cloud/configuration';
export const WorkerPool = 'worker.gardener.cloud/pool';
/** Objects a provider extension's control plane webhook mutates carry it (`"true"`); the webhook selects on it. */
export const ExtensionProviderMutatedByControlplaneWebhook =
  'provider.extensions.gardener.cloud/mutated-by-controlplane-webhook';
export const WorkerSystemComponents = 'worker.gardener.cloud/system-components';
export const CriticalComponent = 'node.gardener.cloud/critical-component';
export const ManagedBy = 'resources.gardener.cloud/managed-by';
export const ResourcesClass = 'resources.gardener.cloud/class';

export const NetworkPolicyToDNS = 'networking.gardener.cloud/to-dns';
export const NetworkPolicyToPublicNetworks = 'networking.gardener.cloud/to-public-networks';
export const NetworkPolicyToPrivateNetworks = 'networking.gardener.cloud/to-private-networks';
export const NetworkPolicyToBlockedCIDRs = 'networking.gardener.cloud/to-blocked-cidrs';
export const NetworkPolicyToRuntimeAPIServer = 'networking.gardener.cloud/to-runtime-apiserver';
export const NetworkPolicyAllowed = 'allowed';
export const NetworkPolicyDisallowed = 'disallowed';
