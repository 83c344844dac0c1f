// Which extensions a seed needs (Gardener's controllerregistration seed reconciler and ComputeRequiredExtensionsForShoot):
// the kind/type combinations its shoots, BackupBuckets, BackupEntries, DNS and own spec ask for, mapped to the
// ControllerRegistrations that provide them, plus every `Always` registration and, when the seed has shoots, every
// `AlwaysExceptNoShoots` one — filtered by each registration's seed selector. Pure: data in, names out.
import {
  labelSelectorMatches,
  type BackupBucket,
  type BackupEntry,
  type ControllerInstallation,
  type ControllerRegistration,
  type Seed,
  type Shoot,
} from '@gardener-ts/api';

/** `<kind>/<type>`, Gardener's ExtensionsID. */
export function extensionsID(kind: string, type: string): string {
  return `${kind}/${type}`;
}

/** The DNS provider type Gardener treats as "no managed DNS". */
export const DNSUnmanaged = 'unmanaged';

/** A garden domain (internal or default) and the DNS provider serving it. */
export interface Domain {
  domain: string;
  provider: string;
}

/** BackupBucket kind/types on the seed, and the buckets by name (for their entries). */
export function kindTypesForBackupBuckets(buckets: readonly BackupBucket[]): {
  wanted: Set<string>;
  byName: Map<string, BackupBucket>;
} {
  const wanted = new Set<string>();
  const byName = new Map<string, BackupBucket>();
  for (const bucket of buckets) {
    byName.set(bucket.metadata?.name ?? '', bucket);
    wanted.add(extensionsID('BackupBucket', bucket.spec.provider.type));
  }
  return { wanted, byName };
}

/** BackupEntry kind/types on the seed: the provider of each entry's bucket; entries of unknown buckets are skipped. */
export function kindTypesForBackupEntries(
  entries: readonly BackupEntry[],
  buckets: ReadonlyMap<string, BackupBucket>,
): { wanted: Set<string>; missingBuckets: string[] } {
  const wanted = new Set<string>();
  const missingBuckets: string[] = [];
  for (const entry of entries) {
    const bucket = buckets.get(entry.spec.bucketName);
    if (!bucket) {
      missingBuckets.push(entry.spec.bucketName);
      continue;
    }
    wanted.add(extensionsID('BackupEntry', bucket.spec.provider.type));
  }
  return { wanted, missingBuckets };
}

/** Whether a shoot has no worker pools (a workerless shoot needs no Infrastructure, Worker, ...). */
export function isWorkerless(shoot: Shoot): boolean {
  return (shoot.spec.provider.workers ?? []).length === 0;
}

/**
 * The external domain's DNS provider of a shoot (Gardener's ConstructExternalDomain, the provider part): the primary
 * DNS provider's type, else the default domain the shoot's domain belongs to; undefined without a domain.
 */
export function externalDomainProvider(shoot: Shoot, defaultDomains: readonly Domain[]): string | undefined {
  const domain = shoot.spec.dns?.domain;
  if (!domain) return undefined;
  const primary = (shoot.spec.dns?.providers ?? []).find((p) => p.primary === true);
  if (primary?.type) return primary.type;
  const fromDefault = defaultDomains.find((d) => domain === d.domain || domain.endsWith(`.${d.domain}`));
  return fromDefault?.provider;
}

