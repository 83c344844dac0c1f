// The ManagedSeed edges of the SeedAuthorizer's graph (Gardener's pkg/admissioncontroller/webhook/auth/seed/graph
// eventhandler_managedseed.go): Seed <ManagedSeed's name> → ManagedSeed → its Shoot → the Shoot's seed, so the parent
// gardenlet — the one whose seed hosts the ManagedSeed's Shoot — reaches the ManagedSeed, the child Seed (to delete
// it), the Secret of the seed template's backup, and, while the child gardenlet still has to bootstrap, its bootstrap
// token Secret `kube-system/bootstrap-token-<id>` or its bootstrap ServiceAccount `gardenlet-bootstrap-<name>` and
// that ServiceAccount's ClusterRoleBinding. As the graph's paths run on through the child Seed, everything bound to
// the child seed is reachable for the parent gardenlet too (`reachableSeeds`). Computed on demand through the
// listers, as the rest of the authorizer.
import { createHash } from 'node:crypto';
import type { KubeObject, Listers } from '../attributes.js';

const CORE = 'core.gardener.cloud/v1beta1';
const SEED_MANAGEMENT = 'seedmanagement.gardener.cloud/v1alpha1';

/** Kubernetes' namespace of bootstrap token Secrets and their name prefix. */
export const BOOTSTRAP_TOKEN_NAMESPACE = 'kube-system';
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
/** Gardener's name prefix of the ServiceAccounts gardenlets bootstrap with (`gardenlet-bootstrap-<managed seed>`). */
export const BOOTSTRAP_SERVICE_ACCOUNT_PREFIX = 'gardenlet-bootstrap-';
/** Gardener's name prefix of those ServiceAccounts' ClusterRoleBindings (`…:<namespace>:<service account>`). */
export const BOOTSTRAP_CLUSTER_ROLE_BINDING_PREFIX = 'gardener.cloud:system:seed-bootstrapper:';

/** Gardener's bootstrap token id of an object: the first 6 hex digits of SHA-256 over `<namespace>--<name>`. */
export function bootstrapTokenID(meta: { namespace?: string | undefined; name: string }): string {
  const value = meta.namespace ? `${meta.namespace}--${meta.name}` : meta.name;
  return createHash('sha256').update(value).digest('hex').slice(0, 6);
}

/** The bootstrap token Secret name of a ManagedSeed (`bootstrap-token-<id>`). */
export const bootstrapTokenSecretName = (meta: { namespace?: string | undefined; name: string }): string =>
  `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${bootstrapTokenID(meta)}`;

/** The ClusterRoleBinding of a bootstrap ServiceAccount. */
export const bootstrapClusterRoleBindingName = (namespace: string, serviceAccount: string): string =>
  `${BOOTSTRAP_CLUSTER_ROLE_BINDING_PREFIX}${namespace}:${serviceAccount}`;

/**
 * The ManagedSeed (namespace, name) a bootstrap ClusterRoleBinding name stands for (Gardener's
 * `ManagedSeedInfoFromClusterRoleBindingName`), undefined for other names.
 */
