// SeedAuthorizer (gardener-admission-controller pkg/admissioncontroller/webhook/auth/seed): a gardenlet — user
// `gardener.cloud:system:seed:<name>` in group `gardener.cloud:system:seeds` — may touch only what belongs to its
// seed: the Seed itself and its Lease, the Shoots, BackupBuckets, BackupEntries, Bastions, ControllerInstallations
// and ManagedSeeds bound to it (BackupEntries also through their Shoot, BackupBuckets also through the BackupEntries
// using them), the Secrets those refer to (and `garden/generated-bucket-<bucket>` of its buckets, its Shoots' managed
// issuer Secrets `gardener-system-shoot-issuer/<project>--<shoot UID>`) and the Secrets of its seed namespace; it may read BackupBuckets and BackupEntries by name, the
// garden-wide configuration (CloudProfiles, ControllerRegistrations, ...) and list/watch the kinds it caches.
// Everything else gets no opinion, so the API server's chain ends in 403. Gardener walks a dependency graph kept up
// to date by informers; this walks the same edges on demand through the listers (graph.ts, managed-seeds.ts). Each
// resource has Gardener's rule (RULES): verbs allowed always (creations are checked by SeedRestriction), verbs allowed
// along a path from the named object to the seed, and the allowed subresources; CSRs, ConfigMaps, Leases, Gardenlets
// and WorkloadIdentities (`token`) included.
// Extensions of a seed authenticate to the garden as ServiceAccounts `extension-*` of the `seed-<name>` namespace
// (pkg/admissioncontroller/seedidentity): they belong to that seed with user type `extension` and get the gardenlet's
// rights, except that Leases are theirs only in `seed-<name>` and ServiceAccounts only through the graph (read).
// ManagedSeeds (managed-seeds.ts) connect a parent gardenlet — the one whose seed hosts a ManagedSeed's Shoot — to the
// ManagedSeed, the child Seed and the child gardenlet's bootstrap objects; since the graph's paths run on through the
// child Seed, what is bound to a child seed is the parent's too (the "seeds" of a gardenlet below are all it reaches).
import type { KubeObject, Listers } from '../attributes.js';
import {
  BOOTSTRAP_SERVICE_ACCOUNT_PREFIX,
  BOOTSTRAP_TOKEN_NAMESPACE,
  bootstrapClusterRoleBindingName,
  bootstrapTokenSecretName,
  gardenletEdges,
  managedSeedEdges,
  reachableSeeds,
  type ManagedSeedEdges,
} from './managed-seeds.js';
import {
  backupBucketsOf,
  backupEntryReaches,
  CLUSTER_IDENTITY,
  configMapsOf,
  isSeedClientCSRFor,
  managedIssuerSecretOfShoot,
  SEED_LEASE_NAMESPACE,
  seedResourceSecrets,
  shootConfigurationSecrets,
  shootOfProjectResource,
  SHOOT_PROJECT_INTERNAL_SECRET_SUFFIXES,
  SHOOT_PROJECT_SECRET_SUFFIXES,
  workloadIdentitiesOf,
} from './graph.js';

export const SEEDS_GROUP = 'gardener.cloud:system:seeds';
export const SEED_USER_PREFIX = 'gardener.cloud:system:seed:';

/** The resource attributes of a SubjectAccessReview. */
export interface ResourceAttributes {
  namespace?: string;
  verb: string;
  group?: string;
  version?: string;
  resource: string;
  subresource?: string;
  name?: string;
}

export type AuthorizationDecision = { decision: 'allow' | 'no-opinion'; reason: string };

/** Kubernetes' group of all ServiceAccounts and the prefixes of a ServiceAccount's user and namespace group. */
const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';
const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
/** Gardener's name prefix of the ServiceAccounts extensions use in the garden (`v1beta1constants`). */
export const EXTENSION_GARDEN_SERVICE_ACCOUNT_PREFIX = 'extension-';
const SEED_NAMESPACE_PREFIX = 'seed-';

