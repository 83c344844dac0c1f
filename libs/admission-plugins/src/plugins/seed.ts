// SeedMutator (plugin/pkg/seed/mutator) and SeedValidator (plugin/pkg/seed/validator). The mutator keeps the
// `name.seed.gardener.cloud/<name>=true` labels of a Seed: its own name and, for a Seed registered by a ManagedSeed in
// `garden`, the name of the Seed that ManagedSeed's Shoot runs on. The validator refuses what would break the Shoots
// scheduled to a Seed: deleting it, removing zones, changing its internal domain, removing a default domain a Shoot
// uses (or switching from the garden's global default domains to explicit ones without those in use), and a backup
// WorkloadIdentity of another provider type.
import {
  allow,
  CORE,
  forbidden,
  forbiddenResource,
  internalError,
  isKind,
  mutated,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
  unknownError,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { defaultDomains } from './shoot-dns.js';

/** The prefix of the labels naming the seeds an object belongs to (v1beta1constants.LabelPrefixSeedName). */
export const LabelPrefixSeedName = 'name.seed.gardener.cloud/';

/** The labels with `name.seed.gardener.cloud/<name>=true` for `names` only (Gardener's MaintainSeedNameLabels). */
export function maintainSeedNameLabels(
  labels: Record<string, string> | undefined,
  ...names: (string | undefined)[]
): Record<string, string> | undefined {
  const next = Object.fromEntries(Object.entries(labels ?? {}).filter(([k]) => !k.startsWith(LabelPrefixSeedName)));
  for (const name of names) if (name) next[`${LabelPrefixSeedName}${name}`] = 'true';
  return labels === undefined && Object.keys(next).length === 0 ? undefined : next;
}

/** The SeedMutator admission plugin. */
export const SeedMutator: AdmissionPlugin = {
  name: 'SeedMutator',
  handles: (a) =>
    isKind(a, CORE, 'Seed') && (a.operation === 'CREATE' || a.operation === 'UPDATE') && !a.subresource && !!a.object,
  async admit(a, listers) {
    const seed = a.object!;
    const name = seed.metadata?.name;
    const names = [name];
    const managedSeed = name
      ? await listers.get('seedmanagement.gardener.cloud/v1alpha1', 'ManagedSeed', name, 'garden')
      : undefined;
    const shootName: string | undefined = managedSeed?.spec?.shoot?.name;
    if (managedSeed && shootName) {
      const shoot = await listers.get('core.gardener.cloud/v1beta1', 'Shoot', shootName, 'garden');
      if (!shoot)
        return unknownError(
          `failed to get shoot ${shootName} for managed seed "${name}": shoot.core.gardener.cloud "${shootName}" not found`,
        );
      names.push(shoot.spec?.seedName);
    }
    const labels = maintainSeedNameLabels(seed.metadata?.labels, ...names);
    if (JSON.stringify(labels) === JSON.stringify(seed.metadata?.labels)) return allow();
    return mutated({ ...seed, metadata: { ...seed.metadata, labels: labels ?? {} } });
  },
};

/** Whether a Shoot is scheduled to (spec) or runs on (status) the Seed `name`. */
export const usesSeed = (shoot: KubeObject, name: string | undefined) =>
  name !== undefined && (shoot.spec?.seedName === name || shoot.status?.seedName === name);

const shootsOn = async (listers: Listers, name: string | undefined) =>
  (await listers.list('core.gardener.cloud/v1beta1', 'Shoot')).filter((s) => usesSeed(s, name));

/** Go's `%v` of a string list: `[a b]`. */
const goList = (items: Iterable<string>) => `[${[...items].join(' ')}]`;

const endsWithDomain = (domain: string | undefined, parent: string) => Boolean(domain?.endsWith(`.${parent}`));

/**
 * The checks of a Seed update against the Shoots on it (Gardener's ValidateZoneRemovalFromSeeds,
 * ValidateInternalDomainChangeForSeed and ValidateDefaultDomainsChangeForSeed); `kind` is `Seed` (or `ManagedSeed`).
 */
export async function validateSeedSpecUpdate(
  old: KubeObject,
  seed: KubeObject,
  name: string,
  listers: Listers,
  kind = 'Seed',
): Promise<AdmissionDecision> {
  const refuse = (reason: string) => forbiddenResource(`${kind}.core.gardener.cloud`, name, reason);
  const newZones = new Set<string>(seed.spec?.provider?.zones ?? []);
  const removedZones = [...new Set<string>(old.spec?.provider?.zones ?? [])].filter((z) => !newZones.has(z)).sort();
  const shoots = await shootsOn(listers, name);
  if (removedZones.length > 0 && shoots.length > 0)
    return refuse(
      `cannot remove zones ${goList(removedZones)} from ${kind} ${name} as there are Shoots scheduled to this Seed`,
    );

  const oldInternal = old.spec?.dns?.internal;
  const internal = seed.spec?.dns?.internal;
  if (oldInternal && internal && oldInternal.domain !== internal.domain && shoots.length > 0)
    return refuse(`cannot change internal domain as the ${kind} "${name}" is still in use by shoots`);

  const domainsOf = (s: KubeObject) => new Set<string>((s.spec?.dns?.defaults ?? []).map((d: KubeObject) => d.domain));
  const oldDomains = domainsOf(old);
  const newDomains = domainsOf(seed);
  const shootDomains = shoots.map((s) => s.spec?.dns?.domain as string | undefined).filter(Boolean);
  const removed = [...oldDomains].filter((d) => !newDomains.has(d));
  const usedRemoved = removed.filter((d) => shootDomains.some((domain) => endsWithDomain(domain, d)));
  if (usedRemoved.length > 0)
    return refuse(
      `cannot remove default domains ${goList(usedRemoved)} from ${kind} "${name}" as they are still being used by shoots`,
    );
  if (oldDomains.size === 0 && newDomains.size > 0) {
    const global = await defaultDomains(listers);
    const used = global.filter((g) => shootDomains.some((domain) => endsWithDomain(domain, g)));
    const missing = used.filter((d) => !newDomains.has(d));
    if (missing.length > 0)
      return refuse(
        `cannot configure explicit default domains for ${kind} "${name}" without including domains ${goList(missing)} that are currently being used by shoots`,
      );
  }
  return allow();
}

/** A backup WorkloadIdentity must be of the backup's provider type (Gardener's validateCredentialsRef). */
async function validateBackupCredentials(a: AdmissionAttributes, seed: KubeObject, listers: Listers) {
  const backup = seed.spec?.backup;
  const ref = backup?.credentialsRef;
  if (!ref || ref.apiVersion !== 'security.gardener.cloud/v1alpha1' || ref.kind !== 'WorkloadIdentity') return allow();
  const identity = await listers.get(ref.apiVersion, 'WorkloadIdentity', ref.name, ref.namespace);
  if (!identity) return internalError(`workloadidentity.security.gardener.cloud "${ref.name}" not found`);
  const type = identity.spec?.targetSystem?.type;
  if (backup.provider !== type)
    return forbidden(a, `seed using backup of type "${backup.provider}" cannot use WorkloadIdentity of type "${type}"`);
  return allow();
}

/** The SeedValidator admission plugin (CREATE, UPDATE and DELETE of Seeds). */
export const SeedValidator: AdmissionPlugin = {
  name: 'SeedValidator',
  handles: (a) => isKind(a, CORE, 'Seed') && a.operation !== 'CONNECT' && !a.subresource,
  async validate(a, listers) {
    if (a.operation === 'DELETE') {
      if (!a.name) return allow(); // DELETECOLLECTION: Gardener checks the request's (empty) name only
      const shoots = await shootsOn(listers, a.name);
      if (shoots.length === 0) return allow();
      return forbidden(a, `cannot delete seed ${a.name} since it is still used by shoot(s)`);
    }
    const seed = a.object;
    if (!seed) return allow();
    if (a.operation === 'UPDATE' && a.oldObject) {
      const decision = await validateSeedSpecUpdate(a.oldObject, seed, seed.metadata?.name ?? a.name ?? '', listers);
      if (!decision.allowed) return decision;
    }
    return validateBackupCredentials(a, seed, listers);
  },
};
