// The uniqueness of Shoot DNS domains, which Gardener's ShootValidator checks (plugin/pkg/shoot/validator,
// validateDNSDomainUniqueness): no two Shoots in the garden may use the same `spec.dns.domain`, nor may one's domain be
// a subdomain of another's.
import { duplicate, FieldPath, forbidden, type FieldError, type Shoot } from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';

/** Whether one domain is the other or a subdomain of it (`a.example.com` and `example.com`, either way round). */
export function hasDomainIntersection(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length > b.length ? [b, a] : [a, b];
  return long.endsWith(short.startsWith('.') ? short : `.${short}`);
}

/**
 * The Shoot's `spec.dns.domain` against the domains of every other Shoot (`shoots`, all namespaces; the Shoot itself,
 * same namespace and name, is skipped): the same domain is a Duplicate, a sub- or superdomain is Forbidden. Only the
 * first clash is reported, as in Gardener.
 */
export function validateDNSDomainUniqueness(
  shoot: Shoot,
  namespace: string | undefined,
  shoots: readonly KubeObject[],
): FieldError[] {
  const domain = shoot.spec.dns?.domain;
  if (!domain) return [];
  const path = FieldPath.root('spec', 'dns', 'domain');
  for (const other of shoots) {
    if (other.metadata?.name === shoot.metadata?.name && (other.metadata?.namespace ?? namespace) === namespace)
      continue;
    const otherDomain: string | undefined = other.spec?.dns?.domain;
    if (!otherDomain) continue;
    if (otherDomain === domain) return [duplicate(path, domain)];
    if (hasDomainIntersection(otherDomain, domain))
      return [
        forbidden(path, 'the domain is already used by another shoot or it is a subdomain of an already used domain'),
      ];
  }
  return [];
}
