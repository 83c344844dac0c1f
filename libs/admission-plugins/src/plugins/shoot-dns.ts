// ShootDNS (gardener-apiserver plugin/pkg/shoot/dns). Mutating, once a Shoot is bound to a seed (created with
// `spec.seedName`, or the update that binds it): a Shoot without `spec.dns.domain` whose DNS is not `unmanaged` gets
// `<shoot>.<project>.<default domain>` from the first default domain — the seed's `spec.dns.defaults` when it has any,
// else the `gardener.cloud/role=default-domain` Secrets of the `garden` namespace, highest
// `dns.gardener.cloud/domain-default-priority` first; a Shoot with another domain gets its first DNS provider marked
// primary; an update that drops the old primary flag gets it back. Validating: a domain under a default domain must be
// exactly `<shoot>.<project>.<default domain>` (`<random>.<project>.<default domain>` for a generated name) when it is
// set at creation or before the Shoot was bound, and a default domain has no primary provider.
import { randomInt } from 'node:crypto';
import { FieldPath, invalid, type FieldError } from '@gardener-ts/api';
import {
  allow,
  CORE,
  internalError,
  invalidObject,
  isKind,
  mutated,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

export const DefaultDomainRole = 'default-domain';
export const DNSDomainAnnotation = 'dns.gardener.cloud/domain';
/** The annotation ordering the garden's default domains (an integer; higher first, 0 when absent or not a number). */
export const DNSDefaultDomainPriorityAnnotation = 'dns.gardener.cloud/domain-default-priority';
/** The DNS provider type of a shoot whose DNS Gardener does not manage. */
export const DNSUnmanaged = 'unmanaged';

const priorityOf = (s: KubeObject) => {
  const parsed = Number.parseInt(s.metadata?.annotations?.[DNSDefaultDomainPriorityAnnotation] ?? '', 10);
  return Number.isNaN(parsed) ? 0 : parsed;
};

/**
 * The default domains of the garden (`default-domain` Secrets of `garden` with a domain annotation), highest
 * priority first; equal priorities in the order of the Secrets' names.
 */
export async function defaultDomains(listers: Listers): Promise<string[]> {
  const secrets = await listers.list('v1', 'Secret', 'garden');
  return secrets
    .filter(
      (s) =>
        s.metadata?.labels?.['gardener.cloud/role'] === DefaultDomainRole &&
        s.metadata?.annotations?.[DNSDomainAnnotation],
    )
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))
    .sort((a, b) => priorityOf(b) - priorityOf(a))
    .map((s) => s.metadata!.annotations![DNSDomainAnnotation]!);
}

/** The default domains for a shoot: its seed's `spec.dns.defaults` when it is bound to one that has any. */
async function shootDefaultDomains(shoot: KubeObject, listers: Listers): Promise<string[] | { error: string }> {
  const seedName: string | undefined = shoot.spec?.seedName;
  if (seedName) {
    const seed = await listers.get('core.gardener.cloud/v1beta1', 'Seed', seedName);
    if (!seed) return { error: `could not get seed ${seedName}: seed.core.gardener.cloud "${seedName}" not found` };
    const defaults: { domain?: string }[] = seed.spec?.dns?.defaults ?? [];
    if (defaults.length > 0) return defaults.map((d) => d.domain ?? '');
  }
  return defaultDomains(listers);
}

async function projectName(namespace: string | undefined, listers: Listers): Promise<string | undefined> {
  const projects = await listers.list('core.gardener.cloud/v1beta1', 'Project');
  return projects.find((p: KubeObject) => p.spec?.namespace === namespace)?.metadata?.name;
}

type DNSProvider = { primary?: boolean; type?: string; secretName?: string };
const providersOf = (shoot: KubeObject | null | undefined): DNSProvider[] => shoot?.spec?.dns?.providers ?? [];
const primaryOf = (shoot: KubeObject | null | undefined) => providersOf(shoot).find((p) => p.primary === true);

/** Gardener's ShootUsesUnmanagedDNS: the primary provider (else the first one) is of type `unmanaged`. */
export function usesUnmanagedDNS(shoot: KubeObject): boolean {
  return (primaryOf(shoot) ?? providersOf(shoot)[0])?.type === DNSUnmanaged;
}

const isDefaultDomain = (domain: string, defaults: readonly string[]) => defaults.some((d) => domain.endsWith(`.${d}`));

// Gardener's GenerateRandomStringFromCharset for a shoot created with generateName: lower-case letters and digits.
const randomDNSName = (length: number) =>
  Array.from({ length }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[randomInt(36)]).join('');

