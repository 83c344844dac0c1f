// SeedRestriction (gardener-admission-controller pkg/admissioncontroller/webhook/admission/seedrestriction): the
// admission half of the SeedAuthorizer. The authorizer lets a seed's clients create objects of several kinds for any
// name (the object does not exist before), so what they create must belong to their own seed:
// - their Seed itself, BackupBuckets for their seed, Bastions of their seed, ShootStates of Shoots on their seed;
// - BackupEntries for their seed in a BackupBucket of their seed; a source BackupEntry `source-<entry>` (control plane
//   migration) only while its Shoot is being restored and only as a copy of the spec of `<entry>`;
// - CertificateSigningRequests: only a gardenlet, only seed client certificate requests for its own seed;
// - Leases: extensions only in `seed-<name>`; the gardenlet its leader election Lease and its seed Lease
//   `gardener-system-seed-lease/<seed>`;
// - Secrets: `garden/generated-bucket-<bucket>` of its BackupBuckets, `<shoot>.<suffix>` of its Shoots, the public
//   service account keys of its Shoots in `gardener-system-shoot-issuer` (labelled with the Shoot), bootstrap tokens
//   (well-formed, for a ManagedSeed on its seed not bootstrapped yet) and the seed templates' Secrets of its ManagedSeeds;
// - InternalSecrets `<shoot>.ca-client` of its Shoots; ConfigMaps `<shoot>.ca-cluster/ca-kubelet` of its Shoots;
// - ServiceAccounts and ClusterRoleBindings: only a gardenlet, the bootstrap ones of its ManagedSeeds not bootstrapped
//   yet (the binding must refer to the bootstrapper ClusterRole), ServiceAccounts of `seed-<name>`.
// A gardenlet may update only its own Seed (Gardener's webhook sends Seed updates too).
// The only BackupBucket a gardenlet may delete is its seed's own, named after the seed's UID. A Seed other than its own a
// gardenlet may delete only as the parent of a ManagedSeed being deleted: the ManagedSeed `garden/<seed>` has a
// deletion timestamp and its Shoot is on the gardenlet's seed.
import { isDeepStrictEqual } from 'node:util';
import {
  allow,
  badRequest,
  CORE,
  forbidden,
  internalError,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { seedIdentityOfUser, GENERATED_BUCKET_SECRET_PREFIX, type SeedIdentity } from './seed-authorizer.js';
import {
  BOOTSTRAP_CLUSTER_ROLE_BINDING_PREFIX,
  BOOTSTRAP_SERVICE_ACCOUNT_PREFIX,
  BOOTSTRAP_TOKEN_NAMESPACE,
  BOOTSTRAP_TOKEN_SECRET_PREFIX,
  managedSeedOfClusterRoleBinding,
} from './managed-seeds.js';
import {
  ownerShootName,
  SEED_LEASE_NAMESPACE,
  SHOOT_ISSUER_NAMESPACE,
  SHOOT_PROJECT_CONFIGMAP_SUFFIXES,
  SHOOT_PROJECT_INTERNAL_SECRET_SUFFIXES,
  SHOOT_PROJECT_SECRET_SUFFIXES,
  shootOfProjectResource,
} from './graph.js';
import { seedClientVerdictOfCSR } from './seed-client-csr.js';

const SHOOTS = `${CORE}/v1beta1`;
const MANAGED_SEEDS = 'seedmanagement.gardener.cloud/v1alpha1';
/** The ClusterRole the bootstrap ClusterRoleBindings must refer to (Gardener's `GardenerSeedBootstrapper`). */
export const SEED_BOOTSTRAPPER_CLUSTER_ROLE = 'gardener.cloud:system:seed-bootstrapper';
const LEADER_ELECTION_LEASE = 'gardenlet-leader-election';
const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
/** Gardener's name prefix of the source BackupEntry created while a Shoot's control plane is restored elsewhere. */
export const BACKUP_SOURCE_PREFIX = 'source';
/** The labels Gardener requires on a Secret in the shoot issuer namespace (`v1beta1constants`). */
export const ShootIssuerSecretLabels = {
  shootName: 'shoot.gardener.cloud/name',
  shootNamespace: 'shoot.gardener.cloud/namespace',
  /** Gardener's `LabelDiscoveryPublic`, which must say `serviceaccount` (`LabelPublicKeysServiceAccount`). */
  discoveryPublic: 'discovery.gardener.cloud/public',
} as const;
const PUBLIC_KEYS_SERVICE_ACCOUNT = 'serviceaccount';
/** Where Gardener's bootstrap token description names the ManagedSeed (`… for managed seed <namespace>/<name>.`). */
const MANAGED_SEED_DESCRIPTION = /for managed seed ([^/\s]+)\/([^\s]+?)\.?$/;

/** The `<resource>.<group>` whose creations the plugin checks. */
const CREATIONS = new Set([
  `seeds.${CORE}`,
  `backupbuckets.${CORE}`,
  `backupentries.${CORE}`,
  `shootstates.${CORE}`,
  `internalsecrets.${CORE}`,
  'bastions.operations.gardener.cloud',
  'certificatesigningrequests.certificates.k8s.io',
  'configmaps.',
  'clusterrolebindings.rbac.authorization.k8s.io',
  'leases.coordination.k8s.io',
  'secrets.',
  'serviceaccounts.',
]);

const resourceOf = (a: AdmissionAttributes) => `${a.resource.resource}.${a.resource.group}`;

/** The SeedRestriction admission plugin. */
export const SeedRestriction: AdmissionPlugin = {
  name: 'SeedRestriction',
  handles: (a: AdmissionAttributes) =>
    ((a.operation === 'CREATE' && CREATIONS.has(resourceOf(a))) ||
      (a.operation === 'UPDATE' && resourceOf(a) === `seeds.${CORE}`) ||
      (a.operation === 'DELETE' && (resourceOf(a) === `backupbuckets.${CORE}` || resourceOf(a) === `seeds.${CORE}`))) &&
    !a.subresource &&
    seedIdentityOfUser(a.userInfo.username, a.userInfo.groups) !== undefined,
  async validate(a, listers) {
    const identity = seedIdentityOfUser(a.userInfo.username, a.userInfo.groups)!;
    const seed = identity.seed;
    const refuse = () => forbidden(a, `object does not belong to seed "${seed}"`);
    const admit = (...seedNames: unknown[]) => (seedNames.some((s) => s === seed) ? allow() : refuse());
    const name = a.name || a.object?.metadata?.name || '';
    if (a.operation === 'UPDATE') return admit(name);
    if (a.operation === 'DELETE' && resourceOf(a) === `seeds.${CORE}`) {
      if (name === seed) return allow();
      const managedSeed = await listers.get(MANAGED_SEEDS, 'ManagedSeed', name, 'garden');
      if (!managedSeed) return refuse();
      // Gardenlets may not delete ManagedSeeds, so a deletion timestamp means somebody else asked for it.
      if (!managedSeed.metadata?.deletionTimestamp)
        return forbidden(a, 'object can only be deleted if corresponding ManagedSeed has a deletion timestamp');
      const shootName = managedSeed.spec?.shoot?.name;
      if (!shootName) return refuse();
      const shoot = await listers.get(SHOOTS, 'Shoot', shootName, managedSeed.metadata?.namespace);
      return admit(shoot?.spec?.seedName);
    }
    if (a.operation === 'DELETE') {
      const seedObject = await listers.get(SHOOTS, 'Seed', seed);
      const uid = seedObject?.metadata?.uid;
      return uid && name === uid ? allow() : forbidden(a, 'cannot delete unrelated BackupBucket');
    }
    const object = a.object ?? {};
    const ctx: Context = { a, identity, name, object, listers, refuse, admit };
    switch (resourceOf(a)) {
      case `seeds.${CORE}`:
        return admit(object.metadata?.name);
      case `backupbuckets.${CORE}`:
      case 'bastions.operations.gardener.cloud':
        return admit(object.spec?.seedName);
      case `backupentries.${CORE}`:
        return admitBackupEntry(ctx);
      case `shootstates.${CORE}`: {
        const shoot = await listers.get(SHOOTS, 'Shoot', name, a.namespace);
        return shoot ? admit(shoot.spec?.seedName, shoot.status?.seedName) : refuse();
      }
      case 'certificatesigningrequests.certificates.k8s.io':
        return admitCertificateSigningRequest(ctx);
      case 'clusterrolebindings.rbac.authorization.k8s.io':
        return admitClusterRoleBinding(ctx);
      case `internalsecrets.${CORE}`:
        return (await admitShootResource(ctx, SHOOT_PROJECT_INTERNAL_SECRET_SUFFIXES)) ?? refuse();
      case 'configmaps.':
        return (await admitShootResource(ctx, SHOOT_PROJECT_CONFIGMAP_SUFFIXES)) ?? refuse();
      case 'leases.coordination.k8s.io':
        return admitLease(ctx);
      case 'secrets.':
        return admitSecret(ctx);
      case 'serviceaccounts.':
        return admitServiceAccount(ctx);
      default:
        return refuse();
    }
  },
};

interface Context {
  a: AdmissionAttributes;
  identity: SeedIdentity;
  /** The name of the object being created. */
  name: string;
  object: KubeObject;
  listers: Listers;
  refuse: () => AdmissionDecision;
  admit: (...seedNames: unknown[]) => AdmissionDecision;
}

function admitCertificateSigningRequest({ a, identity, object, admit }: Context): AdmissionDecision {
  if (identity.userType === 'extension')
    return forbidden(a, 'extension client may not create CertificateSigningRequests');
  const verdict = seedClientVerdictOfCSR(object);
  if (!verdict.ok) {
    return verdict.reason.startsWith('PEM block')
      ? badRequest(verdict.reason)
      : forbidden(a, `can only create CSRs for seed clusters: ${verdict.reason}`);
  }
  return admit(verdict.seed);
}

/**
 * A BackupEntry for the seed: in a BackupBucket of the seed, or — named `source-<entry>` during control plane
 * migration — while its Shoot is being restored, with the spec of the Shoot's BackupEntry `<entry>`.
 */
async function admitBackupEntry({ a, name, object, listers, admit }: Context): Promise<AdmissionDecision> {
  const onSeed = admit(object.spec?.seedName);
  if (!onSeed.allowed) return onSeed;
  if (name.startsWith(BACKUP_SOURCE_PREFIX)) {
    const shootName = ownerShootName(object) ?? '';
    const shoot = shootName ? await listers.get(SHOOTS, 'Shoot', shootName, a.namespace) : undefined;
    if (!shoot) return internalError(`shoots.core.gardener.cloud "${shootName}" not found`);
    const last = shoot.status?.lastOperation;
    if (last?.type !== 'Restore' || last?.state !== 'Processing')
      return forbidden(
        a,
        `creation of source BackupEntry is only allowed during shoot Restore operation (shoot: ${shootName})`,
      );
    const originalName = name.startsWith(`${BACKUP_SOURCE_PREFIX}-`)
      ? name.slice(BACKUP_SOURCE_PREFIX.length + 1)
      : name;
    const original = await listers.get(SHOOTS, 'BackupEntry', originalName, a.namespace);
    if (!original)
      return forbidden(
        a,
        `could not find original BackupEntry ${originalName}: backupentries.core.gardener.cloud "${originalName}" not found`,
      );
    return isDeepStrictEqual(object.spec ?? {}, original.spec ?? {})
      ? allow()
      : forbidden(
          a,
          `specification of source BackupEntry must equal specification of original BackupEntry ${originalName}`,
        );
  }
  const bucketName: string = object.spec?.bucketName ?? '';
  const bucket = bucketName ? await listers.get(SHOOTS, 'BackupBucket', bucketName) : undefined;
  if (!bucket) return internalError(`backupbuckets.core.gardener.cloud "${bucketName}" not found`);
  return admit(bucket.spec?.seedName);
}

async function admitClusterRoleBinding(ctx: Context): Promise<AdmissionDecision> {
  const { a, identity, name, object, refuse } = ctx;
  if (identity.userType === 'extension') return forbidden(a, 'extension client may not create ClusterRoleBindings');
  // The bindings of the ServiceAccounts other gardenlets bootstrap with (ManagedSeeds on the seed).
  if (!name.startsWith(BOOTSTRAP_CLUSTER_ROLE_BINDING_PREFIX)) return refuse();
  const roleRef = object.roleRef ?? {};
  if (
    roleRef.apiGroup !== 'rbac.authorization.k8s.io' ||
    roleRef.kind !== 'ClusterRole' ||
    roleRef.name !== SEED_BOOTSTRAPPER_CLUSTER_ROLE
  )
    return forbidden(a, 'can only bindings referring to the bootstrapper role');
  const managedSeed = managedSeedOfClusterRoleBinding(name);
  return managedSeed ? allowIfNotYetBootstrapped(ctx, managedSeed.namespace, managedSeed.name) : refuse();
}

/** A `<shoot>.<suffix>` object of a Shoot on the seed; undefined when the name is none of `suffixes`. */
async function admitShootResource(
  { a, name, listers, admit }: Context,
  suffixes: readonly string[],
): Promise<AdmissionDecision | undefined> {
  const shootName = shootOfProjectResource(name, suffixes);
  if (shootName === undefined) return undefined;
  const shoot = await listers.get(SHOOTS, 'Shoot', shootName, a.namespace);
  if (!shoot) return forbidden(a, `shoots.core.gardener.cloud "${shootName}" not found`);
  return admit(shoot.spec?.seedName);
}

function admitLease({ a, identity, name, refuse, admit }: Context): AdmissionDecision {
  const seedNamespace = `seed-${identity.seed}`;
  if (identity.userType === 'extension') {
    return a.namespace === seedNamespace
      ? allow()
      : forbidden(a, `extension client can only create leases in the namespace for seed "${identity.seed}"`);
  }
  // Its leader election (when the garden is a seed as well) and its seed Lease.
  if (name === LEADER_ELECTION_LEASE) return allow();
  if (a.namespace === SEED_LEASE_NAMESPACE) return admit(name);
  return refuse();
}

async function admitSecret(ctx: Context): Promise<AdmissionDecision> {
  const { a, identity, name, object, listers, refuse } = ctx;
  // Deviation: the authorizer lets our gardenlet write the Secrets of its seed namespace; so does this plugin.
  if (a.namespace === `seed-${identity.seed}`) return allow();
  if (name.startsWith(GENERATED_BUCKET_SECRET_PREFIX)) {
    const bucketName = name.slice(GENERATED_BUCKET_SECRET_PREFIX.length);
    const bucket = bucketName ? await listers.get(SHOOTS, 'BackupBucket', bucketName) : undefined;
    if (!bucket) return forbidden(a, `backupbuckets.core.gardener.cloud "${bucketName}" not found`);
    return ctx.admit(bucket.spec?.seedName);
  }
  const shootSecret = await admitShootResource(ctx, SHOOT_PROJECT_SECRET_SUFFIXES);
  if (shootSecret) return shootSecret;
  if (a.namespace === SHOOT_ISSUER_NAMESPACE) {
    // The public keys of a Shoot's managed service account issuer, labelled with the Shoot they belong to.
    const labels: Record<string, string> = object.metadata?.labels ?? {};
    const invalid = (message: string): AdmissionDecision => ({ allowed: false, code: 422, reason: 'Invalid', message });
    for (const label of [ShootIssuerSecretLabels.shootName, ShootIssuerSecretLabels.shootNamespace]) {
      if (!(label in labels)) return invalid(`label "${label}" is missing`);
    }
    const keys = labels[ShootIssuerSecretLabels.discoveryPublic];
    if (keys === undefined) return invalid(`label "${ShootIssuerSecretLabels.discoveryPublic}" is missing`);
    if (keys !== PUBLIC_KEYS_SERVICE_ACCOUNT)
      return invalid(
        `label "${ShootIssuerSecretLabels.discoveryPublic}" value must be set to "${PUBLIC_KEYS_SERVICE_ACCOUNT}"`,
      );
    const shootName = labels[ShootIssuerSecretLabels.shootName]!;
    const shoot = await listers.get(SHOOTS, 'Shoot', shootName, labels[ShootIssuerSecretLabels.shootNamespace]);
    if (!shoot) return forbidden(a, `shoots.core.gardener.cloud "${shootName}" not found`);
    return ctx.admit(shoot.spec?.seedName);
  }
  if (name.startsWith(BOOTSTRAP_TOKEN_SECRET_PREFIX) && a.namespace === BOOTSTRAP_TOKEN_NAMESPACE) {
    const data: Record<string, string> = object.data ?? {};
    const text = (k: string) => (typeof data[k] === 'string' ? Buffer.from(data[k], 'base64').toString('utf8') : '');
    const invalid = (message: string): AdmissionDecision => ({ allowed: false, code: 422, reason: 'Invalid', message });
    if (object.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return invalid(`unexpected secret type: "${object.type ?? ''}"`);
    if (text('usage-bootstrap-authentication') !== 'true')
      return invalid(`"usage-bootstrap-authentication" must be set to 'true'`);
    if (text('usage-bootstrap-signing') !== 'true') return invalid(`"usage-bootstrap-signing" must be set to 'true'`);
    if ('auth-extra-groups' in data) return invalid(`"auth-extra-groups" must not be set`);
    const described = MANAGED_SEED_DESCRIPTION.exec(text('description'));
    return described ? allowIfNotYetBootstrapped(ctx, described[1]!, described[2]!) : refuse();
  }
  // The seed templates' Secrets of the ManagedSeeds on its seed.
  for (const managedSeed of await listers.list(MANAGED_SEEDS, 'ManagedSeed')) {
    const shoot = await listers.get(
      SHOOTS,
      'Shoot',
      managedSeed.spec?.shoot?.name ?? '',
      managedSeed.metadata?.namespace,
    );
    if (shoot?.spec?.seedName !== identity.seed) continue;
    const spec = managedSeed.spec?.gardenlet?.config?.seedConfig?.spec;
    for (const ref of [spec?.secretRef, spec?.backup?.secretRef, spec?.backup?.credentialsRef]) {
      if (ref?.kind !== undefined && ref.kind !== 'Secret') continue;
      if (ref?.name === name && ref?.namespace === a.namespace) return allow();
    }
  }
  return refuse();
}

async function admitServiceAccount(ctx: Context): Promise<AdmissionDecision> {
  const { a, identity, name, refuse } = ctx;
  if (identity.userType === 'extension') return forbidden(a, 'extension client may not create ServiceAccounts');
  // The ServiceAccounts other gardenlets bootstrap with (ManagedSeeds on the seed).
  if (name.startsWith(BOOTSTRAP_SERVICE_ACCOUNT_PREFIX))
    return allowIfNotYetBootstrapped(ctx, a.namespace ?? '', name.slice(BOOTSTRAP_SERVICE_ACCOUNT_PREFIX.length));
  return a.namespace === `seed-${identity.seed}` ? allow() : refuse();
}

/**
 * Gardener's `allowIfManagedSeedIsNotYetBootstrapped`: the ManagedSeed exists, its Shoot is on the seed, and its Seed
 * is not registered yet, or its client certificate expired, or the ManagedSeed asks for `renew-kubeconfig`.
 */
async function allowIfNotYetBootstrapped(
  { a, listers, admit }: Context,
  namespace: string,
  name: string,
): Promise<AdmissionDecision> {
  const managedSeed = await listers.get(MANAGED_SEEDS, 'ManagedSeed', name, namespace);
  if (!managedSeed) return forbidden(a, `managedseeds.seedmanagement.gardener.cloud "${name}" not found`);
  const shoot = await listers.get(SHOOTS, 'Shoot', managedSeed.spec?.shoot?.name ?? '', namespace);
  const onSeed = admit(shoot?.spec?.seedName);
  if (!onSeed.allowed) return onSeed;
  const seed = await listers.get(SHOOTS, 'Seed', name);
  if (!seed) return allow();
  const expiration = Date.parse(seed.status?.clientCertificateExpirationTimestamp ?? '');
  if (!Number.isNaN(expiration) && expiration < Date.now()) return allow();
  if (managedSeed.metadata?.annotations?.['gardener.cloud/operation'] === 'renew-kubeconfig') return allow();
  return badRequest(`managed seed ${namespace}/${name} is already bootstrapped`);
}