/** The kind/type combinations the reconciliation flow of one shoot needs (Gardener's ComputeRequiredExtensionsForShoot). */
export function requiredExtensionsForShoot(
  shoot: Shoot,
  seed: Seed | undefined,
  registrations: readonly ControllerRegistration[],
  internalDomain: Domain | undefined,
  externalProvider: string | undefined,
): Set<string> {
  const required = new Set<string>();
  const backup = seed?.spec.backup;
  if (backup) {
    required.add(extensionsID('BackupBucket', backup.provider));
    required.add(extensionsID('BackupEntry', backup.provider));
  }
  // Gardener requests the seed provider's ControlPlane extension too: its webhooks may configure the exposure of
  // shoot control planes.
  if (seed) required.add(extensionsID('ControlPlane', seed.spec.provider.type));

  const workerless = isWorkerless(shoot);
  const providerType = shoot.spec.provider.type;
  if (!workerless) {
    required.add(extensionsID('ControlPlane', providerType));
    required.add(extensionsID('Infrastructure', providerType));
    required.add(extensionsID('Worker', providerType));
    if (shoot.spec.networking?.type) required.add(extensionsID('Network', shoot.spec.networking.type));
  }

  const disabled = new Set<string>();
  for (const extension of shoot.spec.extensions ?? []) {
    const id = extensionsID('Extension', extension.type);
    if (extension.disabled === true) disabled.add(id);
    else required.add(id);
  }

  for (const pool of shoot.spec.provider.workers ?? []) {
    if (pool.machine.image?.name) required.add(extensionsID('OperatingSystemConfig', pool.machine.image.name));
    for (const runtime of pool.cri?.containerRuntimes ?? []) {
      required.add(extensionsID('ContainerRuntime', runtime.type));
    }
  }

  for (const provider of shoot.spec.dns?.providers ?? []) {
    if (provider.type && provider.type !== DNSUnmanaged && provider.primary === true) {
      required.add(extensionsID('DNSRecord', provider.type));
    }
  }
  if (internalDomain && internalDomain.provider !== DNSUnmanaged) {
    required.add(extensionsID('DNSRecord', internalDomain.provider));
  }
  if (externalProvider && externalProvider !== DNSUnmanaged) {
    required.add(extensionsID('DNSRecord', externalProvider));
  }

  for (const registration of registrations) {
    for (const resource of registration.spec.resources ?? []) {
      const id = extensionsID('Extension', resource.type);
      if (resource.kind !== 'Extension' || resource.globallyEnabled !== true || disabled.has(id)) continue;
      if (workerless && resource.workerlessSupported !== true) continue;
      required.add(id);
    }
  }
  return required;
}

/**
 * The kind/types the seed itself needs: its DNS provider, the ControlPlane, Infrastructure and Worker extensions of
 * its provider, its backup provider and its own `spec.extensions`. Nothing once the seed is being deleted, so its
 * installations can go.
 */
export function kindTypesForSeed(seed: Seed): Set<string> {
  const wanted = new Set<string>();
  if (seed.metadata?.deletionTimestamp) return wanted;
  if (seed.spec.dns.provider?.type) wanted.add(extensionsID('DNSRecord', seed.spec.dns.provider.type));
  wanted.add(extensionsID('ControlPlane', seed.spec.provider.type));
  wanted.add(extensionsID('Infrastructure', seed.spec.provider.type));
  wanted.add(extensionsID('Worker', seed.spec.provider.type));
  if (seed.spec.backup) wanted.add(extensionsID('BackupBucket', seed.spec.backup.provider));
  for (const extension of seed.spec.extensions ?? []) {
    if (extension.disabled !== true) wanted.add(extensionsID('Extension', extension.type));
  }
  return wanted;
}

/** Shoots that are scheduled to the seed or still live on it (`spec.seedName` or `status.seedName`). */
export function shootsOfSeed(shoots: readonly Shoot[], seedName: string): Shoot[] {
  return shoots.filter((s) => s.spec.seedName === seedName || s.status?.seedName === seedName);
}

/** Whether an installation's `Required` condition says its extension is still in use on the seed. */
export function isInstallationRequired(installation: ControllerInstallation): boolean {
  return (installation.status?.conditions ?? []).some((c) => c.type === 'Required' && c.status === 'True');
}

/**
 * The names of the ControllerRegistrations providing the wanted kind/types (a `resources` entry of that kind and type);
 * an error naming the first kind/type, in sorted order, that no registration provides.
 */
export function registrationsProviding(
  registrations: readonly ControllerRegistration[],
  kindTypes: ReadonlySet<string>,
): { ok: true; names: Set<string> } | { ok: false; error: string } {
  const providers = new Map<string, string[]>();
  for (const registration of registrations) {
    for (const resource of registration.spec.resources ?? []) {
      const id = extensionsID(resource.kind, resource.type);
      providers.set(id, [...(providers.get(id) ?? []), registration.metadata?.name ?? '']);
    }
  }
  const names = new Set<string>();
  for (const id of [...kindTypes].sort()) {
    const providing = providers.get(id);
    if (!providing) {
      return {
        ok: false,
        error: `need to install an extension controller for "${id}" but no appropriate ControllerRegistration found`,
      };
    }
    for (const n of providing) names.add(n);
  }
  return { ok: true, names };
}

/** Everything the seed's needs are computed from. */
export interface SeedNeedsInput {
  seed: Seed;
  registrations: readonly ControllerRegistration[];
  installations: readonly ControllerInstallation[];
  /** The seed's shoots (`shootsOfSeed`). */
  shoots: readonly Shoot[];
  backupBuckets: readonly BackupBucket[];
  backupEntries: readonly BackupEntry[];
  internalDomain?: Domain;
  defaultDomains?: readonly Domain[];
}

