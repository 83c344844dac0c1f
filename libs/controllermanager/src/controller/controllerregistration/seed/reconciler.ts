// Gardener's ControllerInstallation seed reconciler: for one Seed, creates a ControllerInstallation for every
// ControllerRegistration the seed needs (`required.ts`), keeps their references and hash labels current, and deletes
// the installations that are no longer needed.
import { createHash } from 'node:crypto';
import {
  Labels as LabelKeys,
  type ControllerDeployment,
  type ControllerInstallation,
  type ControllerRegistration,
  type Seed,
} from '@gardener-ts/api';
import {
  ignoreNotFound,
  isNotFound,
  Kinds,
  type Client,
  type ReconcileContext,
  type Request,
  type Secret,
} from '@gardener-ts/controller-runtime';
import {
  BackupBucketKind,
  BackupEntryKind,
  ControllerDeploymentKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  SeedKind,
  ShootKind,
} from '../../../kinds.js';
import { computeSeedNeeds, planInstallations, shootsOfSeed, type Domain } from './required.js';

/** Label on installations: hash of the seed's spec (like `pod-template-hash`). */
export const SeedSpecHash = 'seed-spec-hash';
/** Label on installations: hash of the registration's spec. */
export const RegistrationSpecHash = 'registration-spec-hash';
/** Label on installations: hash of the deployment's relevant fields. */
export const ControllerDeploymentHash = 'deployment-hash';

/** The role label value of the garden's internal domain secret. */
const RoleInternalDomain = 'internal-domain';
/** The role label value of the garden's default domain secrets. */
const RoleDefaultDomain = 'default-domain';
const DNSProviderAnnotation = 'dns.gardener.cloud/provider';
const DNSDomainAnnotation = 'dns.gardener.cloud/domain';

/** The first 16 hex digits of the SHA-256 of a value's canonical JSON (sorted keys). */
export function specHash(value: unknown): string {
  return createHash('sha256').update(canonicalJSON(value)).digest('hex').slice(0, 16);
}

function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Reads the garden's internal and default domains from the Secrets in `garden` labelled with their role. */
export function gardenDomains(secrets: readonly Secret[]): { internal?: Domain; defaults: Domain[] } {
  const domainOf = (s: Secret): Domain | undefined => {
    const provider = s.metadata?.annotations?.[DNSProviderAnnotation];
    const domain = s.metadata?.annotations?.[DNSDomainAnnotation] ?? '';
    return provider ? { provider, domain } : undefined;
  };
  const withRole = (role: string) => secrets.filter((s) => s.metadata?.labels?.[LabelKeys.GardenRole] === role);
  const internal = withRole(RoleInternalDomain)
    .map(domainOf)
    .find((d) => d !== undefined);
  const defaults = withRole(RoleDefaultDomain)
    .map(domainOf)
    .filter((d): d is Domain => d !== undefined);
  return { ...(internal ? { internal } : {}), defaults };
}

export interface ControllerRegistrationSeedReconcilerOptions {
  /** Cached reads, live writes. */
  client: Client;
  /** Live reads of ControllerInstallations: a stale cache would create a second installation for the same pair. */
  api: Client;
  /** Namespace of the garden's domain secrets. */
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
    const [registrations, installations, buckets, entries, shoots, secrets] = await Promise.all([
      this.o.client.list(ControllerRegistrationKind),
      this.o.api.list(ControllerInstallationKind),
      this.o.client.list(BackupBucketKind),
      this.o.client.list(BackupEntryKind),
      this.o.client.list(ShootKind),
      this.o.client
        .list(Kinds.Secret, { namespace: this.o.gardenNamespace, labelSelector: LabelKeys.GardenRole })
        .catch(() => ({ items: [] as Secret[] })),
    ]);
    const domains = gardenDomains(secrets.items);
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
    const byName = new Map(registrations.items.map((r) => [r.metadata!.name!, r]));
    const existing = new Map(
      installations.items
        .filter((i) => i.spec.seedRef?.name === seedName)
        .map((i) => [i.spec.registrationRef.name ?? '', i]),
    );
    for (const name of plan.skipped) {
      ctx.log.info(
        { controllerRegistrationName: name },
        'Not creating or updating ControllerInstallation for ControllerRegistration because it is in deletion',
      );
    }
    for (const name of plan.deploy) {
      ctx.log.info(
        { controllerRegistrationName: name },
        'Deploying wanted ControllerInstallation for ControllerRegistration',
      );
      await this.deploy(seed, byName.get(name)!, existing.get(name));
    }
    for (const installation of plan.delete) {
      ctx.log.info(
        {
          controllerRegistrationName: installation.spec.registrationRef.name,
          controllerInstallationName: installation.metadata?.name,
        },
        'Deleting unneeded ControllerInstallation for ControllerRegistration',
      );
      await this.o.client
        .delete(ControllerInstallationKind, { name: installation.metadata!.name! })
        .catch(ignoreNotFound);
    }
    if (plan.blocked.length > 0) {
      throw new Error(
        `cannot deploy new ControllerInstallation for "${plan.blocked.join('", "')}" because the deletion of the old ControllerInstallation is still pending`,
      );
    }
  }

  private async deploy(
    seed: Seed,
    registration: ControllerRegistration,
    existing: ControllerInstallation | undefined,
  ): Promise<void> {
    const registrationName = registration.metadata!.name!;
    let deployment: ControllerDeployment | undefined;
    const ref = registration.spec.deployment?.deploymentRefs?.[0];
    if (ref) {
      deployment = await this.o.client.get(ControllerDeploymentKind, { name: ref.name }).catch((err: unknown) => {
        throw new Error(
          `cannot deploy ControllerInstallation because the referenced ControllerDeployment cannot be retrieved: ${(err as Error).message}`,
          { cause: err },
        );
      });
    }
    const labels: Record<string, string> = {
      [SeedSpecHash]: specHash(seed.spec),
      [RegistrationSpecHash]: specHash(registration.spec),
      ...(deployment
        ? {
            [ControllerDeploymentHash]: specHash({
              helm: deployment.helm,
              injectGardenKubeconfig: deployment.injectGardenKubeconfig,
            }),
          }
        : {}),
    };
    const spec: ControllerInstallation['spec'] = {
      seedRef: { name: seed.metadata!.name!, resourceVersion: seed.metadata!.resourceVersion! },
      registrationRef: { name: registrationName, resourceVersion: registration.metadata!.resourceVersion! },
      ...(deployment
        ? {
            deploymentRef: { name: deployment.metadata!.name!, resourceVersion: deployment.metadata!.resourceVersion! },
          }
        : {}),
    };
    if (existing) {
      await this.o.client
        .patch(
          ControllerInstallationKind,
          { name: existing.metadata!.name! },
          { type: 'merge', patch: { metadata: { labels }, spec } },
        )
        .catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
      return;
    }
    await this.o.client.create<ControllerInstallation>({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerInstallation',
      metadata: { generateName: `${registrationName}-`, labels },
      spec,
    });
  }
}