/** Who on a seed a client is: the gardenlet or one of the seed's extensions. */
export type SeedUserType = 'gardenlet' | 'extension';

/** The identity of a seed client: the seed it belongs to and its user type. */
export interface SeedIdentity {
  seed: string;
  userType: SeedUserType;
}

/**
 * The seed a user belongs to (Gardener's `seedidentity.FromUserInfoInterface`): `gardener.cloud:system:seed:<name>` in
 * `gardener.cloud:system:seeds` is the gardenlet of `<name>`; `system:serviceaccount:seed-<name>:extension-*` (in
 * `system:serviceaccounts` and `system:serviceaccounts:seed-<name>`) is an extension of `<name>`. Anyone else:
 * undefined.
 */
export function seedIdentityOfUser(user: string | undefined, groups: readonly string[] = []): SeedIdentity | undefined {
  if (groups.includes(SEEDS_GROUP)) {
    if (!user?.startsWith(SEED_USER_PREFIX)) return undefined;
    const name = user.slice(SEED_USER_PREFIX.length);
    return name === '' ? undefined : { seed: name, userType: 'gardenlet' };
  }
  if (!groups.includes(ALL_SERVICE_ACCOUNTS_GROUP)) return undefined;
  const namespace = groups
    .find((g) => g.startsWith(SERVICE_ACCOUNT_GROUP_PREFIX))
    ?.slice(SERVICE_ACCOUNT_GROUP_PREFIX.length);
  if (!namespace?.startsWith(SEED_NAMESPACE_PREFIX)) return undefined;
  const seed = namespace.slice(SEED_NAMESPACE_PREFIX.length);
  const userPrefix = `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:`;
  if (seed === '' || !user?.startsWith(userPrefix)) return undefined;
  return user.slice(userPrefix.length).startsWith(EXTENSION_GARDEN_SERVICE_ACCOUNT_PREFIX)
    ? { seed, userType: 'extension' }
    : undefined;
}

/** The seed a user belongs to (its gardenlet or one of its extensions), or undefined for anyone else. */
export function seedOfUser(user: string | undefined, groups: readonly string[] = []): string | undefined {
  return seedIdentityOfUser(user, groups)?.seed;
}

const READ = ['get', 'list', 'watch'];
const CORE = 'core.gardener.cloud';

/** Resources every gardenlet may read (garden-wide configuration). */
const READABLE: Record<string, string[]> = {
  [CORE]: [
    'cloudprofiles',
    'namespacedcloudprofiles',
    'controllerregistrations',
    'controllerdeployments',
    'exposureclasses',
    'projects',
    'quotas',
    'secretbindings',
  ],
  'security.gardener.cloud': ['credentialsbindings', 'workloadidentities'],
  '': ['namespaces', 'configmaps'],
};

/** Kinds bound to a seed: how to find the seed an object is bound to. */
const BOUND: Record<string, { apiVersion: string; kind: string; seedOf: (o: KubeObject) => (string | undefined)[] }> = {
  shoots: { apiVersion: `${CORE}/v1beta1`, kind: 'Shoot', seedOf: (o) => [o.spec?.seedName, o.status?.seedName] },
  backupbuckets: {
    apiVersion: `${CORE}/v1beta1`,
    kind: 'BackupBucket',
    seedOf: (o) => [o.spec?.seedName, o.status?.seedName],
  },
  backupentries: {
    apiVersion: `${CORE}/v1beta1`,
    kind: 'BackupEntry',
    seedOf: (o) => [o.spec?.seedName, o.status?.seedName],
  },
  controllerinstallations: {
    apiVersion: `${CORE}/v1beta1`,
    kind: 'ControllerInstallation',
    seedOf: (o) => [o.spec?.seedRef?.name],
  },
  bastions: { apiVersion: 'operations.gardener.cloud/v1alpha1', kind: 'Bastion', seedOf: (o) => [o.spec?.seedName] },
  shootstates: { apiVersion: `${CORE}/v1beta1`, kind: 'ShootState', seedOf: () => [] },
};