/** The outcome: the ControllerRegistrations the seed needs, or why that cannot be told. */
export type SeedNeeds = { ok: true; registrations: Set<string>; kindTypes: Set<string> } | { ok: false; error: string };

/** The set of every kind/type combination the seed needs. */
export function wantedKindTypes(input: SeedNeedsInput): Set<string> {
  const buckets = kindTypesForBackupBuckets(input.backupBuckets);
  const entries = kindTypesForBackupEntries(input.backupEntries, buckets.byName);
  const wanted = new Set<string>([...buckets.wanted, ...entries.wanted, ...kindTypesForSeed(input.seed)]);
  for (const shoot of input.shoots) {
    const external = externalDomainProvider(shoot, input.defaultDomains ?? []);
    for (const id of requiredExtensionsForShoot(
      shoot,
      input.seed,
      input.registrations,
      input.internalDomain,
      external,
    )) {
      wanted.add(id);
    }
  }
  return wanted;
}

/**
 * The names of the ControllerRegistrations to install on the seed (Gardener's computeWantedControllerRegistrationNames):
 * `Always` ones (unless the seed is being deleted), `AlwaysExceptNoShoots` ones when the seed has shoots, those
 * providing a wanted kind/type (an error when none does), those whose installation still reports `Required=True`;
 * then only those whose seed selector matches the seed's labels.
 */
export function computeSeedNeeds(input: SeedNeedsInput): SeedNeeds {
  const seedName = input.seed.metadata?.name ?? '';
  const kindTypes = wantedKindTypes(input);
  const byName = new Map(input.registrations.map((r) => [r.metadata?.name ?? '', r]));
  const providing = registrationsProviding(input.registrations, kindTypes);
  if (!providing.ok) return providing;
  const wanted = providing.names;
  for (const [name, registration] of byName) {
    const policy = registration.spec.deployment?.policy;
    if (policy === 'Always' && !input.seed.metadata?.deletionTimestamp) wanted.add(name);
    if (policy === 'AlwaysExceptNoShoots' && input.shoots.length > 0) wanted.add(name);
  }
  for (const installation of input.installations) {
    if (installation.spec.seedRef?.name === seedName && isInstallationRequired(installation)) {
      wanted.add(installation.spec.registrationRef.name ?? '');
    }
  }
  const matching = new Set<string>();
  for (const name of wanted) {
    const registration = byName.get(name);
    if (!registration) return { ok: false, error: `ControllerRegistration with name ${name} not found` };
    if (labelSelectorMatches(registration.spec.deployment?.seedSelector ?? {}, input.seed.metadata?.labels ?? {})) {
      matching.add(name);
    }
  }
  return { ok: true, registrations: matching, kindTypes };
}

/** What to do with the seed's installations. */
export interface InstallationPlan {
  /** Registrations that get a new installation or an update of their existing one. */
  deploy: string[];
  /** Registrations skipped because they are being deleted. */
  skipped: string[];
  /** Existing installations no longer wanted. */
  delete: ControllerInstallation[];
  /** Registrations whose old installation is still being deleted: no new one yet. */
  blocked: string[];
}

/** Compares the wanted registrations with the seed's installations (Gardener's deploy/delete split). Pure. */
export function planInstallations(
  seedName: string,
  wanted: ReadonlySet<string>,
  registrations: readonly ControllerRegistration[],
  installations: readonly ControllerInstallation[],
): InstallationPlan {
  const byRegistration = new Map<string, ControllerInstallation>();
  for (const installation of installations) {
    if (installation.spec.seedRef?.name !== seedName) continue;
    byRegistration.set(installation.spec.registrationRef.name ?? '', installation);
  }
  const deleting = new Set(registrations.filter((r) => r.metadata?.deletionTimestamp).map((r) => r.metadata?.name));
  const plan: InstallationPlan = { deploy: [], skipped: [], delete: [], blocked: [] };
  for (const name of [...wanted].sort()) {
    if (deleting.has(name)) plan.skipped.push(name);
    else if (byRegistration.get(name)?.metadata?.deletionTimestamp) plan.blocked.push(name);
    else plan.deploy.push(name);
  }
  for (const [name, installation] of byRegistration) {
    if (!wanted.has(name)) plan.delete.push(installation);
  }
  return plan;
}
