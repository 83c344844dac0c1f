// The shoot's control plane namespace in the seed (Gardener's botanist `DeployControlPlaneNamespace`): named after
// the shoot's technical ID, labelled with its role, seed/shoot/networking/backup provider types and the extension
// types it needs, annotated with the shoot's UID and its high-availability settings.
import { Annotations, Labels, type Shoot } from '@gardener-ts/api';
import type { V1Namespace } from '@kubernetes/client-node';
import type { ShootValues } from './values.js';

/** Label prefix marking an extension type the shoot needs (`extensions.gardener.cloud/<type>: "true"`). */
export const ExtensionLabelPrefix = 'extensions.gardener.cloud/';
/** Pod Security admission level label of a namespace. */
export const PodSecurityEnforceLabel = 'pod-security.kubernetes.io/enforce';
/** Tells gardener-resource-manager's high-availability webhook to consider the namespace. */
export const HighAvailabilityConsiderLabel = 'high-availability-config.resources.gardener.cloud/consider';
/** The failure tolerance type of the shoot's control plane (`""`, `node` or `zone`). */
export const FailureToleranceTypeAnnotation =
  'high-availability-config.resources.gardener.cloud/failure-tolerance-type';
/** The zones the control plane is pinned to. */
export const ZonesAnnotation = 'high-availability-config.resources.gardener.cloud/zones';

/**
 * The extension types (kind `Extension`) a shoot needs: the types of ControllerRegistrations that auto-enable
 * themselves for shoots, plus the shoot's own `spec.extensions`, minus the ones it disables.
 */
export function requiredExtensionTypes(shoot: Shoot, autoEnabledTypes: readonly string[] = []): string[] {
  const types = new Set(autoEnabledTypes);
  for (const extension of shoot.spec.extensions ?? []) {
    if (extension.disabled === true) types.delete(extension.type);
    else types.add(extension.type);
  }
  return [...types].sort();
}

/** Options of {@link renderControlPlaneNamespace}. */
export interface NamespaceOptions {
  /** Extension types auto-enabled for shoots by ControllerRegistrations (`autoEnable: [shoot]`). */
  readonly autoEnabledExtensionTypes?: readonly string[];
  /** Zones chosen for the control plane earlier (kept), else the first seed zone is taken. */
  readonly existingZones?: readonly string[];
}

/** The control plane namespace in the seed, with Gardener's labels and annotations. */
export function renderControlPlaneNamespace(values: ShootValues, options: NamespaceOptions = {}): V1Namespace {
  const { shoot, seed, namespace } = values;
  const labels: Record<string, string> = {
    [Labels.GardenRole]: Labels.GardenRoleValue.Shoot,
    [Labels.SeedProvider]: seed.spec.provider.type,
    [Labels.ShootProvider]: shoot.spec.provider.type,
    [Labels.BackupProvider]: seed.spec.backup?.provider ?? seed.spec.provider.type,
    [PodSecurityEnforceLabel]: 'privileged',
    [HighAvailabilityConsiderLabel]: 'true',
  };
  if (shoot.spec.networking?.type) labels[Labels.NetworkingProvider] = shoot.spec.networking.type;
  for (const type of requiredExtensionTypes(shoot, options.autoEnabledExtensionTypes)) {
    labels[ExtensionLabelPrefix + type] = 'true';
  }
  const failureTolerance = shoot.spec.controlPlane?.highAvailability?.failureTolerance.type ?? '';
  const annotations: Record<string, string> = {
    [Annotations.ShootUID]: shoot.status?.uid || shoot.metadata?.uid || '',
    [FailureToleranceTypeAnnotation]: failureTolerance,
  };
  const zones = options.existingZones?.length
    ? [...options.existingZones]
    : pickZones(seed.spec.provider.zones ?? [], failureTolerance === 'zone' ? 3 : 1);
  if (zones.length > 0) annotations[ZonesAnnotation] = zones.join(',');
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels, annotations } };
}

// Gardener picks random seed zones; a stable choice (the first ones, sorted) keeps re-renders identical.
function pickZones(seedZones: readonly string[], count: number): string[] {
  return [...seedZones].sort().slice(0, count);
}