const allow = (reason: string): AuthorizationDecision => ({ decision: 'allow', reason });
const noOpinion = (reason: string): AuthorizationDecision => ({ decision: 'no-opinion', reason });

/** The namespace in the garden holding the secrets synced for a seed. */
export const seedNamespace = (seed: string) => `seed-${seed}`;

/** Whether an object bound by `seedOf` is bound to one of `seeds`. */
const boundTo = (seedNames: (string | undefined)[], seeds: ReadonlySet<string>) =>
  seedNames.some((s) => s !== undefined && seeds.has(s));

/** Whether a Shoot (by namespace/name) is bound to one of `seeds`. */
async function shootOnSeed(
  listers: Listers,
  seeds: ReadonlySet<string>,
  namespace: string | undefined,
  name: string,
): Promise<boolean> {
  const shoot = await listers.get(`${CORE}/v1beta1`, 'Shoot', name, namespace);
  return Boolean(shoot && boundTo(BOUND.shoots!.seedOf(shoot), seeds));
}

const secretKey = (ref: { name?: string; namespace?: string } | undefined, fallbackNamespace?: string) =>
  ref?.name ? `${ref.namespace ?? fallbackNamespace ?? ''}/${ref.name}` : undefined;

/**
 * The Secrets (namespace/name) the objects bound to `seed` refer to; with `seeds`, those bound to any of them (the
 * seeds a gardenlet reaches).
 */
export async function secretsOfSeed(
  listers: Listers,
  seed: string,
  seeds: ReadonlySet<string> = new Set([seed]),
): Promise<Set<string>> {
  const keys = new Set<string>();
  const add = (key: string | undefined) => key && keys.add(key);
  for (const name of seeds) await addSeedSecrets(listers, name, add);
  const buckets = await backupBucketsOf(listers, seeds);
  for (const bucket of await listers.list(`${CORE}/v1beta1`, 'BackupBucket')) {
    if (!buckets.has(bucket.metadata?.name ?? '')) continue;
    add(secretKey(bucket.spec?.credentialsRef));
    add(secretKey(bucket.spec?.secretRef));
    add(secretKey(bucket.status?.generatedSecretRef));
  }
  for (const shoot of await listers.list(`${CORE}/v1beta1`, 'Shoot')) {
    if (!boundTo(BOUND.shoots!.seedOf(shoot), seeds)) continue;
    await addShootSecrets(listers, shoot, add);
  }
  return keys;
}

/** The Secrets a Seed refers to: its backup and DNS credentials and its `spec.resources` Secrets. */
async function addSeedSecrets(listers: Listers, seed: string, add: (key: string | undefined) => unknown) {
  const seedObject = await listers.get(`${CORE}/v1beta1`, 'Seed', seed);
  const backupRef = seedObject?.spec?.backup?.credentialsRef;
  if (backupRef?.kind === undefined || backupRef.kind === 'Secret') add(secretKey(backupRef));
  add(secretKey(seedObject?.spec?.backup?.secretRef));
  for (const k of seedResourceSecrets(seedObject)) add(k);
  add(secretKey(seedObject?.spec?.dns?.provider?.secretRef));
  // The DNS credentials of the seed's provider, internal domain and default domains (Secrets, not WorkloadIdentities).
  const dns = seedObject?.spec?.dns;
  for (const ref of [
    dns?.provider?.credentialsRef,
    dns?.internal?.credentialsRef,
    ...(dns?.defaults ?? []).map((d: { credentialsRef?: unknown }) => d?.credentialsRef),
  ]) {
    const credentials = ref as { kind?: string; name?: string; namespace?: string } | undefined;
    if (credentials?.kind === 'Secret') add(secretKey(credentials));
  }
}

/**
 * The Secrets a Shoot refers to: its binding's credentials, its `spec.resources` Secrets, its DNS providers' and
 * structured authorization kubeconfigs' Secrets.
 */
