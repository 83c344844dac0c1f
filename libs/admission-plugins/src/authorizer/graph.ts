// The SeedAuthorizer graph's vertices beyond the bound kinds (Gardener's pkg/admissioncontroller/webhook/auth/seed/graph
// event handlers): the ConfigMaps, WorkloadIdentities, Leases, CertificateSigningRequests and Gardenlets a seed's
// gardenlet reaches, the BackupBuckets its BackupEntries use, its Shoots' managed issuer Secrets, and the names
// Gardener's gardenlet writes for its Shoots in their project namespace. Each is
// computed on demand through the listers for a set of seeds (the seed and the ManagedSeed children it reaches).
import type { KubeObject, Listers } from '../attributes.js';
import { seedClientVerdictOfCSR } from './seed-client-csr.js';

const CORE = 'core.gardener.cloud/v1beta1';

/** Gardener's suffixes of the Secrets a gardenlet writes for a Shoot in its project namespace (`<shoot>.<suffix>`). */
export const SHOOT_PROJECT_SECRET_SUFFIXES = [
  'kubeconfig',
  'ca-cluster',
  'ssh-keypair',
  'ssh-keypair.old',
  'monitoring',
];
/** Gardener's suffixes of the ConfigMaps a gardenlet writes for a Shoot in its project namespace. */
export const SHOOT_PROJECT_CONFIGMAP_SUFFIXES = ['ca-cluster', 'ca-kubelet'];
/** Gardener's suffixes of the InternalSecrets a gardenlet writes for a Shoot in its project namespace. */
export const SHOOT_PROJECT_INTERNAL_SECRET_SUFFIXES = ['ca-client'];

/** The namespace of the seed Leases (`gardener-system-seed-lease/<seed>`). */
export const SEED_LEASE_NAMESPACE = 'gardener-system-seed-lease';
/** The garden namespace of the Shoots' public service account keys (Gardener's `GardenerShootIssuerNamespace`). */
export const SHOOT_ISSUER_NAMESPACE = 'gardener-system-shoot-issuer';
/** The annotation and value by which a Shoot asks for the managed service account issuer. */
const MANAGED_ISSUER = { annotation: 'authentication.gardener.cloud/issuer', value: 'managed' } as const;
/** The label of a project namespace naming its Project. */
const PROJECT_NAME_LABEL = 'project.gardener.cloud/name';
/** The ConfigMap every Seed is connected to (`kube-system/cluster-identity`). */
export const CLUSTER_IDENTITY = { namespace: 'kube-system', name: 'cluster-identity' };

/**
 * The Shoot a project resource `<shoot>.<suffix>` belongs to, for one of `suffixes` (the longest that matches, so
 * `x.ssh-keypair.old` is Shoot `x`); undefined for other names.
 */
export function shootOfProjectResource(name: string, suffixes: readonly string[]): string | undefined {
  const suffix = [...suffixes].sort((a, b) => b.length - a.length).find((s) => name.endsWith(`.${s}`));
  if (!suffix) return undefined;
  const shoot = name.slice(0, -(suffix.length + 1));
  return shoot === '' ? undefined : shoot;
}

/** Whether `shoot` is bound to one of `seeds` (`spec.seedName` or `status.seedName`). */
export const shootBoundTo = (shoot: KubeObject, seeds: ReadonlySet<string>) =>
  [shoot.spec?.seedName, shoot.status?.seedName].some((s) => typeof s === 'string' && seeds.has(s));

/** The Shoots bound to one of `seeds`. */
export async function shootsOf(listers: Listers, seeds: ReadonlySet<string>): Promise<KubeObject[]> {
  return (await listers.list(CORE, 'Shoot')).filter((s) => shootBoundTo(s, seeds));
}

const key = (namespace: string | undefined, name: unknown) =>
  typeof name === 'string' && name !== '' ? `${namespace ?? ''}/${name}` : undefined;

