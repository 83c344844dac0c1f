// Problematic webhooks in a shoot (Gardener's care `CheckForProblematicWebhooks` and botanist/matchers): a validating
// or mutating webhook that can block what waking up or maintaining the cluster needs — kubelets registering Nodes,
// leader election Leases, system Pods, RBAC bootstrap, CRDs, APIServices, CSRs, ... — with failurePolicy Fail (the
// default) or a timeout above 15 s, or any webhook on kube-system Leases with a timeout above 3 s. Such a webhook
// turns the HibernationPossible and MaintenancePreconditionsSatisfied constraints False with ERR_PROBLEMATIC_WEBHOOK.
// Pure: webhook configurations in, the constraint outcome out.
import { ErrorCode, labelSelectorAsSelector, type LabelSelectorObject } from '@gardener-ts/api';

/** A webhook's rule (admissionregistration.k8s.io/v1 RuleWithOperations). */
export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

/** One webhook of a configuration, as far as the check reads it. */
export interface Webhook {
  name: string;
  failurePolicy?: string;
  timeoutSeconds?: number;
  rules?: WebhookRule[];
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
}

/** A Validating- or MutatingWebhookConfiguration. */
export interface WebhookConfiguration {
  kind?: string;
  metadata?: { name?: string; annotations?: Record<string, string> };
  webhooks?: Webhook[];
}

/** The label selector of the webhook configurations checked: not gardener-resource-manager's, not Gardener's own. */
export const WebhookConfigurationSelector =
  'app notin (gardener-resource-manager),resources.gardener.cloud/managed-by notin (gardener)';

/** Longest timeout of a webhook with failurePolicy Ignore that is not problematic. */
export const MaximumTimeoutSecondsNotProblematic = 15;
/** Longest timeout of a webhook on kube-system Leases that is not problematic. */
export const MaximumTimeoutSecondsNotProblematicForLeases = 3;
/** Annotation Gardener's webhook remediator leaves on a configuration it changed. */
export const AnnotationGardenerWarning = 'gardener.cloud/warning';

type Labels = Record<string, string>;

/** A critical resource a webhook must not block. */
interface Matcher {
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  clusterScoped?: boolean;
  /** Labels of the objects that matter; undefined: every object. */
  objectLabels?: Labels;
  /** Labels of the namespaces that matter; undefined: every namespace. */
  namespaceLabels?: Labels;
}

const defaultNamespace: Labels = { 'kubernetes.io/metadata.name': 'default' };
const kubeSystem: Labels = {
  'shoot.gardener.cloud/no-cleanup': 'true',
  'gardener.cloud/purpose': 'kube-system',
  'kubernetes.io/metadata.name': 'kube-system',
};
const systemPods: Labels = { 'shoot.gardener.cloud/no-cleanup': 'true', origin: 'gardener' };

/** Matchers of `resource` in each version and for each subresource (`''`: the resource itself), with `scope`. */
const matchers = (
  group: string,
  versions: readonly string[],
  resource: string,
  subresources: readonly string[],
  scope: Pick<Matcher, 'clusterScoped' | 'objectLabels' | 'namespaceLabels'>,
): Matcher[] =>
  versions.flatMap((version) =>
    subresources.map((sub) => ({ group, version, resource, ...(sub ? { subresource: sub } : {}), ...scope })),
  );
const inKubeSystem = (group: string, versions: readonly string[], resource: string, subresources = ['']) =>
  matchers(group, versions, resource, subresources, { namespaceLabels: kubeSystem });
const clusterScoped = (group: string, versions: readonly string[], resource: string, subresources = ['']) =>
  matchers(group, versions, resource, subresources, { clusterScoped: true });
const workloads = (group: string, version: string): Matcher[] => [
  ...inKubeSystem(group, [version], 'controllerrevisions'),
  ...inKubeSystem(group, [version], 'daemonsets', ['', 'status']),
  ...inKubeSystem(group, [version], 'deployments', ['', 'scale']),
  ...inKubeSystem(group, [version], 'replicasets', ['', 'status', 'scale']),
];