async function addShootSecrets(listers: Listers, shoot: KubeObject, add: (key: string | undefined) => unknown) {
  const ns = shoot.metadata?.namespace;
  if (shoot.spec?.credentialsBindingName) {
    const binding = await listers.get(
      'security.gardener.cloud/v1alpha1',
      'CredentialsBinding',
      shoot.spec.credentialsBindingName,
      ns,
    );
    if (binding?.credentialsRef?.kind === 'Secret') add(secretKey(binding.credentialsRef, ns));
  }
  if (shoot.spec?.secretBindingName) {
    const binding = await listers.get(`${CORE}/v1beta1`, 'SecretBinding', shoot.spec.secretBindingName, ns);
    add(secretKey(binding?.secretRef, ns));
  }
  for (const resource of shoot.spec?.resources ?? []) {
    if (resource.resourceRef?.kind === 'Secret') add(`${ns}/${resource.resourceRef.name}`);
  }
  for (const k of shootConfigurationSecrets(shoot)) add(k);
  add(await managedIssuerSecretOfShoot(listers, shoot));
}

/** An InternalSecret `<shoot>.<suffix>` (Gardener's internal suffixes) of a Shoot on one of `seeds`. */
async function isShootInternalSecret(
  listers: Listers,
  seeds: ReadonlySet<string>,
  namespace: string | undefined,
  name: string,
): Promise<boolean> {
  const shootName = shootOfProjectResource(name, SHOOT_PROJECT_INTERNAL_SECRET_SUFFIXES);
  return shootName !== undefined && (await shootOnSeed(listers, seeds, namespace, shootName));
}

/** A Secret `<shoot>.<suffix>` (kubeconfig, ca-cluster, ssh-keypair, ...) a gardenlet writes for a Shoot on `seeds`. */
async function isShootSecret(
  listers: Listers,
  seeds: ReadonlySet<string>,
  namespace: string | undefined,
  name: string,
): Promise<boolean> {
  const shootName = shootOfProjectResource(name, SHOOT_PROJECT_SECRET_SUFFIXES);
  return shootName !== undefined && (await shootOnSeed(listers, seeds, namespace, shootName));
}

/** Gardener's prefix of the Secrets a gardenlet copies from its BackupBuckets' extensions into the garden. */
export const GENERATED_BUCKET_SECRET_PREFIX = 'generated-bucket-';

/**
 * `garden/generated-bucket-<bucket>` of a BackupBucket bound to `seed` (Gardener's SeedRestriction admits its creation
 * by the bucket's name; the graph then reaches it through the bucket's status.generatedSecretRef).
 */
async function isGeneratedBucketSecret(
  listers: Listers,
  seeds: ReadonlySet<string>,
  namespace: string | undefined,
  name: string,
): Promise<boolean> {
  if (namespace !== 'garden' || !name.startsWith(GENERATED_BUCKET_SECRET_PREFIX)) return false;
  const bucketName = name.slice(GENERATED_BUCKET_SECRET_PREFIX.length);
  return bucketName !== '' && (await backupBucketsOf(listers, seeds)).has(bucketName);
}

/** Gardener's reason when the graph has no path from the object to the seed. */
export const noRelationship = (seed: string) => `no relationship found between seed '${seed}' and this object`;

/**
 * Gardener's per-resource rule (`authorize`): `subresources` are the only subresources allowed; `always` verbs are
 * allowed without looking at the object (create: the object does not exist yet, SeedRestriction checks it;
 * list/watch: the kinds gardenlets cache); `byPath` verbs need a path from the named object to the seed.
 */
interface Rule {
  byPath: readonly string[];
  always: readonly string[];
  subresources: readonly string[];
}

