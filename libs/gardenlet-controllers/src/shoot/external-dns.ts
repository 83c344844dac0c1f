// The kube-apiserver's external DNS record (Gardener's `botanist/dnsrecord.go` with the shoot's external domain, and
// `utils/gardener`'s ReadGardenDefaultDomains and ConstructExternalDomain): a shoot's `spec.dns.domain` under one of
// the garden's default domains is served by that domain's provider and credentials — the Seed's `spec.dns.defaults`
// when it has any, else the `default-domain` Secrets the controller-manager copies into `seed-<name>` (highest
// `dns.gardener.cloud/domain-default-priority` first); any other domain by the shoot's primary DNS provider with its
// `secretName`. The DNSRecord `<shoot>-external` for `api.<domain>` points at the kube-apiserver's load balancer.
import { Kinds, type Client, type Secret } from '@gardener-ts/controller-runtime';
import { externalClusterDomain, type ShootValues } from '../component/values.js';
import { APIServerDNSRecordSteps, type DNSRecordProvider, type DNSRecordStepsOptions } from './dnsrecord-steps.js';

/** The `gardener.cloud/role` of the garden's default domain Secrets. */
export const DefaultDomainRole = 'default-domain';
/** Annotations of a domain Secret: its provider type, domain, optional zone and default-domain priority. */
export const DomainAnnotations = {
  provider: 'dns.gardener.cloud/provider',
  domain: 'dns.gardener.cloud/domain',
  zone: 'dns.gardener.cloud/zone',
  priority: 'dns.gardener.cloud/domain-default-priority',
} as const;
/** The DNS provider type of a shoot whose DNS Gardener does not manage. */
export const DNSUnmanaged = 'unmanaged';

/** A domain of the garden (or of a shoot) with what its DNS records are written with. */
export interface Domain extends DNSRecordProvider {
  readonly domain: string;
}

type DNSProvider = NonNullable<NonNullable<ShootValues['shoot']['spec']['dns']>['providers']>[number];

/** Gardener's FindPrimaryDNSProvider: the first provider marked primary (pure). */
export function primaryDNSProvider(shoot: ShootValues['shoot']): DNSProvider | undefined {
  return (shoot.spec.dns?.providers ?? []).find((p) => p.primary === true);
}

/** Gardener's ShootUsesUnmanagedDNS: the primary provider (else the first one) is of type `unmanaged` (pure). */
export function usesUnmanagedDNS(shoot: ShootValues['shoot']): boolean {
  const providers = shoot.spec.dns?.providers ?? [];
  const primary = primaryDNSProvider(shoot);
  return (primary ?? providers[0])?.type === DNSUnmanaged;
}

const priorityOf = (s: Secret) => {
  const parsed = Number.parseInt(s.metadata?.annotations?.[DomainAnnotations.priority] ?? '', 10);
  return Number.isNaN(parsed) ? 0 : parsed;
};

/**
 * The default domains of a namespace's `default-domain` Secrets, highest priority first (stable for equal ones);
 * a Secret without provider or domain annotation is an error naming it, as in Gardener (pure).
 */
export function defaultDomainsOfSecrets(secrets: readonly Secret[]): Domain[] {
  return secrets
    .filter((s) => s.metadata?.labels?.['gardener.cloud/role'] === DefaultDomainRole)
    .map((s, index) => ({ s, index }))
    .sort((a, b) => priorityOf(b.s) - priorityOf(a.s) || a.index - b.index)
    .map(({ s }) => {
      const annotations = s.metadata?.annotations ?? {};
      const provider = annotations[DomainAnnotations.provider];
      const domain = annotations[DomainAnnotations.domain];
      if (!provider || !domain) {
        throw new Error(
          `default domain Secret ${s.metadata?.namespace}/${s.metadata?.name} needs the annotations ${DomainAnnotations.provider} and ${DomainAnnotations.domain}`,
        );
      }
      const zone = annotations[DomainAnnotations.zone];
      return { domain, type: provider, ...(zone ? { zone } : {}), credentials: credentialsOf(s) };
    });
}

const credentialsOf = (s: Secret): DNSRecordProvider['credentials'] => ({
  ...(s.type ? { type: s.type } : {}),
  ...(s.data ? { data: s.data } : {}),
});

/** The garden namespace of a seed (Gardener's ComputeGardenNamespace). */
export const seedGardenNamespace = (seedName: string) => `seed-${seedName}`;

/**
 * Gardener's ReadGardenDefaultDomains: the Seed's `spec.dns.defaults` with their credentials when it has any, else the
 * `default-domain` Secrets in `seed-<name>` of the garden.
 */
