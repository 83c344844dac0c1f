// RBAC as kube-apiserver evaluates it: the rules of every Role and ClusterRole bound to the user (by User, Group
// or ServiceAccount subject) in the request's namespace or cluster-wide, with wildcards, subresources,
// resourceNames, non-resource URLs and ClusterRole aggregation. Roles are read from a snapshot of storage that a
// watch keeps current, so a decision costs no storage round trip.
import type { Logger } from '@gardener-ts/logging';
import type { UserInfo } from '../server/context.js';
import type { KubeObject, Storage } from '../storage/types.js';
import { StorageSnapshot } from '../storage/snapshot.js';
import { matchesLabelSelector } from '../api/selectors.js';
import type { Attributes, Authorizer, Decision, RuleSet } from './attributes.js';

const PREFIX = '/registry/rbac.authorization.k8s.io/';

interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** Whether one rule allows the request (kube's RuleAllows). */
export function ruleAllows(rule: PolicyRule, a: Attributes): boolean {
  const has = (list: string[] | undefined, value: string) => (list ?? []).some((v) => v === '*' || v === value);
  if (a.kind === 'path') {
    if (!has(rule.verbs, a.verb)) return false;
    return (rule.nonResourceURLs ?? []).some(
      (u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))),
    );
  }
  const r = a.resource;
  if (!has(rule.verbs, r.verb) || !has(rule.apiGroups, r.group)) return false;
  const combined = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  const resourceMatch = (rule.resources ?? []).some(
    (res) =>
      res === '*' ||
      res === combined ||
      (r.subresource && res === `*/${r.subresource}`) ||
      (!r.subresource && res === r.resource),
  );
  if (!resourceMatch) return false;
  if (!rule.resourceNames || rule.resourceNames.length === 0) return true;
  return r.name !== '' && rule.resourceNames.includes(r.name);
}

function subjectMatches(subject: KubeObject, user: UserInfo, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.username;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount':
      return user.username === `system:serviceaccount:${subject.namespace || bindingNamespace}:${subject.name}`;
    default:
      return false;
  }
}

/** The objects RBAC reads, by storage key; kept current by a storage watch. */
export class RbacAuthorizer implements Authorizer {
  private readonly snapshot: StorageSnapshot;

  constructor(storage: Storage, log?: Logger) {
    this.snapshot = new StorageSnapshot(storage, PREFIX, log);
  }

  private get objects(): Map<string, KubeObject> {
    return this.snapshot.objects;
  }

  start(): Promise<void> {
    return this.snapshot.start();
  }

  stop(): void {
    this.snapshot.stop();
  }

  authorize(a: Attributes): Decision | undefined {
    const namespace = a.kind === 'resource' ? a.resource.namespace : '';
    for (const binding of this.bindings('clusterrolebindings', '')) {
      const found = this.check(binding, '', a);
      if (found) return found;
    }
    if (namespace) {
      for (const binding of this.bindings('rolebindings', namespace)) {
        const found = this.check(binding, namespace, a);
        if (found) return found;
      }
    }
    return undefined;
  }

  /**
   * Every rule that applies to `user` in `namespace` ('' = cluster-wide only), for SelfSubjectRulesReview — kube's
   * RBAC RulesFor: a rule naming resources is a resource rule, one naming non-resource URLs a non-resource rule.
   */
  rulesFor(user: UserInfo, namespace: string): RuleSet {
    const rules: PolicyRule[] = [];
    const collect = (binding: KubeObject, bindingNamespace: string) => {
      if (!(binding.subjects ?? []).some((s: KubeObject) => subjectMatches(s, user, bindingNamespace))) return;
      rules.push(...this.roleRules(binding.roleRef, bindingNamespace));
    };
    for (const b of this.bindings('clusterrolebindings', '')) collect(b, '');
    if (namespace) for (const b of this.bindings('rolebindings', namespace)) collect(b, namespace);
    const set: RuleSet = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const some = (list: string[] | undefined) => (list?.length ? list : undefined);
    for (const r of rules) {
      if (r.resources?.length) {
        set.resourceRules.push({
          verbs: r.verbs ?? [],
          ...(some(r.apiGroups) ? { apiGroups: r.apiGroups } : {}),
          resources: r.resources,
          ...(some(r.resourceNames) ? { resourceNames: r.resourceNames } : {}),
        });
      }
      if (r.nonResourceURLs?.length)
        set.nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs });
    }
    return set;
  }

  private check(binding: KubeObject, bindingNamespace: string, a: Attributes): Decision | undefined {
    if (!(binding.subjects ?? []).some((s: KubeObject) => subjectMatches(s, a.user, bindingNamespace)))
      return undefined;
    const rules = this.roleRules(binding.roleRef, bindingNamespace);
    if (!rules.some((rule) => ruleAllows(rule, a))) return undefined;
    const kind = bindingNamespace ? 'RoleBinding' : 'ClusterRoleBinding';
    const where = bindingNamespace
      ? `"${binding.metadata.name}" of ${binding.roleRef.kind} "${binding.roleRef.name}" to `
      : `"${binding.metadata.name}" of ClusterRole "${binding.roleRef.name}" to `;
    return { allowed: true, reason: `RBAC: allowed by ${kind} ${where}the user` };
  }

  private bindings(resource: 'rolebindings' | 'clusterrolebindings', namespace: string): KubeObject[] {
    return this.snapshot.under(namespace ? `${PREFIX}${resource}/${namespace}/` : `${PREFIX}${resource}/`);
  }

  private roleRules(ref: KubeObject | undefined, bindingNamespace: string): PolicyRule[] {
    if (!ref) return [];
    if (ref.kind === 'Role') return this.objects.get(`${PREFIX}roles/${bindingNamespace}/${ref.name}`)?.rules ?? [];
    if (ref.kind !== 'ClusterRole') return [];
    const role = this.objects.get(`${PREFIX}clusterroles/${ref.name}`);
    if (!role) return [];
    return [...(role.rules ?? []), ...this.aggregated(role)];
  }

  /** ClusterRole aggregation: the rules of every ClusterRole whose labels match one of the role's selectors. */
  private aggregated(role: KubeObject): PolicyRule[] {
    const selectors: KubeObject[] = role.aggregationRule?.clusterRoleSelectors ?? [];
    if (selectors.length === 0) return [];
    const rules: PolicyRule[] = [];
    for (const [key, other] of this.objects) {
      if (!key.startsWith(`${PREFIX}clusterroles/`) || other === role) continue;
      const labels = other.metadata?.labels ?? {};
      if (selectors.some((s) => matchesLabelSelector(s, labels))) rules.push(...(other.rules ?? []));
    }
    return rules;
  }
}
