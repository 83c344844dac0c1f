// SeedAuthorizer (gardener-admission-controller pkg/admissioncontroller/webhook/auth/seed): a gardenlet — user
// `gardener.cloud:system:seed:<name>` in group `gardener.cloud:system:seeds` — may touch only what belongs to its
// seed: the Seed itself and its Lease, the Shoots, BackupBuckets, BackupEntries, Bastions, ControllerInstallations
// and ManagedSeeds bound to it, the Secrets those refer to (and `garden/generated-bucket-<bucket>` of its buckets) and
// the Secrets of its seed namespace; it may read BackupBuckets and BackupEntries by name, the
// garden-wide configuration (CloudProfiles, ControllerRegistrations, ...) and list/watch the kinds it caches.
// Everything else gets no opinion, so the API server's chain ends in 403. Gardener walks a dependency graph kept up
// to date by informers; this walks the same edges on demand through the listers.
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
  managedSeedEdges,
  reachableSeeds,
} from './managed-seeds.js';

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
  'seedmanagement.gardener.cloud': ['gardenlets'],
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
  for (const bucket of await listers.list(`${CORE}/v1beta1`, 'BackupBucket')) {
    if (!boundTo(BOUND.backupbuckets!.seedOf(bucket), seeds)) continue;
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

/** The Secrets a Seed refers to: its backup and DNS credentials. */
async function addSeedSecrets(listers: Listers, seed: string, add: (key: string | undefined) => unknown) {
  const seedObject = await listers.get(`${CORE}/v1beta1`, 'Seed', seed);
  add(secretKey(seedObject?.spec?.backup?.credentialsRef));
  add(secretKey(seedObject?.spec?.backup?.secretRef));
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

/** The Secrets a Shoot refers to: its binding's credentials and its `spec.resources` Secrets. */
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
}

/** Gardener's suffixes of the InternalSecrets gardenlets write for their shoots in the project namespace. */
export const SHOOT_PROJECT_INTERNAL_SECRET_SUFFIXES = ['ca-client'];

/** An InternalSecret `<shoot>.<suffix>` (Gardener's internal suffixes) of a Shoot on `seed`. */
async function isShootInternalSecret(
  listers: Listers,
  seeds: ReadonlySet<string>,
  namespace: string | undefined,
  name: string,
): Promise<boolean> {
  const suffix = SHOOT_PROJECT_INTERNAL_SECRET_SUFFIXES.find((s) => name.endsWith(`.${s}`));
  if (!suffix) return false;
  const shootName = name.slice(0, -(suffix.length + 1));
  return shootName !== '' && (await shootOnSeed(listers, seeds, namespace, shootName));
}

/** Secrets gardenlets write for their shoots in the project namespace: `<shoot>.<suffix>` (ca-cluster, kubeconfig, ...). */
async function isShootSecret(
  listers: Listers,
  seeds: ReadonlySet<string>,
  namespace: string | undefined,
  name: string,
): Promise<boolean> {
  const dot = name.indexOf('.');
  return dot > 0 && (await shootOnSeed(listers, seeds, namespace, name.slice(0, dot)));
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
  const bucket = bucketName ? await listers.get(`${CORE}/v1beta1`, 'BackupBucket', bucketName) : undefined;
  return Boolean(bucket && boundTo(BOUND.backupbuckets!.seedOf(bucket), seeds));
}

const LEASE_VERBS_OF_EXTENSIONS = ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete', 'deletecollection'];

/**
 * The SeedAuthorizer's decision for a client of `seed` (its gardenlet, or with `userType` `extension` one of its
 * extensions) on `a`. Pure over the listers: no writes, no caches.
 */
export async function authorizeSeed(
  seed: string,
  a: ResourceAttributes,
  listers: Listers,
  userType: SeedUserType = 'gardenlet',
): Promise<AuthorizationDecision> {
  const group = a.group ?? '';
  const { verb, resource, name, namespace } = a;
  // The seeds whose objects the gardenlet reaches (its own and its ManagedSeeds' children), computed when needed.
  let reached: Promise<Set<string>> | undefined;
  const reach = () => (reached ??= reachableSeeds(listers, seed));
  // What a gardenlet may create belongs to its own seed (Gardener's SeedRestriction), not to the seeds it reaches.
  const scope = async () => (verb === 'create' ? new Set([seed]) : await reach());

  if (READABLE[group]?.includes(resource) && READ.includes(verb))
    return allow(`${resource} are readable by gardenlets`);
  if (group === 'events.k8s.io' || (group === '' && resource === 'events')) {
    return ['create', 'patch', 'update'].includes(verb)
      ? allow('gardenlets record events')
      : noOpinion('events are write-only');
  }

  if (group === CORE && resource === 'seeds') {
    // Gardener's always-allowed verbs of Seeds: create (SeedRestriction checks the name), get, list, watch.
    if (verb === 'list' || verb === 'watch' || verb === 'get') return allow('gardenlets read seeds');
    if (verb === 'create') return allow('gardenlets register their seed');
    if (name === seed) return allow('its own seed');
    // The Seed of a ManagedSeed whose Shoot is on this seed (Seed → ManagedSeed → Shoot → Seed): the parent gardenlet
    // updates and deletes it (SeedRestriction admits the deletion once the ManagedSeed is being deleted).
    if (['update', 'patch', 'delete'].includes(verb) && (!a.subresource || a.subresource === 'status') && name) {
      if ((await managedSeedEdges(listers, await reach(), new Date())).seeds.has(name))
        return allow('seed of a managed seed whose shoot is on its seed');
    }
    return noOpinion(`seed ${name ?? ''} is not ${seed}`);
  }

  if (group === 'coordination.k8s.io' && resource === 'leases') {
    // Extensions may work with Leases only in their seed's namespace (their leader election), with any verb.
    if (userType === 'extension') {
      if (namespace !== seedNamespace(seed)) return noOpinion('lease object is not in seed namespace');
      return LEASE_VERBS_OF_EXTENSIONS.includes(verb)
        ? allow('lease in its seed namespace')
        : noOpinion(
            `only the following verbs are allowed for this resource type: [${LEASE_VERBS_OF_EXTENSIONS.join(' ')}]`,
          );
    }
    if (namespace === 'gardener-system-seed-lease' && (name === seed || verb === 'create'))
      return allow('its own seed lease');
    return noOpinion('only its own seed lease');
  }

  const bound = BOUND[resource];
  if (bound && (group === CORE || group === 'operations.gardener.cloud')) {
    if (verb === 'list' || verb === 'watch') return allow(`gardenlets watch ${resource}`);
    // Gardener's always-allowed verbs of BackupBuckets and BackupEntries include get: a gardenlet reads the bucket it
    // is about to create (the seed's bucket, named after the seed's UID) before it exists.
    if (verb === 'get' && (resource === 'backupbuckets' || resource === 'backupentries'))
      return allow(`gardenlets read ${resource}`);
    if (
      verb === 'create' &&
      (resource === 'backupbuckets' || resource === 'backupentries' || resource === 'shootstates')
    )
      return allow(`gardenlets create ${resource}`);
    // Gardener's verbs for Bastions: read, update and patch (the finalizer), the status subresource; no deletion.
    if (resource === 'bastions' && (verb === 'delete' || verb === 'deletecollection'))
      return noOpinion('gardenlets do not delete bastions');
    if (resource === 'bastions' && a.subresource && a.subresource !== 'status')
      return noOpinion(`bastions/${a.subresource} is not handled for gardenlets`);
    if (!name) return noOpinion(`${verb} ${resource} needs a name`);
    if (resource === 'shootstates') {
      return (await shootOnSeed(listers, await reach(), namespace, name))
        ? allow('state of a shoot on its seed')
        : noOpinion('shoot not on its seed');
    }
    const object = await listers.get(bound.apiVersion, bound.kind, name, namespace);
    if (!object) return noOpinion(`${resource} ${name} not found`);
    return boundTo(bound.seedOf(object), await reach())
      ? allow(`${bound.kind} bound to seed ${seed}`)
      : noOpinion(`${bound.kind} ${namespace ? `${namespace}/` : ''}${name} is not bound to seed ${seed}`);
  }

  if (group === 'seedmanagement.gardener.cloud' && resource === 'managedseeds') {
    // Gardener: get, list and watch always; update and patch (also of the status) through the graph; nothing else.
    if (a.subresource && a.subresource !== 'status')
      return noOpinion('only the following subresources are allowed for this resource type: [status]');
    if (READ.includes(verb)) return allow('gardenlets read managed seeds');
    if (verb !== 'update' && verb !== 'patch')
      return noOpinion('only the following verbs are allowed for this resource type: [update patch get list watch]');
    if (!name) return noOpinion('No Object name found');
    return (await managedSeedEdges(listers, await reach(), new Date())).managedSeeds.has(`${namespace ?? ''}/${name}`)
      ? allow('managed seed whose shoot is on its seed')
      : noOpinion('managed seed not on its seed');
  }

  if (group === 'rbac.authorization.k8s.io' && resource === 'clusterrolebindings') {
    if (a.subresource) return noOpinion('only the following subresources are allowed for this resource type: []');
    // The child gardenlet deletes its bootstrap ClusterRoleBinding once bootstrapped (its Seed may not exist yet).
    const own = bootstrapClusterRoleBindingName('garden', `${BOOTSTRAP_SERVICE_ACCOUNT_PREFIX}${seed}`);
    if (userType === 'gardenlet' && verb === 'delete' && name === own) return allow('its own bootstrap binding');
    // Extensions get the read-only subset of the gardenlet's rights.
    const verbs = userType === 'extension' ? ['get'] : ['create', 'get', 'patch', 'update'];
    if (!verbs.includes(verb)) return noOpinion(`${verb} is not allowed for cluster role bindings`);
    if (!name) return noOpinion('No Object name found');
    return (await managedSeedEdges(listers, await scope(), new Date())).clusterRoleBindings.has(name)
      ? allow('bootstrap binding of a managed seed whose shoot is on its seed')
      : noOpinion(`no relationship found between seed '${seed}' and this object`);
  }

  if (group === '' && resource === 'serviceaccounts') {
    const bootstrapServiceAccount = async () =>
      Boolean(name) &&
      !a.subresource &&
      (await managedSeedEdges(listers, await scope(), new Date())).serviceAccounts.has(`${namespace ?? ''}/${name}`);
    // Extensions may read the ServiceAccounts the graph connects to their seed (the ManagedSeeds' bootstrap ones).
    if (userType === 'extension') {
      return verb === 'get' && (await bootstrapServiceAccount())
        ? allow('bootstrap service account of a managed seed whose shoot is on its seed')
        : noOpinion('extensions may only read service accounts related to their seed');
    }
    // The child gardenlet deletes its bootstrap ServiceAccount once bootstrapped (its Seed may not exist yet).
    if (verb === 'delete' && namespace === 'garden' && name === `${BOOTSTRAP_SERVICE_ACCOUNT_PREFIX}${seed}`)
      return allow('its own bootstrap service account');
    // The gardenlet manages the ServiceAccounts of its seed namespace (its extensions' `extension-*`), tokens included.
    if (namespace === seedNamespace(seed)) return allow('service accounts of its seed namespace');
    // The bootstrap ServiceAccounts of ManagedSeeds on its seed, while their gardenlets still have to bootstrap.
    if (['create', 'get', 'patch', 'update'].includes(verb) && (await bootstrapServiceAccount()))
      return allow('bootstrap service account of a managed seed whose shoot is on its seed');
    return noOpinion(`service account ${namespace ?? ''}/${name ?? ''} does not belong to seed ${seed}`);
  }

  if (group === CORE && resource === 'internalsecrets') {
    if (a.subresource) return noOpinion('only the following subresources are allowed for this resource type: []');
    // Creation is left to the admission chain, as in Gardener (the object does not exist before).
    if (verb === 'create') return allow('gardenlets create internal secrets');
    if (!['get', 'update', 'patch', 'delete', 'list', 'watch'].includes(verb))
      return noOpinion(`${verb} is not allowed for internal secrets`);
    if (!name) return noOpinion('No Object name found');
    return (await isShootInternalSecret(listers, await reach(), namespace, name))
      ? allow('internal secret of a shoot on its seed')
      : noOpinion(`no relationship found between seed '${seed}' and this object`);
  }

  if (group === '' && resource === 'secrets') {
    if (namespace === seedNamespace(seed)) return allow('secrets of its seed namespace');
    if (verb === 'list' || verb === 'watch' || !name) return noOpinion('secrets are listed only in the seed namespace');
    // The child gardenlet deletes its bootstrap token once bootstrapped (its Seed may not exist yet).
    if (
      verb === 'delete' &&
      namespace === BOOTSTRAP_TOKEN_NAMESPACE &&
      name === bootstrapTokenSecretName({ namespace: 'garden', name: seed })
    )
      return allow('its own bootstrap token');
    // ManagedSeeds on its seed: their seed templates' backup Secrets and the bootstrap tokens still to be used.
    if (
      ['create', 'get', 'patch', 'update', 'delete'].includes(verb) &&
      (await managedSeedEdges(listers, await scope(), new Date())).secrets.has(`${namespace ?? ''}/${name}`)
    )
      return allow('secret of a managed seed whose shoot is on its seed');
    if (verb === 'create' && (await isShootSecret(listers, await scope(), namespace, name)))
      return allow('secret of a shoot on its seed');
    if (await isGeneratedBucketSecret(listers, await scope(), namespace, name))
      return allow('generated secret of a BackupBucket of its seed');
    if ((await secretsOfSeed(listers, seed, await scope())).has(`${namespace ?? ''}/${name}`))
      return allow('secret referenced by an object of its seed');
    if (await isShootSecret(listers, await scope(), namespace, name)) return allow('secret of a shoot on its seed');
    return noOpinion(`secret ${namespace}/${name} does not belong to seed ${seed}`);
  }

  return noOpinion(`${group ? `${resource}.${group}` : resource} is not handled for gardenlets`);
}