export async function readDefaultDomains(
  garden: Pick<Client, 'get' | 'list'>,
  seed: ShootValues['seed'],
): Promise<Domain[]> {
  const defaults = seed.spec.dns.defaults ?? [];
  if (defaults.length > 0) {
    const domains: Domain[] = [];
    for (const d of defaults) {
      const ref = d.credentialsRef as { kind?: string; name?: string; namespace?: string };
      if (ref.kind !== 'Secret') {
        throw new Error(
          `seed ${seed.metadata?.name}: spec.dns.defaults credentialsRef of ${d.domain} is a ${ref.kind}; only Secrets are supported locally`,
        );
      }
      const secret = await garden.get(Kinds.Secret, { namespace: ref.namespace, name: ref.name ?? '' });
      domains.push({
        domain: d.domain,
        type: d.type,
        ...(d.zone ? { zone: d.zone } : {}),
        credentials: credentialsOf(secret),
      });
    }
    return domains;
  }
  const secrets = await garden.list(Kinds.Secret, {
    namespace: seedGardenNamespace(seed.metadata?.name ?? ''),
    labelSelector: { 'gardener.cloud/role': DefaultDomainRole },
  });
  return defaultDomainsOfSecrets(secrets.items);
}

/**
 * Gardener's ConstructExternalDomain (pure over what was read): undefined for a shoot without `spec.dns.domain`; the
 * default domain's provider for a domain under it; else the primary provider with `primarySecret` (the Secret its
 * `secretName` names). A domain with neither is an incomplete DNS configuration (thrown).
 */
export function externalDomainOf(
  shoot: ShootValues['shoot'],
  defaultDomains: readonly Domain[],
  primarySecret?: Secret,
): Domain | undefined {
  const domain = shoot.spec.dns?.domain;
  if (!domain) return undefined;
  const byDefault = defaultDomains.find((d) => domain.endsWith(`.${d.domain}`));
  if (byDefault) {
    return {
      domain,
      type: byDefault.type,
      ...(byDefault.zone ? { zone: byDefault.zone } : {}),
      credentials: byDefault.credentials,
    };
  }
  const primary = primaryDNSProvider(shoot);
  if (primary) {
    if (!primary.secretName) {
      throw new Error(
        `shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name}: the primary DNS provider has no secretName; the shoot's cloud provider credentials as DNS credentials are not supported locally`,
      );
    }
    if (!primarySecret) throw new Error(`the Secret ${primary.secretName} of the primary DNS provider was not read`);
    const zones = primary.zones?.include ?? [];
    return {
      domain,
      type: primary.type ?? '',
      ...(zones.length === 1 ? { zone: zones[0]! } : {}),
      credentials: credentialsOf(primarySecret),
    };
  }
  throw new Error(
    `shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name}: incomplete DNS configuration: the domain ${domain} is under no default domain of the garden and the shoot has no primary DNS provider`,
  );
}

/** Reads what the shoot's external domain is served with (the garden's default domains, the primary provider's Secret). */
export async function readExternalDomain(
  garden: Pick<Client, 'get' | 'list'>,
  values: Pick<ShootValues, 'shoot' | 'seed'>,
): Promise<Domain | undefined> {
  const { shoot } = values;
  if (!externalClusterDomain(values)) return undefined;
  const defaults = await readDefaultDomains(garden, values.seed);
  const primary = primaryDNSProvider(shoot);
  const underDefault = defaults.some((d) => shoot.spec.dns!.domain!.endsWith(`.${d.domain}`));
  const secret =
    !underDefault && primary?.secretName
      ? await garden.get(Kinds.Secret, { namespace: shoot.metadata?.namespace, name: primary.secretName })
      : undefined;
  return externalDomainOf(shoot, defaults, secret);
}

/**
 * Why the external DNS record steps do not run for a shoot, or undefined when they do (pure; Gardener's
 * NeedsExternalDNS plus the registration check): no domain, unmanaged DNS, a `nip.io` domain, or a provider type no
 * ControllerRegistration serves. `domain` is what {@link readExternalDomain} found (an Error when it failed: the
 * steps run, and fail with it).
 */
export function externalDNSSkipReason(
  shoot: ShootValues['shoot'],
  domain: Domain | Error | undefined,
  served: (type: string) => boolean,
): string | undefined {
  const name = shoot.spec.dns?.domain;
  if (!name) return 'the shoot has no external domain (spec.dns.domain)';
  if (usesUnmanagedDNS(shoot) || (domain && !(domain instanceof Error) && domain.type === DNSUnmanaged))
    return 'the shoot uses unmanaged DNS (spec.dns.providers): no external DNS record';
  if (name.endsWith('.nip.io')) return `the shoot's domain ${name} is a nip.io domain: no external DNS record`;
  if (domain && !(domain instanceof Error) && !served(domain.type))
    return `no ControllerRegistration in the garden serves DNSRecord of type ${domain.type}`;
  return undefined;
}

/** The external DNS record steps of one flow run. */
export class ExternalDNSRecordSteps {
  private readonly record: APIServerDNSRecordSteps;

  constructor(
    seed: Pick<Client, 'get' | 'patch' | 'delete'>,
    values: ShootValues,
    options: DNSRecordStepsOptions = {},
  ) {
    this.record = new APIServerDNSRecordSteps(seed, values, 'external', options);
  }

  /** "Deploying external domain DNS record": credentials, the record for `address`, the wait for its extension. */
  deploy(domain: Domain, address: string, signal: AbortSignal): Promise<void> {
    return this.record.deploy(domain, address, signal);
  }

  /** "Destroying external domain DNS record": the record (waited for until its extension released it), its Secret. */
  destroy(signal: AbortSignal): Promise<void> {
    return this.record.destroy(signal);
  }
}
