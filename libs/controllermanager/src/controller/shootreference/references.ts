// The Secrets and ConfigMaps a Shoot references (Gardener's shoot reference controller): DNS provider credentials,
// admission plugin kubeconfigs, structured authorization kubeconfigs and `spec.resources` Secrets; the audit policy,
// structured authentication and structured authorization ConfigMaps and `spec.resources` ConfigMaps. Pure.
import { isDeepStrictEqual } from 'node:util';
import type { Shoot } from '@gardener-ts/api';

type Resources = Shoot['spec']['resources'];
/** A DNS provider as stored: `credentialsRef` (newer API versions) or the deprecated `secretName`. */
type DNSProvider = NonNullable<NonNullable<Shoot['spec']['dns']>['providers']>[number] & {
  credentialsRef?: { apiVersion?: string; kind?: string; name?: string };
};

/** The names of the `spec.resources` entries referencing a core/v1 object of `kind`. */
export function resourceNames(resources: Resources, kind: 'Secret' | 'ConfigMap'): string[] {
  return (resources ?? [])
    .filter((r) => r.resourceRef.apiVersion === 'v1' && r.resourceRef.kind === kind)
    .map((r) => r.resourceRef.name);
}

/** Whether two `spec.resources` lists reference the same objects under the same names, in any order. */
export function resourcesEqual(a: Resources, b: Resources): boolean {
  const canonical = (r: Resources) =>
    JSON.stringify(
      (r ?? [])
        .map((x) => [x.name, x.resourceRef.apiVersion ?? '', x.resourceRef.kind, x.resourceRef.name])
        .sort((x, y) => (x.join('/') < y.join('/') ? -1 : 1)),
    );
  return canonical(a) === canonical(b);
}

function dnsSecretName(provider: DNSProvider): string | undefined {
  const ref = provider.credentialsRef;
  if (ref) return ref.apiVersion === 'v1' && ref.kind === 'Secret' ? ref.name : undefined;
  return provider.secretName;
}

/** The Secrets of the Shoot's namespace the Shoot references. */
export function shootSecretNames(shoot: Shoot): string[] {
  const apiServer = shoot.spec.kubernetes?.kubeAPIServer;
  const names = [
    ...((shoot.spec.dns?.providers ?? []) as DNSProvider[]).map(dnsSecretName),
    ...(apiServer?.admissionPlugins ?? []).map((p) => p.kubeconfigSecretName),
    ...(apiServer?.structuredAuthorization?.kubeconfigs ?? []).map((k) => k.secretName),
    ...resourceNames(shoot.spec.resources, 'Secret'),
  ];
  return names.filter((n): n is string => !!n);
}

/** The ConfigMaps of the Shoot's namespace the Shoot references. */
export function shootConfigMapNames(shoot: Shoot): string[] {
  const apiServer = shoot.spec.kubernetes?.kubeAPIServer;
  const names = [
    apiServer?.auditConfig?.auditPolicy?.configMapRef?.name,
    apiServer?.structuredAuthentication?.configMapName,
    apiServer?.structuredAuthorization?.configMapName,
    ...resourceNames(shoot.spec.resources, 'ConfigMap'),
  ];
  return names.filter((n): n is string => !!n);
}

/** Whether a field holding references changed between two versions of a Shoot. */
export function shootReferencesChanged(oldShoot: Shoot, newShoot: Shoot): boolean {
  const same = (a: unknown, b: unknown) => isDeepStrictEqual(a ?? null, b ?? null);
  const o = oldShoot.spec.kubernetes?.kubeAPIServer;
  const n = newShoot.spec.kubernetes?.kubeAPIServer;
  return (
    !same(oldShoot.spec.dns, newShoot.spec.dns) ||
    !same(o?.admissionPlugins, n?.admissionPlugins) ||
    !same(o?.auditConfig, n?.auditConfig) ||
    !same(o?.structuredAuthentication, n?.structuredAuthentication) ||
    !same(o?.structuredAuthorization, n?.structuredAuthorization) ||
    !resourcesEqual(oldShoot.spec.resources, newShoot.spec.resources)
  );
}
