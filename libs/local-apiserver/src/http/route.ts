// Parses a request path into what it addresses: discovery, a collection, an object or a subresource.
export type Route =
  | { type: 'root' }
  | { type: 'version' }
  | { type: 'health'; check: 'healthz' | 'livez' | 'readyz' }
  | { type: 'metrics' }
  | { type: 'openapi'; version: 'v2' | 'v3'; path: string }
  | { type: 'legacy-versions' }
  | { type: 'groups' }
  | { type: 'group'; group: string }
  | { type: 'resource-list'; group: string; version: string }
  | {
      type: 'resource';
      group: string;
      version: string;
      resource: string;
      namespace: string;
      name: string;
      subresource: string;
    }
  | { type: 'unknown' };

/** Subresources of the namespaces resource itself (`/api/v1/namespaces/{name}/status`). */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export function parseRoute(pathname: string): Route {
  const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [first, ...rest] = segments;
  switch (first) {
    case undefined:
      return { type: 'root' };
    case 'version':
      return rest.length === 0 ? { type: 'version' } : { type: 'unknown' };
    case 'healthz':
    case 'livez':
    case 'readyz':
      return { type: 'health', check: first };
    case 'metrics':
      return { type: 'metrics' };
    case 'openapi':
      if (rest[0] === 'v2') return { type: 'openapi', version: 'v2', path: '' };
      if (rest[0] === 'v3') return { type: 'openapi', version: 'v3', path: rest.slice(1).join('/') };
      return { type: 'unknown' };
    case 'api':
      if (rest.length === 0) return { type: 'legacy-versions' };
      return resourcePath('', rest[0], rest.slice(1));
    case 'apis':
      if (rest.length === 0) return { type: 'groups' };
      if (rest.length === 1) return { type: 'group', group: rest[0] };
      return resourcePath(rest[0], rest[1], rest.slice(2));
    default:
      return { type: 'unknown' };
  }
}

function resourcePath(group: string, version: string, parts: string[]): Route {
  if (parts.length === 0) return { type: 'resource-list', group, version };
  const base = { type: 'resource' as const, group, version, namespace: '', name: '', subresource: '' };
  if (
    parts[0] === 'namespaces' &&
    group === '' &&
    (parts.length <= 2 || (parts.length === 3 && NAMESPACE_SUBRESOURCES.has(parts[2])))
  ) {
    return { ...base, resource: 'namespaces', name: parts[1] ?? '', subresource: parts[2] ?? '' };
  }
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    const [, namespace, resource, name = '', subresource = '', ...extra] = parts;
    if (extra.length > 0) return { type: 'unknown' };
    return { ...base, namespace, resource, name, subresource };
  }
  const [resource, name = '', subresource = '', ...extra] = parts;
  if (extra.length > 0) return { type: 'unknown' };
  return { ...base, resource, name, subresource };
}