/** The ConfigMaps a Shoot is connected to: its kube-apiserver's configurations, its resources, its project ones. */
export function shootConfigMaps(shoot: KubeObject): string[] {
  const ns = shoot.metadata?.namespace;
  const kubeAPIServer = shoot.spec?.kubernetes?.kubeAPIServer;
  const names = [
    kubeAPIServer?.auditConfig?.auditPolicy?.configMapRef?.name,
    kubeAPIServer?.structuredAuthentication?.configMapName,
    kubeAPIServer?.structuredAuthorization?.configMapName,
    ...(shoot.spec?.resources ?? [])
      .filter((r: any) => r?.resourceRef?.apiVersion === 'v1' && r.resourceRef.kind === 'ConfigMap')
      .map((r: any) => r.resourceRef.name),
    ...SHOOT_PROJECT_CONFIGMAP_SUFFIXES.map((s) => `${shoot.metadata?.name}.${s}`),
  ];
  return names.map((n) => key(ns, n)).filter((k): k is string => k !== undefined);
}

/**
 * The ConfigMaps (namespace/name) connected to `seeds`: `kube-system/cluster-identity` and the Seeds' `spec.resources`
 * ConfigMaps (in `garden`), and those of the Shoots bound to them.
 */
export async function configMapsOf(listers: Listers, seeds: ReadonlySet<string>): Promise<Set<string>> {
  const out = new Set<string>();
  for (const name of seeds) {
    const seed = await listers.get(CORE, 'Seed', name);
    if (!seed) continue;
    out.add(`${CLUSTER_IDENTITY.namespace}/${CLUSTER_IDENTITY.name}`);
    for (const r of seed.spec?.resources ?? []) {
      if (r?.resourceRef?.apiVersion === 'v1' && r.resourceRef.kind === 'ConfigMap') {
        const k = key('garden', r.resourceRef.name);
        if (k) out.add(k);
      }
    }
  }
  for (const shoot of await shootsOf(listers, seeds)) for (const k of shootConfigMaps(shoot)) out.add(k);
  return out;
}

/** A credentials reference of kind WorkloadIdentity (namespace/name), or undefined. */
const workloadIdentityRef = (ref: any, fallbackNamespace?: string) =>
  ref?.kind === 'WorkloadIdentity' ? key(ref.namespace ?? fallbackNamespace, ref.name) : undefined;

/**
 * The WorkloadIdentities (namespace/name) connected to `seeds` (without the ManagedSeed and Gardenlet templates, see
 * managed-seeds.ts): a Seed's backup credentials, those of the BackupBuckets connected to the seeds, and the
 * CredentialsBindings' credentials of the Shoots bound to them.
 */
export async function workloadIdentitiesOf(listers: Listers, seeds: ReadonlySet<string>): Promise<Set<string>> {
  const out = new Set<string>();
  const add = (k: string | undefined) => k && out.add(k);
  for (const name of seeds)
    add(workloadIdentityRef((await listers.get(CORE, 'Seed', name))?.spec?.backup?.credentialsRef));
  const buckets = await backupBucketsOf(listers, seeds);
  for (const bucket of await listers.list(CORE, 'BackupBucket')) {
    if (buckets.has(bucket.metadata?.name ?? '')) add(workloadIdentityRef(bucket.spec?.credentialsRef));
  }
  for (const shoot of await shootsOf(listers, seeds)) {
    const ns = shoot.metadata?.namespace;
    if (typeof shoot.spec?.credentialsBindingName !== 'string') continue;
    const binding = await listers.get(
      'security.gardener.cloud/v1alpha1',
      'CredentialsBinding',
      shoot.spec.credentialsBindingName,
      ns,
    );
    add(workloadIdentityRef(binding?.credentialsRef, ns));
  }
  return out;
}

/** The Secrets (namespace/name) a Shoot's DNS providers and structured authorization kubeconfigs refer to. */
export function shootConfigurationSecrets(shoot: KubeObject): string[] {
  const ns = shoot.metadata?.namespace;
  return [
    ...(shoot.spec?.dns?.providers ?? []).map((p: any) => p?.secretName),
    ...(shoot.spec?.kubernetes?.kubeAPIServer?.structuredAuthorization?.kubeconfigs ?? []).map(
      (k: any) => k?.secretName,
    ),
  ]
    .map((n) => key(ns, n))
    .filter((k): k is string => k !== undefined);
}

