// The gardenlet's well-known names and values (Gardener's v1beta1constants and gardenlet packages): namespaces, the
// TLS bootstrap identity, condition types and the PriorityClasses of a seed.

/** Namespace of the seed leases in the garden cluster (one Lease per seed, named like the seed). */
export const SEED_LEASE_NAMESPACE = 'gardener-system-seed-lease';
/** The seed's system namespace (seed cluster) and Gardener's namespace in the garden cluster. */
export const GARDEN_NAMESPACE = 'garden';

/** The user prefix of a gardenlet's client certificate: `gardener.cloud:system:seed:<seed-name>`. */
export const SEED_USER_PREFIX = 'gardener.cloud:system:seed:';
/** The group (certificate organisation) of every gardenlet. */
export const SEEDS_GROUP = 'gardener.cloud:system:seeds';
/** The signer of the gardenlet's client certificate. */
export const CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';
/** Name prefix of the CertificateSigningRequests a gardenlet creates. */
export const CSR_NAME_PREFIX = 'seed-csr-';
/** The key of the kubeconfig in the bootstrap and kubeconfig Secrets. */
export const KUBECONFIG_KEY = 'kubeconfig';
/** How long an unanswered CSR is waited for before a new one is created (Gardener: 15 minutes). */
export const CSR_APPROVAL_TIMEOUT_MS = 15 * 60_000;

/** Seed condition types the gardenlet maintains. */
export const SeedCondition = {
  GardenletReady: 'GardenletReady',
  Bootstrapped: 'Bootstrapped',
  SeedSystemComponentsHealthy: 'SeedSystemComponentsHealthy',
} as const;

/** The oldest Kubernetes version a seed cluster may run (Gardener's supported seed versions start at 1.30). */
export const SEED_MINIMUM_KUBERNETES_VERSION = '1.30';

/** Gardener's PriorityClasses for seed system components and shoot control planes (docs/development/priority-classes.md). */
export const SEED_PRIORITY_CLASSES: readonly { name: string; value: number; description: string }[] = [
  { name: 'gardener-system-critical', value: 999998950, description: 'gardenlet, gardener-resource-manager, istio' },
  { name: 'gardener-system-900', value: 999998900, description: 'Extensions' },
  {
    name: 'gardener-system-800',
    value: 999998800,
    description: 'dependency-watchdog, etcd-druid, vpa-admission-controller',
  },
  { name: 'gardener-system-700', value: 999998700, description: 'vpa-recommender, vpa-updater' },
  { name: 'gardener-system-600', value: 999998600, description: 'Seed observability components' },
  { name: 'gardener-system-500', value: 999998500, description: 'Shoot control plane: etcd, kube-apiserver' },
  { name: 'gardener-system-400', value: 999998400, description: 'Shoot control plane: gardener-resource-manager' },
  { name: 'gardener-system-300', value: 999998300, description: 'Shoot control plane: controllers' },
  { name: 'gardener-system-200', value: 999998200, description: 'Shoot control plane: add-on controllers' },
  { name: 'gardener-system-100', value: 999998100, description: 'Shoot control plane: observability' },
  { name: 'gardener-reserve-excess-capacity', value: -5, description: 'Pods reserving excess capacity' },
];

/** Field manager of the gardenlet's server-side applies. */
export const FIELD_MANAGER = 'gardenlet';
