// What the seed main reconciler deploys into the seed cluster and writes into the Seed's status, as pure functions:
// the seed namespaces, Gardener's PriorityClasses, the selection of the seed CRDs, the values of the seed's own
// gardener-resource-manager, the Kubernetes version check and the status fields.
import {
  getOrInitCondition,
  mergeConditions,
  updatedCondition,
  type Condition,
  type KubernetesObject,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import {
  GARDEN_NAMESPACE,
  SeedCondition,
  SEED_MINIMUM_KUBERNETES_VERSION,
  SEED_PRIORITY_CLASSES,
} from '../../constants.js';

/** API groups whose CRDs a seed cluster needs (extensions, ManagedResources, machines, etcd-druid's Etcd). */
export const SEED_CRD_GROUPS: readonly string[] = [
  'extensions.gardener.cloud',
  'resources.gardener.cloud',
  'machine.sapcloud.io',
  'druid.gardener.cloud',
];

/** The namespaces of a seed's system components. */
export function seedNamespaces(): KubernetesObject[] {
  return [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: GARDEN_NAMESPACE } }];
}

/** Gardener's PriorityClasses for seed system components and shoot control planes. */
export function priorityClasses(): KubernetesObject[] {
  return SEED_PRIORITY_CLASSES.map((pc) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: pc.name },
    value: pc.value,
    globalDefault: false,
    description: `Used for ${pc.description}`,
  }));
}

/** The CRDs among `objects` that belong on a seed. */
export function seedCRDs(objects: readonly KubernetesObject[]): KubernetesObject[] {
  return objects.filter(
    (o) =>
      o.kind === 'CustomResourceDefinition' &&
      SEED_CRD_GROUPS.includes(String((o as { spec?: { group?: string } }).spec?.group)),
  );
}

/** Helm values of the seed's gardener-resource-manager: source and target are the seed, ManagedResources of class `seed`. */
export function resourceManagerValues(image?: { repository?: string; tag?: string }): Record<string, unknown> {
  return {
    fullnameOverride: 'gardener-resource-manager',
    ...(image ? { image } : {}),
    config: {
      apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
      kind: 'ResourceManagerConfiguration',
      leaderElection: {
        leaderElect: true,
        resourceLock: 'leases',
        resourceName: 'gardener-resource-manager',
        resourceNamespace: GARDEN_NAMESPACE,
      },
      logLevel: 'info',
      logFormat: 'json',
      server: {
        webhooks: { port: 9449, tls: { serverCertDir: '/etc/gardener-resource-manager/tls' } },
        healthProbes: { port: 8081 },
        metrics: { port: 8080 },
      },
      controllers: {
        resourceClass: 'seed',
        garbageCollector: { enabled: true, syncPeriod: '1h' },
        health: { concurrentSyncs: 5, syncPeriod: '1m' },
        managedResource: { concurrentSyncs: 5, syncPeriod: '1m' },
      },
    },
  };
}

/** `[major, minor]` of a Kubernetes version (`v1.35.0-gardener-ts`, `1.30`); undefined if it is none. */
export function parseMinorVersion(version: string): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Throws when the seed's Kubernetes version is older than `minimum` (Gardener's minimum seed version check). */
export function checkMinimumKubernetesVersion(gitVersion: string, minimum = SEED_MINIMUM_KUBERNETES_VERSION): void {
  const have = parseMinorVersion(gitVersion);
  const need = parseMinorVersion(minimum)!;
  if (!have) throw new Error(`cannot parse the seed cluster's Kubernetes version ${JSON.stringify(gitVersion)}`);
  if (have[0] < need[0] || (have[0] === need[0] && have[1] < need[1])) {
    throw new Error(`the Kubernetes version of the Seed cluster must be at least ${minimum}, but it is ${gitVersion}`);
  }
}

/** The Seed's conditions with `Bootstrapped` set. */
export function bootstrappedConditions(
  conditions: readonly Condition[] | undefined,
  status: 'True' | 'False' | 'Progressing',
  message: string,
  clock: WallClock,
): Condition[] {
  const reason = { True: 'BootstrappingSucceeded', False: 'BootstrappingFailed', Progressing: 'BootstrapProgressing' }[
    status
  ];
  const current = getOrInitCondition(conditions, SeedCondition.Bootstrapped, clock);
  return mergeConditions(conditions, updatedCondition(current, status, reason, message, { clock }));
}

/** True when the flow has to announce Progressing first: never bootstrapped, failed, a new generation or a new gardenlet version. */
export function needsProgressing(
  seed: {
    metadata?: { generation?: number };
    status?: { conditions?: readonly Condition[]; observedGeneration?: number; gardener?: { version?: string } };
  },
  version: string,
): boolean {
  const bootstrapped = seed.status?.conditions?.find((c) => c.type === SeedCondition.Bootstrapped);
  return (
    bootstrapped?.status !== 'True' ||
    seed.status?.observedGeneration !== seed.metadata?.generation ||
    seed.status?.gardener?.version !== version
  );
}

/** `status.capacity` and `status.allocatable` (capacity minus reserved, not below 0) from `resources` of the configuration. */
export function capacityStatus(
  resources: { capacity?: Record<string, number | string>; reserved?: Record<string, number | string> } | undefined,
): { capacity: Record<string, string>; allocatable: Record<string, string> } | undefined {
  const capacity = resources?.capacity;
  if (!capacity || Object.keys(capacity).length === 0) return undefined;
  const allocatable: Record<string, string> = {};
  const cap: Record<string, string> = {};
  for (const [name, value] of Object.entries(capacity)) {
    cap[name] = String(value);
    const reserved = resources?.reserved?.[name];
    const total = Number(value);
    const minus = reserved === undefined ? 0 : Number(reserved);
    // Integer quantities (shoots) are subtracted; other quantities are passed through as capacity.
    allocatable[name] =
      Number.isFinite(total) && Number.isFinite(minus) ? String(Math.max(0, total - minus)) : String(value);
  }
  return { capacity: cap, allocatable };
}
