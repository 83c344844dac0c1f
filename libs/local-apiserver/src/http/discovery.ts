// Discovery documents: legacy (/api, /apis, per group-version APIResourceList) and aggregated (apidiscovery v2).
import { createHash } from 'node:crypto';
import type { Registry } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/types.js';

export const AGGREGATED_DISCOVERY_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

export function wantsAggregated(accept: string | undefined): boolean {
  return !!accept && accept.split(',')[0].replace(/\s/g, '').startsWith('application/json;g=apidiscovery.k8s.io;v=v2');
}

export function legacyVersions(serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function groupList(registry: Registry) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry
      .groups()
      .filter((g) => g.name !== '')
      .map((g) => apiGroup(g.name, g.versions)),
  };
}

export function group(registry: Registry, name: string) {
  const g = registry.groups().find((x) => x.name === name);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g.name, g.versions) } : undefined;
}

function apiGroup(name: string, versions: string[]) {
  const gv = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: gv, preferredVersion: gv[0] };
}

export function resourceList(registry: Registry, groupName: string, version: string) {
  const defs = served(registry, groupName, version);
  if (defs.length === 0) return undefined;
  const resources = defs.flatMap((d) => [
    {
      name: d.resource,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: d.verbs,
      ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
      ...(d.categories?.length ? { categories: d.categories } : {}),
      storageVersionHash: storageVersionHash(d),
    },
    ...subresources(d).map((s) => ({
      name: `${d.resource}/${s.name}`,
      singularName: '',
      namespaced: d.namespaced,
      ...(s.group !== undefined ? { group: s.group, version: s.version } : {}),
      kind: s.kind,
      verbs: s.verbs,
    })),
  ]);
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupName ? `${groupName}/${version}` : version,
    resources,
  };
}

/** The aggregated document for /api (legacy: true) or /apis. */
export function aggregated(registry: Registry, legacy: boolean) {
  const items = registry
    .groups()
    .filter((g) => (legacy ? g.name === '' : g.name !== ''))
    .map((g) => ({
      metadata: legacy ? { creationTimestamp: null } : { name: g.name, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: served(registry, g.name, v).map((d) => ({
          resource: d.resource,
          responseKind: { group: '', version: '', kind: d.kind },
          scope: d.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: d.singular,
          verbs: d.verbs,
          ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
          ...(d.categories?.length ? { categories: d.categories } : {}),
          ...(subresources(d).length
            ? {
                subresources: subresources(d).map((s) => ({
                  subresource: s.name,
                  responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind },
                  verbs: s.verbs,
                })),
              }
            : {}),
        })),
        freshness: 'Current',
      })),
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
}

function served(registry: Registry, groupName: string, version: string): ResourceDefinition[] {
  return registry
    .all()
    .filter((d) => d.group === groupName && d.version === version && d.served)
    .sort((a, b) => a.resource.localeCompare(b.resource));
}

interface Subresource {
  name: string;
  kind: string;
  verbs: string[];
  group?: string;
  version?: string;
}

const OTHER_SUBRESOURCES: Record<string, Omit<Subresource, 'name'>> = {
  binding: { kind: 'Binding', verbs: ['create'] },
  eviction: { kind: 'Eviction', verbs: ['create'], group: 'policy', version: 'v1' },
  log: { kind: 'Pod', verbs: ['get'] },
  exec: { kind: 'PodExecOptions', verbs: ['create', 'get'] },
  attach: { kind: 'PodAttachOptions', verbs: ['create', 'get'] },
  portforward: { kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
  ephemeralcontainers: { kind: 'Pod', verbs: ['get', 'patch', 'update'] },
  resize: { kind: 'Pod', verbs: ['get', 'patch', 'update'] },
  token: { kind: 'TokenRequest', verbs: ['create'], group: 'authentication.k8s.io', version: 'v1' },
  approval: { kind: 'CertificateSigningRequest', verbs: SUBRESOURCE_VERBS },
  finalize: { kind: 'Namespace', verbs: ['update'] },
};

function subresources(d: ResourceDefinition): Subresource[] {
  const list: Subresource[] = [];
  for (const name of d.subresources.others ?? []) {
    const known = OTHER_SUBRESOURCES[name];
    if (known)
      list.push({
        name,
        ...known,
        kind:
          known.kind === 'Pod' || known.kind === 'Namespace' || known.kind === 'CertificateSigningRequest'
            ? d.kind
            : known.kind,
      });
  }
  if (d.subresources.scale)
    list.push({ name: 'scale', kind: 'Scale', verbs: SUBRESOURCE_VERBS, group: 'autoscaling', version: 'v1' });
  if (d.subresources.status) list.push({ name: 'status', kind: d.kind, verbs: SUBRESOURCE_VERBS });
  return list.sort((a, b) => a.name.localeCompare(b.name));
}

function storageVersionHash(d: ResourceDefinition): string {
  return createHash('sha256')
    .update(`${d.storage?.group ?? d.group}/${d.storageVersion}/${d.kind}`)
    .digest('base64')
    .slice(0, 11);
}