/** Leases in kube-system: leader election of the control plane's controllers. */
const LeaseMatchers = matchers('coordination.k8s.io', ['v1', 'v1beta1'], 'leases', [''], {
  namespaceLabels: kubeSystem,
  objectLabels: {},
});

/** Gardener's `WebhookConstraintMatchers`: what waking up a cluster needs. */
const CriticalMatchers: Matcher[] = [
  ...matchers('', ['v1'], 'pods', ['', 'status'], { namespaceLabels: kubeSystem, objectLabels: systemPods }),
  ...inKubeSystem('', ['v1'], 'configmaps'),
  { group: '', version: 'v1', resource: 'endpoints', namespaceLabels: defaultNamespace },
  ...inKubeSystem('', ['v1'], 'endpoints'),
  ...inKubeSystem('', ['v1'], 'secrets'),
  ...inKubeSystem('', ['v1'], 'serviceaccounts'),
  ...inKubeSystem('', ['v1'], 'services', ['', 'status']),
  ...matchers('', ['v1'], 'services', ['', 'status'], { namespaceLabels: defaultNamespace }),
  ...clusterScoped('', ['v1'], 'nodes', ['', 'status']),
  ...matchers('', ['v1'], 'namespaces', ['', 'status'], {
    clusterScoped: true,
    objectLabels: kubeSystem,
    namespaceLabels: kubeSystem,
  }),
  ...workloads('apps', 'v1'),
  ...workloads('apps', 'v1beta1'),
  ...workloads('apps', 'v1beta2'),
  ...workloads('extensions', 'v1beta1'),
  ...inKubeSystem('extensions', ['v1beta1'], 'networkpolicies'),
  ...matchers('coordination.k8s.io', ['v1', 'v1beta1'], 'leases', [''], {}),
  ...inKubeSystem('networking.k8s.io', ['v1', 'v1beta1'], 'networkpolicies'),
  ...(['v1', 'v1alpha1', 'v1beta1'] as const).flatMap((v) => [
    ...clusterScoped('rbac.authorization.k8s.io', [v], 'clusterroles'),
    ...clusterScoped('rbac.authorization.k8s.io', [v], 'clusterrolebindings'),
    ...inKubeSystem('rbac.authorization.k8s.io', [v], 'roles'),
    ...inKubeSystem('rbac.authorization.k8s.io', [v], 'rolebindings'),
  ]),
  ...clusterScoped('apiextensions.k8s.io', ['v1', 'v1beta1'], 'customresourcedefinitions', ['', 'status']),
  ...clusterScoped('apiregistration.k8s.io', ['v1', 'v1beta1'], 'apiservices', ['', 'status']),
  ...clusterScoped('certificates.k8s.io', ['v1'], 'certificatesigningrequests', ['', 'status', 'approval']),
  ...clusterScoped('scheduling.k8s.io', ['v1', 'v1beta1'], 'priorityclasses'),
];

const exactOrWildcard = (items: readonly string[] | undefined, value: string) =>
  (items ?? []).some((i) => i === '*' || i === value);

/** kube's admission rule matching for a CREATE/UPDATE of `m` (in some namespace unless cluster-scoped). */
function ruleMatches(rule: WebhookRule, m: Matcher): boolean {
  const isNamespace = m.group === '' && m.version === 'v1' && m.resource === 'namespaces';
  const scope = rule.scope ?? '*';
  const scopeOK =
    scope === '*' ||
    (scope === 'Namespaced' && !isNamespace && !m.clusterScoped) ||
    (scope === 'Cluster' && (isNamespace || Boolean(m.clusterScoped)));
  const operationOK = (rule.operations ?? []).some((op) => op === '*' || op === 'CREATE' || op === 'UPDATE');
  const resourceOK = (rule.resources ?? []).some((r) => {
    const slash = r.indexOf('/');
    const res = slash < 0 ? r : r.slice(0, slash);
    const sub = slash < 0 ? '' : r.slice(slash + 1);
    return (res === '*' || res === m.resource) && (sub === '*' || sub === (m.subresource ?? ''));
  });
  return (
    scopeOK &&
    operationOK &&
    exactOrWildcard(rule.apiGroups, m.group) &&
    exactOrWildcard(rule.apiVersions, m.version) &&
    resourceOK
  );
}