const handlesShoot = (a: AdmissionAttributes) =>
  isKind(a, CORE, 'Shoot') &&
  (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
  (!a.subresource || a.subresource === 'binding') &&
  Boolean(a.object) &&
  !a.object?.metadata?.deletionTimestamp;

/** The ShootDNS admission plugin. */
export const ShootDNS: AdmissionPlugin = {
  name: 'ShootDNS',
  handles: handlesShoot,
  async admit(a, listers) {
    const shoot: KubeObject = structuredClone(a.object!);
    let changed = false;
    const defaults = await shootDefaultDomains(shoot, listers);
    if ('error' in defaults) return internalError(defaults.error);

    // An update that drops the old primary flag: the provider with the old primary's type and secret gets it back.
    const oldPrimary = a.operation === 'UPDATE' ? primaryOf(a.oldObject) : undefined;
    if (oldPrimary && shoot.spec?.dns && !primaryOf(shoot)) {
      const same = providersOf(shoot).find((p) => p.type === oldPrimary.type && p.secretName === oldPrimary.secretName);
      if (same) {
        same.primary = true;
        changed = true;
      }
    }
    if (!shoot.spec?.seedName) return changed ? mutated(shoot) : allow();

    if (!usesUnmanagedDNS(shoot) && defaults.length > 0 && !shoot.spec.dns?.domain) {
      const project = await projectName(shoot.metadata?.namespace ?? a.namespace, listers);
      if (!project) return internalError(`no project for namespace "${shoot.metadata?.namespace ?? a.namespace}"`);
      const generateName = shoot.metadata?.generateName ?? '';
      const name = shoot.metadata?.name || (generateName ? randomDNSName(generateName.length + 5) : '');
      shoot.spec.dns = { ...shoot.spec.dns, domain: `${name}.${project}.${defaults[0]}` };
      changed = true;
    }
    // A domain of its own: its first provider is the primary one unless one is marked.
    const dns = shoot.spec.dns;
    if (dns?.domain && !isDefaultDomain(dns.domain, defaults) && !primaryOf(shoot) && providersOf(shoot).length > 0) {
      dns.providers[0].primary = true;
      changed = true;
    }
    return changed ? mutated(shoot) : allow();
  },
  async validate(a, listers) {
    const shoot = a.object!;
    const defaults = await shootDefaultDomains(shoot, listers);
    if ('error' in defaults) return internalError(defaults.error);
    const domain: string | undefined = shoot.spec?.dns?.domain;
    const errors: FieldError[] = [];
    if (domain && isDefaultDomain(domain, defaults)) {
      providersOf(shoot).forEach((p, i) => {
        if (p.primary === true)
          errors.push(
            invalid(
              FieldPath.root('spec', 'dns', 'providers').index(i).child('primary'),
              true,
              'primary dns provider must not be set when default domain is used',
            ),
          );
      });
    }
    // On updates only a domain set now, or before the shoot was bound: older shoots keep the domain they run with.
    const old = a.oldObject;
    const checkFormat =
      Boolean(domain) &&
      !usesUnmanagedDNS(shoot) &&
      (a.operation === 'CREATE' || !old?.spec?.seedName || !old?.spec?.dns?.domain);
    if (checkFormat) {
      const format = await defaultDomainFormat(a, shoot, domain!, defaults, listers);
      if ('error' in format) return format.error;
      errors.push(...format.errors);
    }
    return errors.length > 0 ? invalidObject(a, errors) : allow();
  },
};

/** Gardener's checkDefaultDomainFormat: a domain under a default domain follows the default-domain scheme. */
async function defaultDomainFormat(
  a: AdmissionAttributes,
  shoot: KubeObject,
  domain: string,
  defaults: readonly string[],
  listers: Listers,
): Promise<{ errors: FieldError[] } | { error: AdmissionDecision }> {
  const base = defaults.find((d) => domain.endsWith(`.${d}`));
  if (!base) return { errors: [] };
  const project = await projectName(shoot.metadata?.namespace ?? a.namespace, listers);
  if (!project)
    return { error: internalError(`no project for namespace "${shoot.metadata?.namespace ?? a.namespace}"`) };
  const path = FieldPath.root('spec', 'dns', 'domain');
  const name = shoot.metadata?.name ?? '';
  const generateName = shoot.metadata?.generateName ?? '';
  if (generateName && (!name || name.startsWith(generateName))) {
    const suffix = `.${project}.${base}`;
    if (domain.endsWith(suffix)) return { errors: [] };
    return {
      errors: [
        invalid(
          path,
          domain,
          `shoot with 'metadata.generateName' uses a default domain but does not match expected scheme: <random-subdomain>.<project-name>.<default-domain> (expected '${suffix}' to be a suffix of '${domain}')`,
        ),
      ],
    };
  }
  const expected = `${name}.${project}.${base}`;
  if (domain === expected) return { errors: [] };
  return {
    errors: [
      invalid(
        path,
        domain,
        `shoot uses a default domain but does not match expected scheme: <shoot-name>.<project-name>.<default-domain> (expected '${expected}', but got '${domain}')`,
      ),
    ],
  };
}