/** The rules of the graph's kinds, by `<resource>.<group>` (Gardener's authorizer.go). */
const RULES: Record<string, Rule> = {
  [`backupbuckets.${CORE}`]: {
    byPath: ['update', 'patch', 'delete'],
    always: ['create', 'get', 'list', 'watch'],
    subresources: ['status'],
  },
  [`backupentries.${CORE}`]: {
    byPath: ['update', 'patch', 'delete'],
    always: ['create', 'get', 'list', 'watch'],
    subresources: ['status'],
  },
  'bastions.operations.gardener.cloud': {
    byPath: ['update', 'patch'],
    always: ['create', 'get', 'list', 'watch'],
    subresources: ['status'],
  },
  [`controllerinstallations.${CORE}`]: {
    byPath: ['update', 'patch'],
    always: ['get', 'list', 'watch'],
    subresources: ['status'],
  },
  [`shoots.${CORE}`]: { byPath: ['update', 'patch'], always: ['get', 'list', 'watch'], subresources: ['status'] },
  [`shootstates.${CORE}`]: {
    byPath: ['get', 'update', 'patch', 'delete', 'list', 'watch'],
    always: ['create'],
    subresources: [],
  },
  [`seeds.${CORE}`]: {
    byPath: ['update', 'patch', 'delete'],
    always: ['create', 'get', 'list', 'watch'],
    subresources: ['status'],
  },
  'managedseeds.seedmanagement.gardener.cloud': {
    byPath: ['update', 'patch'],
    always: ['get', 'list', 'watch'],
    subresources: ['status'],
  },
  'gardenlets.seedmanagement.gardener.cloud': {
    byPath: ['update', 'patch'],
    always: ['get', 'list', 'watch', 'create'],
    subresources: ['status'],
  },
  [`internalsecrets.${CORE}`]: {
    byPath: ['get', 'update', 'patch', 'delete', 'list', 'watch'],
    always: ['create'],
    subresources: [],
  },
  'workloadidentities.security.gardener.cloud': {
    byPath: ['get', 'list', 'watch', 'create'],
    always: [],
    subresources: ['token'],
  },
  'configmaps.': {
    byPath: ['get', 'patch', 'update', 'delete', 'list', 'watch'],
    always: ['create'],
    subresources: [],
  },
  'leases.coordination.k8s.io': {
    byPath: ['get', 'update', 'patch', 'list', 'watch'],
    always: ['create'],
    subresources: [],
  },
  'secrets.': { byPath: ['get', 'patch', 'update', 'delete'], always: ['create'], subresources: [] },
  'serviceaccounts.': { byPath: ['get', 'patch', 'update'], always: ['create'], subresources: [] },
  'clusterrolebindings.rbac.authorization.k8s.io': {
    byPath: ['get', 'patch', 'update'],
    always: ['create'],
    subresources: [],
  },
  'certificatesigningrequests.certificates.k8s.io': {
    byPath: ['get', 'list', 'watch'],
    always: ['create'],
    subresources: ['seedclient'],
  },
};

/** The read-only subset extensions get for CSRs, ServiceAccounts and ClusterRoleBindings (Gardener). */
const EXTENSION_RULES: Record<string, Rule> = {
  'certificatesigningrequests.certificates.k8s.io': { byPath: ['get', 'list', 'watch'], always: [], subresources: [] },
  'serviceaccounts.': { byPath: ['get'], always: [], subresources: [] },
  'clusterrolebindings.rbac.authorization.k8s.io': { byPath: ['get'], always: [], subresources: [] },
};

const list = (items: readonly string[]) => `[${items.join(' ')}]`;

const LEASE_VERBS_OF_EXTENSIONS = ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete', 'deletecollection'];
const LEADER_ELECTION_LEASE = 'gardenlet-leader-election';
const LEADER_ELECTION_VERBS = ['create', 'get', 'list', 'watch', 'update'];

/**
 * The SeedAuthorizer's decision for a client of `seed` (its gardenlet, or with `userType` `extension` one of its
 * extensions) on `a`. Pure over the listers: no writes, no caches. `now` decides whether a bootstrap may be repeated.
 */
