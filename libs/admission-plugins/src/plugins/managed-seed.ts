// ManagedSeed (gardener-apiserver plugin/pkg/managedseed/validator, a mutating plugin): a ManagedSeed lives in `garden`
// and registers an existing Shoot there that can host a seed (a DNS domain, no nginx-ingress addon, VPA, workers) and
// that no other ManagedSeed registers; the gardenlet's seed spec is defaulted from the Shoot and checked against it
// (`managed-seed-rules.ts`), zones against the Shoot's workers, and the `name.seed.gardener.cloud/<name>` labels are
// maintained (the Shoot's seed and the ManagedSeed's own). Refusals are Gardener's 422 Invalid.
import { FieldPath, invalid, required, type FieldError } from '@gardener-ts/api';
import {
  allow,
  internalError,
  invalidObject,
  isKind,
  mutated,
  SEEDMANAGEMENT,
  type AdmissionAttributes,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import {
  admitSeedSpec,
  createZoneErrors,
  objectKey,
  seedSpecOf,
  shootRegistrationError,
  updateZoneErrors,
  type SeedDNSProviderLookup,
} from './managed-seed-rules.js';
import { maintainSeedNameLabels, usesSeed } from './seed.js';
import { DefaultDomainRole, DNSDomainAnnotation, DNSUnmanaged } from './shoot-dns.js';

const DNSProviderAnnotation = 'dns.gardener.cloud/provider';

/** A failure Gardener turns into an internal error (500) rather than a field error. */
class InternalLookupError extends Error {}

/** The seed DNS provider of a Shoot's custom domain: its primary provider's type and secret, if it has one. */
async function customDomainProvider(shoot: KubeObject, listers: Listers): Promise<SeedDNSProviderLookup | undefined> {
  const primary = (shoot.spec?.dns?.providers ?? []).find((p: KubeObject) => p.primary === true);
  if (!primary) return undefined;
  if (!primary.type) return { error: `primary DNS provider of shoot ${objectKey(shoot)} does not have a type` };
  if (primary.type === DNSUnmanaged) return undefined;
  const namespace: string = shoot.metadata?.namespace ?? '';
  const provider = (secretRef: { name: string; namespace: string }) => ({
    provider: { type: primary.type, secretRef },
  });
  if (primary.secretName) return provider({ name: primary.secretName, namespace });
  const secretBindingName: string | undefined = shoot.spec?.secretBindingName;
  if (secretBindingName) {
    const binding = await listers.get('core.gardener.cloud/v1beta1', 'SecretBinding', secretBindingName, namespace);
    if (!binding) return { error: `secret binding ${namespace}/${secretBindingName} not found` };
    return provider({ name: binding.secretRef?.name ?? '', namespace: binding.secretRef?.namespace ?? '' });
  }
  const credentialsBindingName: string | undefined = shoot.spec?.credentialsBindingName;
  if (credentialsBindingName) {
    const binding = await listers.get(
      'security.gardener.cloud/v1alpha1',
      'CredentialsBinding',
      credentialsBindingName,
      namespace,
    );
    if (!binding) return { error: `credentials binding ${namespace}/${credentialsBindingName} not found` };
    return provider({ name: binding.credentialsRef?.name ?? '', namespace: binding.credentialsRef?.namespace ?? '' });
  }
  return { error: `cannot initialize a reference to the primary DNS provider secret of shoot ${objectKey(shoot)}` };
}

/** Gardener's GetDomainInfoFromAnnotations, provider and domain only. */
function domainInfo(secret: KubeObject): { provider: string; domain: string } {
  const annotations = secret.metadata?.annotations;
  if (!annotations) throw new InternalLookupError('domain secret has no annotations');
  const domain = annotations[DNSDomainAnnotation] ?? '';
  const provider = annotations[DNSProviderAnnotation] ?? '';
  if (!domain) throw new InternalLookupError('missing dns domain annotation on domain secret');
  if (!provider) throw new InternalLookupError('missing dns provider annotation on domain secret');
  return { provider, domain };
}

/** The seed DNS provider of a default domain: the `default-domain` Secret of `garden` the Shoot's domain ends with. */
async function defaultDomainProvider(shoot: KubeObject, listers: Listers): Promise<SeedDNSProviderLookup | undefined> {
  const secrets = (await listers.list('v1', 'Secret', 'garden')).filter(
    (s) => s.metadata?.labels?.['gardener.cloud/role'] === DefaultDomainRole,
  );
  for (const secret of secrets) {
    let info: { provider: string; domain: string };
    try {
      info = domainInfo(secret);
    } catch (err) {
      throw new InternalLookupError(
        `could not get domain info from domain secret annotations: ${(err as Error).message}`,
      );
    }
    if ((shoot.spec?.dns?.domain ?? '').endsWith(info.domain))
      return {
        provider: {
          type: info.provider,
          secretRef: { name: secret.metadata?.name ?? '', namespace: secret.metadata?.namespace ?? '' },
        },
      };
  }
  return undefined;
}

/** Gardener's getSeedDNSProvider: the custom domain's primary provider, else a matching default domain. */
async function seedDNSProvider(shoot: KubeObject, listers: Listers): Promise<SeedDNSProviderLookup> {
  const custom = await customDomainProvider(shoot, listers);
  if (custom) return custom;
  const fallback = await defaultDomainProvider(shoot, listers);
  if (fallback) return fallback;
  return { error: `domain of shoot ${objectKey(shoot)} is neither a custom domain nor a default domain` };
}

/** The ManagedSeed registering the Shoot `shootName` in `namespace` (Gardener's GetManagedSeed), if any. */
async function managedSeedFor(listers: Listers, namespace: string | undefined, shootName: string) {
  const managedSeeds = await listers.list('seedmanagement.gardener.cloud/v1alpha1', 'ManagedSeed', namespace);
  return managedSeeds.find((m) => m.spec?.shoot?.name === shootName);
}

async function admitManagedSeed(a: AdmissionAttributes, listers: Listers) {
  const managedSeed: KubeObject = structuredClone(a.object!);
  const refuse = (errors: FieldError[]) => invalidObject(a, errors);
  const namespace = managedSeed.metadata?.namespace ?? a.namespace;
  if (namespace !== 'garden')
    return refuse([invalid(FieldPath.root('metadata', 'namespace'), namespace ?? '', 'namespace must be garden')]);

  const shootPath = FieldPath.root('spec', 'shoot');
  const shootNamePath = shootPath.child('name');
  if (!managedSeed.spec?.shoot) return refuse([required(shootPath, 'shoot is required')]);
  const shootName: string = managedSeed.spec.shoot.name ?? '';
  if (!shootName) return refuse([required(shootNamePath, 'shoot name is required')]);
  const shoot = await listers.get('core.gardener.cloud/v1beta1', 'Shoot', shootName, namespace);
  if (!shoot) return refuse([invalid(shootNamePath, shootName, `shoot ${namespace}/${shootName} not found`)]);
  const unfit = shootRegistrationError(shoot);
  if (unfit) return refuse([invalid(shootNamePath, shootName, unfit)]);
  const other = await managedSeedFor(listers, namespace, shootName);
  if (other && other.metadata?.name !== managedSeed.metadata?.name)
    return refuse([
      invalid(
        shootNamePath,
        shootName,
        `shoot ${objectKey(shoot)} already registered as seed by managed seed ${objectKey(other)}`,
      ),
    ]);

  const errors: FieldError[] = [];
  const seedSpec = seedSpecOf(managedSeed);
  if (seedSpec) {
    let dns: SeedDNSProviderLookup | undefined;
    if (!seedSpec.dns?.provider) {
      try {
        dns = await seedDNSProvider(shoot, listers);
      } catch (err) {
        if (err instanceof InternalLookupError) return internalError(err.message);
        throw err;
      }
    }
    const admitted = admitSeedSpec(seedSpec, shoot, dns);
    managedSeed.spec.gardenlet.config.seedConfig.spec = admitted.spec;
    errors.push(...admitted.errors);
  }

  const labels = maintainSeedNameLabels(managedSeed.metadata?.labels, shoot.spec?.seedName, managedSeed.metadata?.name);
  if (labels) managedSeed.metadata = { ...managedSeed.metadata, labels };

  if (a.operation === 'CREATE') errors.push(...createZoneErrors(seedSpecOf(managedSeed), shoot));
  else {
    const name = managedSeed.metadata?.name;
    const shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot');
    const scheduled = shoots.some((s) => usesSeed(s, name));
    errors.push(...updateZoneErrors(seedSpecOf(a.oldObject ?? {}), seedSpecOf(managedSeed), shoot, scheduled));
  }
  if (errors.length > 0) return refuse(errors);
  return JSON.stringify(managedSeed) === JSON.stringify(a.object) ? allow() : mutated(managedSeed);
}

/** The ManagedSeed admission plugin. */
export const ManagedSeedValidator: AdmissionPlugin = {
  name: 'ManagedSeed',
  handles: (a) =>
    isKind(a, SEEDMANAGEMENT, 'ManagedSeed') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    !a.object?.metadata?.deletionTimestamp,
  admit: admitManagedSeed,
};
