// What every shoot component renders from: the Shoot, its Seed and CloudProfile and the control plane namespace
// in the seed, plus the values Gardener's botanist derives from them (technical ID, networks, domains, Kubernetes
// version). Pure: no cluster access.
import { IPNet, formatIPAddress, type CloudProfile, type Seed, type Shoot } from '@gardener-ts/api';

/** The inputs of the shoot component renderers. */
export interface ShootValues {
  readonly shoot: Shoot;
  readonly seed: Seed;
  readonly cloudProfile: CloudProfile;
  /** The control plane namespace in the seed, `shoot--<project>--<name>` (see {@link shootNamespaceName}). */
  readonly namespace: string;
}

/** Gardener's default shoot pod network when neither the Shoot nor the Seed's `shootDefaults` set one. */
export const DefaultPodNetwork = '100.96.0.0/11';
/** Gardener's default shoot service network when neither the Shoot nor the Seed's `shootDefaults` set one. */
export const DefaultServiceNetwork = '100.64.0.0/13';

/**
 * The project name of a project namespace, as Gardener names them: `garden` for the `garden` namespace, else the
 * namespace without its `garden-` prefix (a Project's default namespace is `garden-<project>`).
 */
export function projectNameOfNamespace(namespace: string): string {
  if (namespace === 'garden') return 'garden';
  return namespace.startsWith('garden-') ? namespace.slice('garden-'.length) : namespace;
}

/** The shoot's technical ID and control plane namespace in the seed: `shoot--<project>--<name>`. */
export function shootNamespaceName(projectName: string, shootName: string): string {
  return `shoot--${projectName}--${shootName}`;
}

/** The control plane namespace of a Shoot as Gardener computes it: `status.technicalID` if set, else from its names. */
export function controlPlaneNamespaceOf(shoot: Shoot): string {
  const technicalID = shoot.status?.technicalID;
  if (technicalID) return technicalID;
  return shootNamespaceName(projectNameOfNamespace(shoot.metadata?.namespace ?? ''), shoot.metadata?.name ?? '');
}

/** The shoot's Kubernetes version without a leading `v` (`1.33.0`); throws when the Shoot has none. */
export function kubernetesVersion(values: Pick<ShootValues, 'shoot'>): string {
  const version = values.shoot.spec.kubernetes.version;
  if (!version) throw new Error(`shoot ${shootName(values.shoot)} has no spec.kubernetes.version`);
  return version.replace(/^v/, '');
}

/** `<namespace>/<name>` of a Shoot, for messages. */
export function shootName(shoot: Shoot): string {
  return `${shoot.metadata?.namespace ?? ''}/${shoot.metadata?.name ?? ''}`;
}

/** True when the Shoot has no worker pools (Gardener's workerless shoots). */
export function isWorkerless(shoot: Shoot): boolean {
  return (shoot.spec.provider.workers ?? []).length === 0;
}

/** True when the Shoot asks to be hibernated (`spec.hibernation.enabled`). */
export function hibernationEnabled(shoot: Shoot): boolean {
  return shoot.spec.hibernation?.enabled === true;
}

/** The shoot's pod, service and node networks, defaulted from the Seed's `shootDefaults` and Gardener's defaults. */
export function shootNetworks(values: Pick<ShootValues, 'shoot' | 'seed'>): {
  pods: string;
  services: string;
  nodes?: string;
} {
  const networking = values.shoot.spec.networking;
  const defaults = values.seed.spec.networks.shootDefaults;
  return {
    pods: networking?.pods ?? defaults?.pods ?? DefaultPodNetwork,
    services: networking?.services ?? defaults?.services ?? DefaultServiceNetwork,
    ...(networking?.nodes ? { nodes: networking.nodes } : {}),
  };
}

/** The in-cluster IP of the `kubernetes` Service: the first host address of the service network (e.g. `100.64.0.1`). */
export function kubernetesServiceIP(serviceCIDR: string): string {
  const net = IPNet.parse(serviceCIDR);
  return formatIPAddress({ family: net.family, bits: net.bits, value: net.network + 1n });
}

/**
 * The cluster domain Gardener uses for the internal DNS record: `<shoot>.<project>.<seed internal domain>`, or
 * undefined when the seed has no internal domain.
 */
export function internalClusterDomain(values: Pick<ShootValues, 'shoot' | 'seed'>): string | undefined {
  const internal = values.seed.spec.dns.internal?.domain;
  if (!internal) return undefined;
  const project = projectNameOfNamespace(values.shoot.metadata?.namespace ?? '');
  return `${values.shoot.metadata?.name}.${project}.${internal}`;
}

/** The shoot's external domain (`spec.dns.domain`), if any. */
export function externalClusterDomain(values: Pick<ShootValues, 'shoot'>): string | undefined {
  return values.shoot.spec.dns?.domain;
}

/** The API server host names Gardener puts into the server certificate and advertised addresses. */
export function apiServerDomains(values: Pick<ShootValues, 'shoot' | 'seed'>): {
  internal?: string;
  external?: string;
} {
  const internal = internalClusterDomain(values);
  const external = externalClusterDomain(values);
  return {
    ...(internal ? { internal: `api.${internal}` } : {}),
    ...(external ? { external: `api.${external}` } : {}),
  };
}