/** The Secrets (namespace/name) of the `spec.resources` of a Seed (in `garden`). */
export function seedResourceSecrets(seed: KubeObject | undefined): string[] {
  return (seed?.spec?.resources ?? [])
    .filter((r: any) => r?.resourceRef?.apiVersion === 'v1' && r.resourceRef.kind === 'Secret')
    .map((r: any) => key('garden', r.resourceRef.name))
    .filter((k: string | undefined): k is string => k !== undefined);
}

/**
 * Whether the CertificateSigningRequest `name` is a seed client certificate request for one of `seeds` (Gardener's
 * graph connects only those, to the seed their common name names).
 */
export async function isSeedClientCSRFor(listers: Listers, seeds: ReadonlySet<string>, name: string): Promise<boolean> {
  const csr = await listers.get('certificates.k8s.io/v1', 'CertificateSigningRequest', name);
  if (!csr) return false;
  const verdict = seedClientVerdictOfCSR(csr);
  return verdict.ok && seeds.has(verdict.seed);
}

/** The Shoot owning an object (its owner reference of kind Shoot), or undefined. */
export const ownerShootName = (object: KubeObject): string | undefined =>
  ((object.metadata?.ownerReferences ?? []) as { kind?: unknown; name?: unknown }[]).find(
    (r) => r?.kind === 'Shoot' && typeof r.name === 'string',
  )?.name as string | undefined;

/**
 * Whether a BackupEntry reaches one of `seeds`: it is bound to one (`spec.seedName`, `status.seedName`) or its owning
 * Shoot is (Gardener's BackupEntry → Seed and BackupEntry → Shoot edges).
 */
export async function backupEntryReaches(
  listers: Listers,
  entry: KubeObject,
  seeds: ReadonlySet<string>,
): Promise<boolean> {
  if ([entry.spec?.seedName, entry.status?.seedName].some((s) => typeof s === 'string' && seeds.has(s))) return true;
  const shootName = ownerShootName(entry);
  if (!shootName) return false;
  const shoot = await listers.get(CORE, 'Shoot', shootName, entry.metadata?.namespace);
  return Boolean(shoot && shootBoundTo(shoot, seeds));
}

/**
 * The BackupBuckets (names) connected to `seeds`: those bound to them and those a BackupEntry reaching them uses
 * (Gardener's BackupBucket → BackupEntry edge).
 */
export async function backupBucketsOf(listers: Listers, seeds: ReadonlySet<string>): Promise<Set<string>> {
  const out = new Set<string>();
  for (const bucket of await listers.list(CORE, 'BackupBucket')) {
    const name = bucket.metadata?.name;
    if (name && [bucket.spec?.seedName, bucket.status?.seedName].some((s) => typeof s === 'string' && seeds.has(s)))
      out.add(name);
  }
  for (const entry of await listers.list(CORE, 'BackupEntry')) {
    const bucketName = entry.spec?.bucketName;
    if (typeof bucketName === 'string' && !out.has(bucketName) && (await backupEntryReaches(listers, entry, seeds)))
      out.add(bucketName);
  }
  return out;
}

/**
 * The Secret (namespace/name) holding the public service account keys of a Shoot with the managed issuer:
 * `gardener-system-shoot-issuer/<project>--<shoot UID>` (Gardener's Secret → Shoot edge); undefined without the
 * managed issuer, a UID or a project namespace.
 */
export async function managedIssuerSecretOfShoot(listers: Listers, shoot: KubeObject): Promise<string | undefined> {
  if (shoot.metadata?.annotations?.[MANAGED_ISSUER.annotation] !== MANAGED_ISSUER.value) return undefined;
  const uid = shoot.metadata?.uid;
  const namespace = shoot.metadata?.namespace;
  if (typeof uid !== 'string' || uid === '' || !namespace) return undefined;
  const project = (await listers.get('v1', 'Namespace', namespace))?.metadata?.labels?.[PROJECT_NAME_LABEL];
  return typeof project === 'string' && project !== '' ? `${SHOOT_ISSUER_NAMESPACE}/${project}--${uid}` : undefined;
}