export function managedSeedOfClusterRoleBinding(name: string): { namespace: string; name: string } | undefined {
  if (!name.startsWith(BOOTSTRAP_CLUSTER_ROLE_BINDING_PREFIX)) return undefined;
  const [namespace, serviceAccount] = name.slice(BOOTSTRAP_CLUSTER_ROLE_BINDING_PREFIX.length).split(':');
  if (!namespace || !serviceAccount?.startsWith(BOOTSTRAP_SERVICE_ACCOUNT_PREFIX)) return undefined;
  return { namespace, name: serviceAccount.slice(BOOTSTRAP_SERVICE_ACCOUNT_PREFIX.length) };
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The credentials (kind and namespace/name) of the backup of the seed template in a gardenlet configuration (a
 * ManagedSeed's `spec.gardenlet.config` or a Gardenlet's `spec.config`): a Secret (`credentialsRef` of kind Secret, or
 * the older `secretRef`) or a WorkloadIdentity.
 */
export function backupCredentialsOf(config: unknown): { kind: 'Secret' | 'WorkloadIdentity'; key: string } | undefined {
  const backup = isObject(config) ? config['seedConfig']?.spec?.backup : undefined;
  if (!isObject(backup)) return undefined;
  const ref = isObject(backup['credentialsRef']) ? backup['credentialsRef'] : backup['secretRef'];
  if (!isObject(ref) || typeof ref['name'] !== 'string') return undefined;
  const key = `${ref['namespace'] ?? ''}/${ref['name']}`;
  if (ref['kind'] === undefined || ref['kind'] === 'Secret') return { kind: 'Secret', key };
  return ref['kind'] === 'WorkloadIdentity' ? { kind: 'WorkloadIdentity', key } : undefined;
}

/**
 * Whether the child gardenlet of `managedSeed` may (still) bootstrap (Gardener's graph and SeedRestriction): its
 * gardenlet has a configuration and a bootstrap mode, and its Seed is not registered yet, or its client certificate
 * expired, or the ManagedSeed asks for `renew-kubeconfig`.
 */
export async function mayBootstrap(listers: Listers, managedSeed: KubeObject, now: Date): Promise<boolean> {
  const gardenlet = managedSeed.spec?.gardenlet;
  if (!isObject(gardenlet?.config) || gardenlet.bootstrap === undefined || gardenlet.bootstrap === 'None') return false;
  const seed = await listers.get(CORE, 'Seed', managedSeed.metadata?.name ?? '');
  if (!seed) return true;
  const expiration = Date.parse(seed.status?.clientCertificateExpirationTimestamp ?? '');
  if (!Number.isNaN(expiration) && expiration < now.getTime()) return true;
  return managedSeed.metadata?.annotations?.['gardener.cloud/operation'] === 'renew-kubeconfig';
}

/** What the ManagedSeeds hosted on a seed make reachable for its gardenlet. */
export interface ManagedSeedEdges {
  /** The ManagedSeeds (namespace/name) whose Shoot is on the seed. */
  managedSeeds: Set<string>;
  /** Their Seeds (by name). */
  seeds: Set<string>;
  /** Secrets (namespace/name): the seed templates' backup Secrets and the bootstrap tokens still to be used. */
  secrets: Set<string>;
  /** WorkloadIdentities (namespace/name): the seed templates' backup credentials of that kind. */
  workloadIdentities: Set<string>;
  /** Bootstrap ServiceAccounts (namespace/name) still to be used. */
  serviceAccounts: Set<string>;
  /** Their ClusterRoleBindings (by name). */
  clusterRoleBindings: Set<string>;
}

/** Whether the Shoot `namespace/name` is on one of `seeds` (its `spec.seedName` or `status.seedName`: graph edges). */
async function shootOnSeeds(
  listers: Listers,
  seeds: ReadonlySet<string>,
  namespace: string | undefined,
  name: string | undefined,
): Promise<boolean> {
  if (!name) return false;
  const shoot = await listers.get(CORE, 'Shoot', name, namespace);
  return [shoot?.spec?.seedName, shoot?.status?.seedName].some((s) => typeof s === 'string' && seeds.has(s));
}

/**
 * The seeds whose objects `seed`'s gardenlet reaches in the graph: its own and, through Seed → ManagedSeed → Shoot →
 * Seed, the Seed of every ManagedSeed whose Shoot is on a reached seed (children, grandchildren, ...).
 */
export async function reachableSeeds(listers: Listers, seed: string): Promise<Set<string>> {
  const reached = new Set([seed]);
  const managedSeeds = await listers.list(SEED_MANAGEMENT, 'ManagedSeed');
  for (let grown = true; grown;) {
    grown = false;
    for (const managedSeed of managedSeeds) {
      const name = managedSeed.metadata?.name;
      if (!name || reached.has(name)) continue;
      if (await shootOnSeeds(listers, reached, managedSeed.metadata?.namespace, managedSeed.spec?.shoot?.name)) {
        reached.add(name);
        grown = true;
      }
    }
  }
  return reached;
}

/** The ManagedSeed edges that end at a gardenlet reaching `seeds` (see {@link reachableSeeds}). */
export async function managedSeedEdges(
  listers: Listers,
  seeds: ReadonlySet<string>,
  now: Date,
): Promise<ManagedSeedEdges> {
  const edges: ManagedSeedEdges = {
    managedSeeds: new Set(),
    seeds: new Set(),
    secrets: new Set(),
    workloadIdentities: new Set(),
    serviceAccounts: new Set(),
    clusterRoleBindings: new Set(),
  };
  for (const managedSeed of await listers.list(SEED_MANAGEMENT, 'ManagedSeed')) {
    const namespace = managedSeed.metadata?.namespace ?? '';
    const name = managedSeed.metadata?.name ?? '';
    if (!(await shootOnSeeds(listers, seeds, namespace, managedSeed.spec?.shoot?.name))) continue;
    edges.managedSeeds.add(`${namespace}/${name}`);
    edges.seeds.add(name);
    const backup = backupCredentialsOf(managedSeed.spec?.gardenlet?.config);
    if (backup) (backup.kind === 'Secret' ? edges.secrets : edges.workloadIdentities).add(backup.key);
    if (!(await mayBootstrap(listers, managedSeed, now))) continue;
    if (managedSeed.spec.gardenlet.bootstrap === 'ServiceAccount') {
      const serviceAccount = `${BOOTSTRAP_SERVICE_ACCOUNT_PREFIX}${name}`;
      edges.serviceAccounts.add(`${namespace}/${serviceAccount}`);
      edges.clusterRoleBindings.add(bootstrapClusterRoleBindingName(namespace, serviceAccount));
    } else {
      edges.secrets.add(`${BOOTSTRAP_TOKEN_NAMESPACE}/${bootstrapTokenSecretName({ namespace, name })}`);
    }
  }
  return edges;
}

/** What the Gardenlet objects (seedmanagement.gardener.cloud) of reached seeds make reachable. */
export interface GardenletEdges {
  /** The Gardenlets (namespace/name): a Gardenlet is connected to the Seed of its name. */
  gardenlets: Set<string>;
  /** Secrets (namespace/name): their seed templates' backup Secrets and bootstrap tokens to be used again. */
  secrets: Set<string>;
  /** WorkloadIdentities (namespace/name): their seed templates' backup credentials of that kind. */
  workloadIdentities: Set<string>;
}

/**
 * The Gardenlet edges of Gardener's graph (eventhandler_gardenlet.go) for `seeds`: Gardenlet `<ns>/<seed>` → Seed
 * `<seed>`, its seed template's backup credentials → Gardenlet, and its bootstrap token `kube-system/bootstrap-token-<id>`
 * → Gardenlet once the registered Seed's client certificate expired or the Gardenlet asks for `renew-kubeconfig`.
 */
export async function gardenletEdges(listers: Listers, seeds: ReadonlySet<string>, now: Date): Promise<GardenletEdges> {
  const edges: GardenletEdges = { gardenlets: new Set(), secrets: new Set(), workloadIdentities: new Set() };
  for (const gardenlet of await listers.list(SEED_MANAGEMENT, 'Gardenlet')) {
    const namespace = gardenlet.metadata?.namespace ?? '';
    const name = gardenlet.metadata?.name ?? '';
    if (!seeds.has(name)) continue;
    edges.gardenlets.add(`${namespace}/${name}`);
    const backup = backupCredentialsOf(gardenlet.spec?.config);
    if (backup) (backup.kind === 'Secret' ? edges.secrets : edges.workloadIdentities).add(backup.key);
    const seed = await listers.get(CORE, 'Seed', name);
    const expiration = Date.parse(seed?.status?.clientCertificateExpirationTimestamp ?? '');
    const expired = seed !== undefined && !Number.isNaN(expiration) && expiration < now.getTime();
    const renew = gardenlet.metadata?.annotations?.['gardener.cloud/operation'] === 'renew-kubeconfig';
    if (seed !== undefined && (expired || renew))
      edges.secrets.add(`${BOOTSTRAP_TOKEN_NAMESPACE}/${bootstrapTokenSecretName({ namespace, name })}`);
  }
  return edges;
}