export async function authorizeSeed(
  seed: string,
  a: ResourceAttributes,
  listers: Listers,
  userType: SeedUserType = 'gardenlet',
  now: Date = new Date(),
): Promise<AuthorizationDecision> {
  const group = a.group ?? '';
  const { verb, resource, namespace } = a;
  const name = a.name ?? '';
  // The seeds whose objects the gardenlet reaches (its own and its ManagedSeeds' children), computed when needed.
  let reached: Promise<Set<string>> | undefined;
  const reach = () => (reached ??= reachableSeeds(listers, seed));
  let managed: Promise<ManagedSeedEdges> | undefined;
  const managedEdges = async () => await (managed ??= reach().then((seeds) => managedSeedEdges(listers, seeds, now)));
  const key = `${namespace ?? ''}/${name}`;

  if (READABLE[group]?.includes(resource) && READ.includes(verb) && !a.subresource)
    return allow(`${resource} are readable by gardenlets`);
  if (group === 'events.k8s.io' || (group === '' && resource === 'events')) {
    if (!['create', 'patch'].includes(verb))
      return noOpinion(`only the following verbs are allowed for this resource type: ${list(['create', 'patch'])}`);
    return a.subresource
      ? noOpinion('only the following subresources are allowed for this resource type: []')
      : allow('gardenlets record events');
  }

  // Exceptions before the graph (Gardener: objects of a seed without a Seed object yet, leader election, ...).
  if (group === 'coordination.k8s.io' && resource === 'leases') {
    // Extensions may work with Leases only in their seed's namespace (their leader election), with any verb.
    if (userType === 'extension') {
      if (namespace !== seedNamespace(seed)) return noOpinion('lease object is not in seed namespace');
      return LEASE_VERBS_OF_EXTENSIONS.includes(verb)
        ? allow('lease in its seed namespace')
        : noOpinion(`only the following verbs are allowed for this resource type: ${list(LEASE_VERBS_OF_EXTENSIONS)}`);
    }
    // The gardenlet's leader election, when the garden is a seed at the same time.
    if (name === LEADER_ELECTION_LEASE && LEADER_ELECTION_VERBS.includes(verb)) return allow('leader election lease');
  }
  if (userType === 'gardenlet') {
    // The child gardenlet deletes its bootstrap objects once bootstrapped (its Seed may not exist yet).
    if (group === 'rbac.authorization.k8s.io' && resource === 'clusterrolebindings' && verb === 'delete') {
      const own = bootstrapClusterRoleBindingName('garden', `${BOOTSTRAP_SERVICE_ACCOUNT_PREFIX}${seed}`);
      if (name === own) return allow('its own bootstrap binding');
    }
    if (group === '' && resource === 'serviceaccounts') {
      if (verb === 'delete' && namespace === 'garden' && name === `${BOOTSTRAP_SERVICE_ACCOUNT_PREFIX}${seed}`)
        return allow('its own bootstrap service account');
      // The gardenlet manages the ServiceAccounts of its seed namespace (its extensions' `extension-*`), tokens included.
      if (namespace === seedNamespace(seed)) return allow('service accounts of its seed namespace');
    }
  }
  if (group === '' && resource === 'secrets') {
    // Deviation: Gardener allows only get/list/watch here; our gardenlet also writes the Secrets of its namespace.
    if (namespace === seedNamespace(seed)) return allow('secrets of its seed namespace');
    if (
      verb === 'delete' &&
      namespace === BOOTSTRAP_TOKEN_NAMESPACE &&
      name === bootstrapTokenSecretName({ namespace: 'garden', name: seed })
    )
      return allow('its own bootstrap token');
  }

  const ruleKey = `${resource}.${group}`;
  const rule = (userType === 'extension' ? EXTENSION_RULES[ruleKey] : undefined) ?? RULES[ruleKey];
  if (!rule) return noOpinion(`${group ? `${resource}.${group}` : resource} is not handled for gardenlets`);
  if (a.subresource && !rule.subresources.includes(a.subresource))
    return noOpinion(`only the following subresources are allowed for this resource type: ${list(rule.subresources)}`);
  if (rule.always.includes(verb)) return allow(`${verb} ${resource} is always allowed for gardenlets`);
  if (!rule.byPath.includes(verb))
    return noOpinion(
      `only the following verbs are allowed for this resource type: ${list([...rule.always, ...rule.byPath])}`,
    );
  if (!name) return noOpinion('No Object name found');

  const path = await hasPath(ruleKey);
  if (path === 'missing' && verb === 'delete') return allow(`${resource} ${key} does not exist`);
  return path === true ? allow(`${resource} ${key} is related to seed ${seed}`) : noOpinion(noRelationship(seed));

  /**
   * Whether the graph has a path from the named object to the seed; `missing` when the object does not exist (Gardener
   * allows deleting what is not in the graph).
   */
  async function hasPath(kind: string): Promise<boolean | 'missing'> {
    const bound = BOUND[resource];
    if (bound && kind !== `shootstates.${CORE}`) {
      const object = await listers.get(bound.apiVersion, bound.kind, name, namespace);
      if (!object) return 'missing';
      if (boundTo(bound.seedOf(object), await reach())) return true;
      // BackupBucket → BackupEntry → Seed/Shoot: the buckets its BackupEntries use; the entries of its Shoots.
      if (kind === `backupbuckets.${CORE}`) return (await backupBucketsOf(listers, await reach())).has(name);
      if (kind === `backupentries.${CORE}`) return backupEntryReaches(listers, object, await reach());
      return false;
    }
    switch (kind) {
      case `shootstates.${CORE}`: {
        const state = await listers.get(`${CORE}/v1beta1`, 'ShootState', name, namespace);
        const onSeed = await shootOnSeed(listers, await reach(), namespace, name);
        return onSeed || (state ? false : 'missing');
      }
      case `seeds.${CORE}`: {
        if (name === seed || (await managedEdges()).seeds.has(name)) return true;
        return (await listers.get(`${CORE}/v1beta1`, 'Seed', name)) ? false : 'missing';
      }
      case 'managedseeds.seedmanagement.gardener.cloud':
        return (await managedEdges()).managedSeeds.has(key);
      case 'gardenlets.seedmanagement.gardener.cloud':
        return (await gardenletEdges(listers, await reach(), now)).gardenlets.has(key);
      case `internalsecrets.${CORE}`:
        if (await isShootInternalSecret(listers, await reach(), namespace, name)) return true;
        return (await listers.get(`${CORE}/v1beta1`, 'InternalSecret', name, namespace)) ? false : 'missing';
      case 'workloadidentities.security.gardener.cloud': {
        const seeds = await reach();
        if ((await workloadIdentitiesOf(listers, seeds)).has(key)) return true;
        if ((await managedEdges()).workloadIdentities.has(key)) return true;
        return (await gardenletEdges(listers, seeds, now)).workloadIdentities.has(key);
      }
      case 'configmaps.': {
        if (namespace === CLUSTER_IDENTITY.namespace && name === CLUSTER_IDENTITY.name) return true;
        if ((await configMapsOf(listers, await reach())).has(key)) return true;
        return (await listers.get('v1', 'ConfigMap', name, namespace)) ? false : 'missing';
      }
      case 'leases.coordination.k8s.io':
        return namespace === SEED_LEASE_NAMESPACE && (await reach()).has(name);
      case 'serviceaccounts.':
        return (await managedEdges()).serviceAccounts.has(key);
      case 'clusterrolebindings.rbac.authorization.k8s.io':
        return (await managedEdges()).clusterRoleBindings.has(name);
      case 'certificatesigningrequests.certificates.k8s.io':
        return isSeedClientCSRFor(listers, await reach(), name);
      case 'secrets.':
        return secretHasPath();
      default:
        return false;
    }
  }

  async function secretHasPath(): Promise<boolean | 'missing'> {
    const seeds = await reach();
    if ((await managedEdges()).secrets.has(key)) return true;
    if ((await gardenletEdges(listers, seeds, now)).secrets.has(key)) return true;
    if (await isShootSecret(listers, seeds, namespace, name)) return true;
    if (await isGeneratedBucketSecret(listers, seeds, namespace, name)) return true;
    if ((await secretsOfSeed(listers, seed, seeds)).has(key)) return true;
    return (await listers.get('v1', 'Secret', name, namespace)) ? false : 'missing';
  }
}
