// Which webhooks a request goes to (kube's admission webhook matching): rules (operations, groups, versions,
// resources with subresources, scope), the namespace selector and the object selector.
import { matchesLabelSelector } from '../api/selectors.js';
import type { KubeObject } from '../storage/types.js';
import type { WriteRequest } from '../server/pipeline.js';

const any = (list: string[] | undefined, value: string) => (list ?? []).some((v) => v === '*' || v === value);

function resourceMatches(resources: string[] | undefined, resource: string, subresource: string): boolean {
  return (resources ?? []).some((r) => {
    if (r === '*/*') return true;
    const [res, sub = ''] = r.split('/');
    if (res !== '*' && res !== resource) return false;
    return sub === '*' || sub === subresource;
  });
}

export function rulesMatch(webhook: KubeObject, r: WriteRequest): boolean {
  const d = r.definition;
  return (webhook.rules ?? []).some((rule: KubeObject) => {
    const scope = rule.scope ?? '*';
    if (scope === 'Cluster' && d.namespaced) return false;
    if (scope === 'Namespaced' && !d.namespaced) return false;
    return (
      any(rule.operations, r.operation) &&
      any(rule.apiGroups, d.group) &&
      any(rule.apiVersions, d.version) &&
      resourceMatches(rule.resources, d.resource, r.subresource)
    );
  });
}

/** namespaceSelector: namespaced objects by their namespace's labels, Namespaces by their own; others always match. */
export function namespaceMatches(
  webhook: KubeObject,
  r: WriteRequest,
  namespaceLabels: Record<string, string> | undefined,
): boolean {
  const selector = webhook.namespaceSelector ?? {};
  if (r.definition.group === '' && r.definition.resource === 'namespaces') {
    return matchesLabelSelector(selector, (r.object ?? r.oldObject)?.metadata?.labels ?? {});
  }
  if (!r.definition.namespaced) return true;
  return matchesLabelSelector(selector, namespaceLabels ?? {});
}

/** objectSelector: the new or the old object's labels. */
export function objectMatches(webhook: KubeObject, r: WriteRequest): boolean {
  const selector = webhook.objectSelector ?? {};
  const candidates = [r.operation === 'DELETE' ? undefined : r.object, r.oldObject].filter(Boolean) as KubeObject[];
  return candidates.some((o) => matchesLabelSelector(selector, o.metadata?.labels ?? {}));
}
