import { describe, expect, it } from 'vitest';
import { labelSelectorProblems, networkPolicySelectorProblems, workloadSelectorProblems } from './label-selectors.js';

// The key the resource-manager's NetworkPolicy controller would write for a long shoot namespace, unshortened.
const longKey =
  'networking.resources.gardener.cloud/to-shoot--garden-project-with-a-long-name--and-a-long-shoot-name-kube-apiserver-tcp-443';
const tooLong = `Invalid value: ${JSON.stringify(longKey)}: name part must be no more than 63 characters`;

describe('label selector validation', () => {
  it('accepts valid selectors and an absent one', () => {
    expect(labelSelectorProblems(undefined, 'spec.selector')).toEqual([]);
    expect(
      labelSelectorProblems(
        {
          matchLabels: { app: 'web', 'gardener.cloud/role': 'controlplane' },
          matchExpressions: [
            { key: 'tier', operator: 'In', values: ['a', 'b'] },
            { key: 'legacy', operator: 'DoesNotExist' },
          ],
        },
        'spec.selector',
      ),
    ).toEqual([]);
  });

  it("refuses invalid keys and values with kube's paths and messages", () => {
    expect(labelSelectorProblems({ matchLabels: { [longKey]: 'allowed' } }, 'spec.podSelector')).toEqual([
      { field: 'spec.podSelector.matchLabels', reason: 'FieldValueInvalid', message: tooLong },
    ]);
    expect(
      labelSelectorProblems(
        {
          matchExpressions: [
            { key: 'a/b/c', operator: 'Exists' },
            { key: 'ok', operator: 'In', values: ['-bad-'] },
          ],
        },
        'spec.selector',
      ).map((p) => `${p.field}: ${p.message}`),
    ).toEqual([
      expect.stringMatching(
        /^spec\.selector\.matchExpressions\[0\]\.key: Invalid value: "a\/b\/c": a qualified name must/,
      ),
      expect.stringMatching(
        /^spec\.selector\.matchExpressions\[1\]\.values\[0\]: Invalid value: "-bad-": a valid label must/,
      ),
    ]);
  });

  it('checks operators and whether they take values', () => {
    expect(
      labelSelectorProblems(
        {
          matchExpressions: [
            { key: 'a', operator: 'In', values: [] },
            { key: 'b', operator: 'Exists', values: ['x'] },
            { key: 'c', operator: 'Equals', values: ['x'] },
          ],
        },
        'spec.selector',
      ),
    ).toEqual([
      {
        field: 'spec.selector.matchExpressions[0].values',
        reason: 'FieldValueRequired',
        message: "Required value: must be specified when `operator` is 'In' or 'NotIn'",
      },
      {
        field: 'spec.selector.matchExpressions[1].values',
        reason: 'FieldValueForbidden',
        message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      },
      {
        field: 'spec.selector.matchExpressions[2].operator',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "Equals": not a valid selector operator',
      },
    ]);
  });

  it('checks the pod selector and every ingress and egress peer of a NetworkPolicy', () => {
    const selector = { matchLabels: { [longKey]: 'allowed' } };
    const policy = {
      spec: {
        podSelector: selector,
        ingress: [{ from: [{ podSelector: { matchLabels: { app: 'ok' } } }, { namespaceSelector: selector }] }],
        egress: [{ to: [{ podSelector: selector, namespaceSelector: { matchLabels: { ok: 'yes' } } }] }],
      },
    };
    expect(networkPolicySelectorProblems(policy, undefined).map((p) => p.field)).toEqual([
      'spec.podSelector.matchLabels',
      'spec.ingress[0].from[1].namespaceSelector.matchLabels',
      'spec.egress[0].to[0].podSelector.matchLabels',
    ]);
  });

  it('accepts invalid selector values on update only when the old object had some, as kube', () => {
    const withValue = (value: string) => ({
      spec: { podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: [value] }] } },
    });
    expect(networkPolicySelectorProblems(withValue('-bad-'), undefined)).toHaveLength(1);
    expect(networkPolicySelectorProblems(withValue('-bad-'), withValue('ok'))).toHaveLength(1);
    expect(networkPolicySelectorProblems(withValue('-bad-'), withValue('-old-'))).toEqual([]);
  });

  it("checks a workload's selector and its pod template's labels", () => {
    expect(
      workloadSelectorProblems(
        {
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web', [longKey]: 'x' } } },
        },
        undefined,
      ),
    ).toEqual([{ field: 'spec.template.metadata.labels', reason: 'FieldValueInvalid', message: tooLong }]);
  });
});