/** Whether a selector (unset: everything) selects `labels`, or does not restrict (`labels` undefined: all objects). */
function selects(selector: LabelSelectorObject | undefined, labels: Labels | undefined): boolean {
  if (labels === undefined) return true;
  try {
    const s = labelSelectorAsSelector(selector ?? {});
    return s.empty() || s.matches(labels);
  } catch {
    return true; // an invalid selector: assume it selects (Gardener's "should not happen" → true)
  }
}

/** Gardener's `WebhookConstraintMatcher.Match`. */
function matcherMatches(m: Matcher, rule: WebhookRule, webhook: Webhook): boolean {
  const matchObject = selects(webhook.objectSelector, m.objectLabels);
  const matchNamespace = selects(webhook.namespaceSelector, m.namespaceLabels);
  if (m.group === '' && m.resource === 'namespaces') return matchObject && matchNamespace && ruleMatches(rule, m);
  return matchObject && (Boolean(m.clusterScoped) || matchNamespace) && ruleMatches(rule, m);
}

/** Gardener's `IsProblematicWebhook`. */
export function isProblematicWebhook(webhook: Webhook): boolean {
  const rules = webhook.rules ?? [];
  const timeout = webhook.timeoutSeconds;
  const anyMatch = (matchers: Matcher[]) => rules.some((r) => matchers.some((m) => matcherMatches(m, r, webhook)));
  if ((timeout === undefined || timeout > MaximumTimeoutSecondsNotProblematicForLeases) && anyMatch(LeaseMatchers)) {
    return true;
  }
  if (
    webhook.failurePolicy !== undefined &&
    webhook.failurePolicy !== 'Fail' &&
    timeout !== undefined &&
    timeout <= MaximumTimeoutSecondsNotProblematic
  ) {
    return false;
  }
  return anyMatch(CriticalMatchers);
}

/** The outcome of the webhook check for HibernationPossible and MaintenancePreconditionsSatisfied. */
export interface WebhookCheckResult {
  status: 'True' | 'False';
  reason: string;
  message: string;
  codes: string[];
}

/** Gardener's `CheckForProblematicWebhooks` over the validating, then the mutating configurations (pure). */
export function checkForProblematicWebhooks(
  validating: readonly WebhookConfiguration[],
  mutating: readonly WebhookConfiguration[],
): WebhookCheckResult {
  const problem = (reason: string, message: string): WebhookCheckResult => ({
    status: 'False',
    reason,
    message,
    codes: [ErrorCode.ProblematicWebhook],
  });
  for (const [kind, configs] of [
    ['ValidatingWebhookConfiguration', validating],
    ['MutatingWebhookConfiguration', mutating],
  ] as const) {
    for (const config of configs) {
      const name = config.metadata?.name ?? '';
      for (const w of config.webhooks ?? []) {
        if (!isProblematicWebhook(w)) continue;
        const timeout =
          w.timeoutSeconds === undefined ? 'and unset timeoutSeconds' : `and ${w.timeoutSeconds}s timeout`;
        return problem(
          'ProblematicWebhooks',
          `${kind} "${name}" is problematic: webhook "${w.name}" with failurePolicy "${w.failurePolicy ?? 'nil'}" ${timeout} might prevent worker nodes from properly joining the shoot cluster`,
        );
      }
      if (config.metadata?.annotations?.[AnnotationGardenerWarning]) {
        return problem(
          'RemediatedWebhooks',
          `${kind} "${name}" is problematic and was remediated by Gardener (please check its annotations for details).`,
        );
      }
    }
  }
  return {
    status: 'True',
    reason: 'NoProblematicWebhooks',
    message: 'All webhooks are properly configured.',
    codes: [],
  };
}
