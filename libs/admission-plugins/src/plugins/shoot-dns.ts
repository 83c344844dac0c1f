// ShootDNS (gardener-apiserver plugin/pkg/shoot/dns): a Shoot without its own DNS domain gets the garden's default
// domain — `<shoot>.<project>.<default domain>` from the first Secret in the `garden` namespace labelled
// `gardener.cloud/role=default-domain` (annotation `dns.gardener.cloud/domain`) — and a Shoot that names a domain
// under a default domain must use exactly that name.
import { FieldPath, invalid } from '@gardener-ts/api';
import {
  allow,
  CORE,
  forbiddenFields,
  isKind,
  mutated,
  type AdmissionAttributes,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

export const DefaultDomainRole = 'default-domain';
export const DNSDomainAnnotation = 'dns.gardener.cloud/domain';

/** The default domains of the garden, in the order of their Secrets' names. */
export async function defaultDomains(listers: Listers): Promise<string[]> {
  const secrets = await listers.list('v1', 'Secret', 'garden');
  return secrets
    .filter(
      (s) =>
        s.metadata?.labels?.['gardener.cloud/role'] === DefaultDomainRole &&
        s.metadata?.annotations?.[DNSDomainAnnotation],
    )
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))
    .map((s) => s.metadata!.annotations![DNSDomainAnnotation]!);
}

async function projectName(a: AdmissionAttributes, listers: Listers): Promise<string | undefined> {
  const projects = await listers.list('core.gardener.cloud/v1beta1', 'Project');
  return projects.find((p: KubeObject) => p.spec?.namespace === a.namespace)?.metadata?.name;
}

const hasPrimaryProvider = (shoot: KubeObject) =>
  (shoot.spec?.dns?.providers ?? []).some((p: { primary?: boolean }) => p.primary);

/** The ShootDNS admission plugin. */
export const ShootDNS: AdmissionPlugin = {
  name: 'ShootDNS',
  handles: (a) =>
    isKind(a, CORE, 'Shoot') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    !a.object?.metadata?.deletionTimestamp,
  async admit(a, listers) {
    const shoot = a.object!;
    if (shoot.spec?.dns?.domain || hasPrimaryProvider(shoot)) return allow();
    const [domain] = await defaultDomains(listers);
    const project = domain && (await projectName(a, listers));
    if (!domain || !project) return allow();
    return mutated({
      ...shoot,
      spec: { ...shoot.spec, dns: { ...shoot.spec.dns, domain: `${shoot.metadata?.name}.${project}.${domain}` } },
    });
  },
  async validate(a, listers) {
    const domain: string | undefined = a.object!.spec?.dns?.domain;
    if (!domain || (a.operation === 'UPDATE' && a.oldObject?.spec?.dns?.domain === domain)) return allow();
    const base = (await defaultDomains(listers)).find((d) => domain.endsWith(`.${d}`));
    if (!base) return allow();
    const project = await projectName(a, listers);
    const expected = `${a.object!.metadata?.name}.${project ?? ''}.${base}`;
    if (domain === expected) return allow();
    return forbiddenFields(a, [
      invalid(
        FieldPath.root('spec', 'dns', 'domain'),
        domain,
        `the domain is a subdomain of the default domain "${base}": it must be "${expected}"`,
      ),
    ]);
  },
};
