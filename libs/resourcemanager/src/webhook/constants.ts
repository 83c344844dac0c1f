// Names of the resources.gardener.cloud API (Gardener's pkg/apis/resources/v1alpha1) that the webhooks read, and the
// paths the resource-manager serves them at (those of Gardener's resource-manager).
export const WebhookLabel = {
  HighAvailabilityConsider: 'high-availability-config.resources.gardener.cloud/consider',
  HighAvailabilitySkip: 'high-availability-config.resources.gardener.cloud/skip',
  HighAvailabilityType: 'high-availability-config.resources.gardener.cloud/type',
  ProjectedTokenSkip: 'projected-token-mount.resources.gardener.cloud/skip',
  KubernetesServiceHostInject: 'apiserver-proxy.networking.gardener.cloud/inject',
  SystemComponentsConfigSkip: 'system-components-config.resources.gardener.cloud/skip',
  PodTopologySpreadConstraintsSkip: 'topology-spread-constraints.resources.gardener.cloud/skip',
  EndpointSliceHintsConsider: 'endpoint-slice-hints.resources.gardener.cloud/consider',
  SeccompProfileSkip: 'seccompprofile.resources.gardener.cloud/skip',
  DeletionProtected: 'gardener.cloud/deletion-protected',
  PodTemplateHash: 'pod-template-hash',
} as const;

export const WebhookAnnotation = {
  HighAvailabilityFailureToleranceType: 'high-availability-config.resources.gardener.cloud/failure-tolerance-type',
  HighAvailabilityZones: 'high-availability-config.resources.gardener.cloud/zones',
  HighAvailabilityZonePinning: 'high-availability-config.resources.gardener.cloud/zone-pinning',
  HighAvailabilityReplicas: 'high-availability-config.resources.gardener.cloud/replicas',
  ProjectedTokenExpirationSeconds: 'projected-token-mount.resources.gardener.cloud/expiration-seconds',
  ProjectedTokenFileMode: 'projected-token-mount.resources.gardener.cloud/file-mode',
  ConfirmationDeletion: 'confirmation.gardener.cloud/deletion',
} as const;

export const WebhookPath = {
  HighAvailabilityConfig: '/webhooks/high-availability-config',
  KubernetesServiceHost: '/webhooks/kubernetes-service-host',
  ProjectedTokenMount: '/webhooks/mount-projected-service-account-token',
  PodTopologySpreadConstraints: '/webhooks/pod-topology-spread-constraints',
  SystemComponentsConfig: '/webhooks/system-components-config',
  EndpointSliceHints: '/webhooks/endpoint-slice-hints',
  CRDDeletionProtection: '/webhooks/validate-crd-deletion',
  PodSchedulerName: '/webhooks/default-pod-scheduler-name',
  SeccompProfile: '/webhooks/seccomp-profile',
} as const;

/** The extension validation webhook's path for a resource: `/validate-<group with dashes>-<version>-<kind lowercase>`. */
export function extensionValidationPath(group: string, version: string, kind: string): string {
  return `/validate-${group.replaceAll('.', '-')}-${version}-${kind.toLowerCase()}`;
}
