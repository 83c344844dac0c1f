// kube's validation of label selectors in built-in specs (apimachinery's metav1validation.ValidateLabelSelector):
// `matchLabels` as labels, every `matchExpressions` entry with a known operator, values only where the operator takes
// them, a qualified-name key and valid label values. Where a selector sits in each kind (workloads, Jobs,
// PodDisruptionBudgets, NetworkPolicy peers) follows k8s.io/kubernetes/pkg/apis/*/validation.
import { qualifiedNameErrors, labelValueErrors } from '@gardener-ts/api';
import { validateLabels } from '../../api/meta.js';
import type { FieldProblem } from '../../schema/types.js';
import type { KubeObject } from '../../storage/types.js';
import { forbidden, invalid, required } from './field-problems.js';

/** metav1validation.LabelSelectorValidationOptions. */
export interface LabelSelectorOptions {
  /** Accept invalid label values in `matchExpressions` (kube allows them on update when the old object had them). */
  allowInvalidLabelValueInSelector?: boolean;
}

/** metav1validation.ValidateLabelSelector for the selector at `field`; nothing for an absent selector. */
export function labelSelectorProblems(
  selector: unknown,
  field: string,
  options: LabelSelectorOptions = {},
): FieldProblem[] {
  if (selector === null || typeof selector !== 'object') return [];
  const { matchLabels, matchExpressions } = selector as KubeObject;
  const problems = validateLabels(matchLabels, `${field}.matchLabels`);
  (Array.isArray(matchExpressions) ? matchExpressions : []).forEach((requirement: KubeObject, i: number) => {
    const at = `${field}.matchExpressions[${i}]`;
    const values: unknown[] = Array.isArray(requirement?.values) ? requirement.values : [];
    switch (requirement?.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          problems.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          problems.push(
            forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
          );
        break;
      default:
        problems.push(invalid(`${at}.operator`, requirement?.operator, 'not a valid selector operator'));
    }
    const key = typeof requirement?.key === 'string' ? requirement.key : '';
    for (const m of qualifiedNameErrors(key)) problems.push(invalid(`${at}.key`, key, m));
    if (!options.allowInvalidLabelValueInSelector) {
      values.forEach((value, j) => {
        for (const m of labelValueErrors(String(value))) problems.push(invalid(`${at}.values[${j}]`, value, m));
      });
    }
  });
  return problems;
}

/** Whether any `matchExpressions` value of the selector is not a valid label value. */
function hasInvalidLabelValue(selector: unknown): boolean {
  const expressions = (selector as KubeObject | undefined)?.matchExpressions;
  return (
    Array.isArray(expressions) &&
    expressions.some(
      (r: KubeObject) =>
        Array.isArray(r?.values) && r.values.some((v: unknown) => labelValueErrors(String(v)).length > 0),
    )
  );
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
