// Default domains: a seed offers shoots the default domains of its spec.dns.defaults. A shoot whose spec.dns.domain
// lies in one of them uses that default domain and must follow Gardener's scheme
// `<shoot-name>.<project-name>.<default-domain>`, so one project cannot take over another project's names; a seed
// whose default domain the shoot's domain lies in but breaks the scheme is ruled out. Shoots without a domain (it is
// assigned from the seed's defaults later) and shoots with their own domain fit any seed.
import type { Seed, Shoot } from '@gardener-ts/api';

/**
 * The name of the project owning a shoot's namespace: Gardener's project namespaces are `garden-<project>`, and the
 * `garden` namespace belongs to the project `garden`.
 */
export function projectNameOf(namespace: string | undefined): string | undefined {
  if (!namespace) return undefined;
  if (namespace === 'garden') return 'garden';
  return namespace.startsWith('garden-') ? namespace.slice('garden-'.length) : undefined;
}

/** Why the shoot's domain breaks the default-domain scheme of a default domain of the seed, or undefined. */
export function defaultDomainMismatch(seed: Seed, shoot: Shoot, projectName?: string): string | undefined {
  const domain = shoot.spec.dns?.domain;
  if (!domain) return undefined;
  const defaults = (seed.spec.dns?.defaults ?? []).map((d) => d.domain).filter((d): d is string => !!d);
  const used = defaults.find((d) => domain === d || domain.endsWith(`.${d}`));
  if (used === undefined) return undefined;
  const project = projectName ?? projectNameOf(shoot.metadata?.namespace);
  const expected = `${shoot.metadata?.name}.${project}.${used}`;
  if (project !== undefined && domain === expected) return undefined;
  return `shoot domain "${domain}" uses the seed's default domain "${used}" but does not match the scheme <shoot-name>.<project-name>.<default-domain> ("${expected}")`;
}
