// kube's RBAC reconciliation (k8s.io/component-helpers/auth/rbac/reconciliation, used by kube-apiserver's
// storage_rbac post-start hook and `kubectl auth reconcile`), as a pure core: a bootstrap role that is missing is
// created; an existing one keeps its own permissions, labels and annotations and gets the expected rules it does
// not cover yet, broken down per verb/resource (kube's Covers); a role annotated
// `rbac.authorization.kubernetes.io/autoupdate: "false"` is left alone. Bindings get missing subjects; a binding
// whose roleRef differs is re-created.
import { jsonEqual } from '../api/meta.js';
import type { KubeObject } from '../storage/types.js';
import { AUTOUPDATE_ANNOTATION, type PolicyRule } from './bootstrap-policy.js';

/** What to do with one object: nothing, create it, update it to `object`, or delete and re-create it. */
export type Reconciliation = { action: 'none' } | { action: 'create' | 'update' | 'recreate'; object: KubeObject };

const has = (list: string[] | undefined, value: string) => (list ?? []).some((v) => v === '*' || v === value);

/** kube's BreakdownRule: one rule per group × resource × verb (× name), or per URL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const apiGroup of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames && rule.resourceNames.length > 0) {
          for (const name of rule.resourceNames)
            out.push({ apiGroups: [apiGroup], resources: [resource], resourceNames: [name], verbs: [verb] });
        } else out.push({ apiGroups: [apiGroup], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourceCovers(owner: string, resource: string): boolean {
  if (owner === '*' || owner === resource) return true;
  const [base, sub] = resource.split('/', 2);
  if (sub !== undefined && owner === `*/${sub}`) return true;
  return owner === `${base}/*` && sub !== undefined;
}

function urlCovers(owner: string, url: string): boolean {
  return owner === '*' || owner === url || (owner.endsWith('*') && url.startsWith(owner.slice(0, -1)));
}

/** Whether one (broken-down) rule is allowed by an owner rule (kube's ruleCovers). */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  if (!sub.verbs.every((v) => has(owner.verbs, v))) return false;
  if (sub.nonResourceURLs?.length)
    return sub.nonResourceURLs.every((u) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, u)));
  if (!(sub.apiGroups ?? []).every((g) => has(owner.apiGroups, g))) return false;
  if (!(sub.resources ?? []).every((r) => (owner.resources ?? []).some((o) => resourceCovers(o, r)))) return false;
  if (!owner.resourceNames || owner.resourceNames.length === 0) return true;
  return (
    (sub.resourceNames ?? []).length > 0 && (sub.resourceNames ?? []).every((n) => owner.resourceNames!.includes(n))
  );
}

/** kube's Covers: the broken-down rules of `wanted` that no rule of `owner` allows. */
export function uncoveredRules(owner: PolicyRule[], wanted: PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

const isProtected = (o: KubeObject) => o.metadata?.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';

function mergedMeta(existing: KubeObject, expected: KubeObject): KubeObject {
  return {
    ...existing.metadata,
    labels: { ...(expected.metadata.labels ?? {}), ...(existing.metadata.labels ?? {}) },
    annotations: { ...(expected.metadata.annotations ?? {}), ...(existing.metadata.annotations ?? {}) },
  };
}

/** Reconciles a ClusterRole (or Role) with the expected one, never removing permissions. */
export function reconcileRole(existing: KubeObject | undefined, expected: KubeObject): Reconciliation {
  if (!existing) return { action: 'create', object: structuredClone(expected) };
  if (isProtected(existing)) return { action: 'none' };
  const next = structuredClone(existing);
  next.metadata = mergedMeta(existing, expected);
  // Aggregated roles: their rules belong to the aggregation controller; only selectors are reconciled.
  if (expected.aggregationRule) {
    const have: KubeObject[] = existing.aggregationRule?.clusterRoleSelectors ?? [];
    const missing = (expected.aggregationRule.clusterRoleSelectors as KubeObject[]).filter(
      (s) => !have.some((h) => jsonEqual(h, s)),
    );
    if (missing.length > 0 || !existing.aggregationRule)
      next.aggregationRule = { clusterRoleSelectors: [...have, ...missing] };
  } else {
    const missing = uncoveredRules(existing.rules ?? [], expected.rules ?? []);
    if (missing.length > 0) next.rules = [...(existing.rules ?? []), ...missing];
  }
  return jsonEqual(next, existing) ? { action: 'none' } : { action: 'update', object: next };
}

const subjectKey = (s: KubeObject) => `${s.kind}/${s.namespace ?? ''}/${s.name}`;

/** Reconciles a ClusterRoleBinding (or RoleBinding): missing subjects added, a changed roleRef re-created. */
export function reconcileBinding(existing: KubeObject | undefined, expected: KubeObject): Reconciliation {
  if (!existing) return { action: 'create', object: structuredClone(expected) };
  if (isProtected(existing)) return { action: 'none' };
  if (!jsonEqual(existing.roleRef, expected.roleRef)) {
    const object = structuredClone(expected);
    object.metadata = {
      name: existing.metadata.name,
      labels: mergedMeta(existing, expected).labels,
      annotations: mergedMeta(existing, expected).annotations,
    };
    object.subjects = [
      ...(existing.subjects ?? []),
      ...(expected.subjects ?? []).filter(
        (s: KubeObject) => !(existing.subjects ?? []).some((e: KubeObject) => subjectKey(e) === subjectKey(s)),
      ),
    ];
    return { action: 'recreate', object };
  }
  const next = structuredClone(existing);
  next.metadata = mergedMeta(existing, expected);
  const missing = (expected.subjects ?? []).filter(
    (s: KubeObject) => !(existing.subjects ?? []).some((e: KubeObject) => subjectKey(e) === subjectKey(s)),
  );
  if (missing.length > 0) next.subjects = [...(existing.subjects ?? []), ...missing];
  return jsonEqual(next, existing) ? { action: 'none' } : { action: 'update', object: next };
}
