// Gardener's ControllerInstallation seed reconciler: for one Seed, creates a ControllerInstallation for every
// ControllerRegistration the seed needs (`required.ts`), keeps their references and hash labels current, and deletes
// the installations that are no longer needed.
import { Labels as LabelKeys } from '@gardener-ts/api';
import {
  ignoreNotFound,
  Kinds,
  type Client,
  type ReconcileContext,
  type Request,
  type Secret,
  wrapError,
} from '@gardener-ts/controller-runtime';
import {
  BackupBucketKind,
  BackupEntryKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  SeedKind,
  ShootKind,
} from '../../../kinds.js';
import { applyInstallationPlan, specHash } from '../apply-plan.js';

export { ControllerDeploymentHash, RegistrationSpecHash, specHash } from '../apply-plan.js';
import { computeSeedNeeds, planInstallations, shootsOfSeed, type Domain } from './required.js';

/** Label on installations: hash of the seed's spec (like `pod-template-hash`). */
export const SeedSpecHash = 'seed-spec-hash';
/** The role label value of the garden's internal domain secret. */
export const RoleInternalDomain = 'internal-domain';
/** The role label value of the garden's default domain secrets. */
export const RoleDefaultDomain = 'default-domain';
/** Other roles Gardener's ReadGardenSecrets collects (alerting, monitoring, the shoot service account issuer). */
const OtherGardenSecretRoles: readonly string[] = [
  'alerting',
  'global-monitoring',
  'global-shoot-remote-write-monitoring',
  'shoot-service-account-issuer',
];
/** Gardener's ComputeGardenNamespace: a seed's namespace in the garden is `seed-<name>`. */
const SeedNamespacePrefix = 'seed-';
const DNSProviderAnnotation = 'dns.gardener.cloud/provider';
const DNSDomainAnnotation = 'dns.gardener.cloud/domain';

/** The garden secrets of one namespace as Gardener's ReadGardenSecrets classifies them. */
export interface GardenSecrets {
  internal?: Domain;
  defaults: Domain[];
  /** How many Secrets were collected (domain Secrets only with both DNS annotations); 0: nothing synchronized. */
  count: number;
}

/** Gardener's GetDomainInfoFromAnnotations (provider and domain part): both annotations must be set. */
function domainOf(s: Secret): Domain | undefined {
  const provider = s.metadata?.annotations?.[DNSProviderAnnotation];
  const domain = s.metadata?.annotations?.[DNSDomainAnnotation];
  return provider && domain ? { provider, domain } : undefined;
}

/**
 * Gardener's ReadGardenSecrets over the role-labelled Secrets of a namespace: the internal domain (the last valid one),
 * the default domains, and the number of Secrets collected. Domain Secrets without provider or domain annotation are
 * skipped, as Gardener logs and skips them.
 */
export function readGardenSecrets(secrets: readonly Secret[]): GardenSecrets {
  const out: GardenSecrets = { defaults: [], count: 0 };
  for (const secret of secrets) {
    const role = secret.metadata?.labels?.[LabelKeys.GardenRole];
    if (role === RoleInternalDomain || role === RoleDefaultDomain) {
      const domain = domainOf(secret);
      if (!domain) continue;
      if (role === RoleInternalDomain) out.internal = domain;
      else out.defaults.push(domain);
      out.count++;
    } else if (role !== undefined && OtherGardenSecretRoles.includes(role)) {
      out.count++;
    }
  }
  return out;
}

/** The seed whose garden namespace (`seed-<name>`, Gardener's ComputeGardenNamespace) holds an object. */
export function seedOfNamespace(namespace: string | undefined): string | undefined {
  return namespace?.startsWith(SeedNamespacePrefix) && namespace.length > SeedNamespacePrefix.length
    ? namespace.slice(SeedNamespacePrefix.length)
    : undefined;
}

export interface ControllerRegistrationSeedReconcilerOptions {
  /** Cached reads, live writes. */
  client: Client;
  /** Live reads of ControllerInstallations: a stale cache would create a second installation for the same pair. */
  api: Client;
  /**
   * Namespace of the garden's own domain secrets (`garden`). The reconciler reads their copies in `seed-<name>`; the
   * originals only tell whether copies are still to come.
   */
  gardenNamespace: string;
}

/** Reconciles one Seed's ControllerInstallations. */
export class ControllerRegistrationSeedReconciler {
  constructor(private readonly o: ControllerRegistrationSeedReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const seed = await this.o.client.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seed) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const seedName = seed.metadata!.name!;
    const [registrations, installations, buckets, entries, shoots] = await Promise.all([
      this.o.client.list(ControllerRegistrationKind),
      this.o.api.list(ControllerInstallationKind),
      this.o.client.list(BackupBucketKind),
      this.o.client.list(BackupEntryKind),
      this.o.client.list(ShootKind),
    ]);
    const domains = await this.seedGardenSecrets(seedName);
    const needs = computeSeedNeeds({
      seed,
      registrations: registrations.items,
      installations: installations.items,
      shoots: shootsOfSeed(shoots.items, seedName),
      backupBuckets: buckets.items.filter((b) => b.spec.seedName === seedName),
      backupEntries: entries.items.filter((e) => e.spec.seedName === seedName),
      ...(domains.internal ? { internalDomain: domains.internal } : {}),
      defaultDomains: domains.defaults,
    });
    if (!needs.ok) throw new Error(needs.error);

    const plan = planInstallations(seedName, needs.registrations, registrations.items, installations.items);
    const existing = new Map(
      installations.items
        .filter((i) => i.spec.seedRef?.name === seedName)
        .map((i) => [i.spec.registrationRef.name ?? '', i]),
    );
    await applyInstallationPlan(
      plan,
      registrations.items,
      {
        existing,
        ref: { seedRef: { name: seedName, resourceVersion: seed.metadata!.resourceVersion! } },
        specHashLabel: [SeedSpecHash, specHash(seed.spec)],
      },
      this.o.client,
      ctx.log,
    );
  }

  /**
   * The garden secrets of the seed: the copies in `seed-<name>` that the seed-secrets controller keeps (Gardener's
   * ReadGardenSecrets there). None there while the garden has some: not synchronized yet, an error (retried with
   * back-off, and at once when a copy arrives). None in the garden either: nothing to wait for, no domains (Gardener
   * would fail until one exists).
   */
  private async seedGardenSecrets(seedName: string): Promise<GardenSecrets> {
    // Read from the API server: the manager caches Secrets of the garden namespace only.
    const list = (namespace: string) =>
      this.o.api.list(Kinds.Secret, { namespace, labelSelector: LabelKeys.GardenRole }).then(
        (l) => readGardenSecrets(l.items),
        (err: unknown) => {
          throw wrapError(err, `failed to list the garden secrets in namespace ${namespace}`);
        },
      );
    const copies = await list(`${SeedNamespacePrefix}${seedName}`);
    if (copies.count > 0) return copies;
    const originals = await list(this.o.gardenNamespace);
    if (originals.count > 0) throw new Error(`garden secrets for seed "${seedName}" have not been synchronized yet`);
    return copies;
  }
}
