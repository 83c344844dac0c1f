// kube's validation of label selectors in built-in specs: apimachinery's metav1validation.ValidateLabelSelector (the one
// implementation, in @gardener-ts/api) as 422 causes, at the places a selector sits in each kind (workloads, Jobs,
// PodDisruptionBudgets, NetworkPolicy peers) as k8s.io/kubernetes/pkg/apis/*/validation has them.
import {
  FieldPath,
  hasInvalidLabelValueInSelector as hasInvalidLabelValue,
  validateLabelSelector,
  type FieldError,
  type LabelSelectorValidationOptions,
} from '@gardener-ts/api';
import { validateLabels } from '../../api/meta.js';
import type { FieldProblem } from '../../schema/types.js';
import type { KubeObject } from '../../storage/types.js';

/** A field.Error as the API server's 422 cause: the path, the reason and the message without the path. */
function asProblem(error: FieldError): FieldProblem {
  const prefix = `${error.field}: `;
  return {
    field: error.field,
    reason: error.type,
    message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message,
  };
}

/** metav1validation.ValidateLabelSelector (the one in @gardener-ts/api) for the selector at `field`. */
export function labelSelectorProblems(
  selector: unknown,
  field: string,
  options: LabelSelectorValidationOptions = {},
): FieldProblem[] {
  return validateLabelSelector(selector, FieldPath.root(field), options).map(asProblem);
}

/** The peers of a NetworkPolicy's ingress (`from`) and egress (`to`) rules. */
function networkPolicyPeers(spec: KubeObject): { path: string; peer: KubeObject }[] {
  const peers: { path: string; peer: KubeObject }[] = [];
  for (const [rules, side] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    (Array.isArray(spec[rules]) ? spec[rules] : []).forEach((rule: KubeObject, i: number) => {
      (Array.isArray(rule?.[side]) ? rule[side] : []).forEach((peer: KubeObject, j: number) =>
        peers.push({ path: `spec.${rules}[${i}].${side}[${j}]`, peer }),
      );
    });
  }
  return peers;
}

/** Every label selector of a NetworkPolicy spec, with its path. */
function networkPolicySelectors(spec: KubeObject): { path: string; selector: unknown }[] {
  return [
    { path: 'spec.podSelector', selector: spec.podSelector },
    ...networkPolicyPeers(spec).flatMap(({ path, peer }) => [
      { path: `${path}.podSelector`, selector: peer?.podSelector },
      { path: `${path}.namespaceSelector`, selector: peer?.namespaceSelector },
    ]),
  ];
}

/**
 * kube's ValidateNetworkPolicySpec for its selectors: the pod selector and the pod and namespace selectors of every
 * ingress and egress peer. On update, invalid label values are accepted when the old policy had some (kube's
 * ValidateNetworkPolicyUpdate).
 */
export function networkPolicySelectorProblems(policy: KubeObject, old: KubeObject | undefined): FieldProblem[] {
  const spec = policy.spec ?? {};
  const allowInvalidLabelValueInSelector =
    old !== undefined && networkPolicySelectors(old.spec ?? {}).some(({ selector }) => hasInvalidLabelValue(selector));
  return networkPolicySelectors(spec).flatMap(({ path, selector }) =>
    labelSelectorProblems(selector, path, { allowInvalidLabelValueInSelector }),
  );
}

/**
 * `spec.selector` of a workload, Job or PodDisruptionBudget. On update, invalid label values are accepted when the old
 * selector had some, as kube does.
 */
export function specSelectorProblems(spec: KubeObject, old: KubeObject | undefined): FieldProblem[] {
  const allowInvalidLabelValueInSelector = old !== undefined && hasInvalidLabelValue(old.spec?.selector);
  return labelSelectorProblems(spec.selector, 'spec.selector', { allowInvalidLabelValueInSelector });
}

/** A workload's or Job's `spec.selector` and its pod template's labels (ValidatePodTemplateSpec's ObjectMeta labels). */
export function workloadSelectorProblems(spec: KubeObject, old: KubeObject | undefined): FieldProblem[] {
  return [
    ...specSelectorProblems(spec, old),
    ...validateLabels(spec.template?.metadata?.labels, 'spec.template.metadata.labels'),
  ];
}
