import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkForProblematicWebhooks, isProblematicWebhook, type Webhook } from './webhooks.js';

const podsWebhook = (over: Partial<Webhook> = {}): Webhook => ({
  name: 'pods.policy.example.com',
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  ...over,
});

describe('problematic webhooks', () => {
  it('flags a webhook on pods with failurePolicy Fail or unset', () => {
    expect(isProblematicWebhook(podsWebhook({ failurePolicy: 'Fail', timeoutSeconds: 10 }))).toBe(true);
    expect(isProblematicWebhook(podsWebhook())).toBe(true);
  });

  it('accepts Ignore with a short timeout, and webhooks that spare kube-system or only delete', () => {
    expect(isProblematicWebhook(podsWebhook({ failurePolicy: 'Ignore', timeoutSeconds: 10 }))).toBe(false);
    expect(isProblematicWebhook(podsWebhook({ failurePolicy: 'Ignore', timeoutSeconds: 20 }))).toBe(true);
    const sparesKubeSystem = podsWebhook({
      namespaceSelector: {
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
      },
    });
    expect(isProblematicWebhook(sparesKubeSystem)).toBe(false);
    const deleteOnly = podsWebhook({
      rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    });
    expect(isProblematicWebhook(deleteOnly)).toBe(false);
    const customResources = podsWebhook({
      rules: [{ operations: ['*'], apiGroups: ['example.com'], apiVersions: ['*'], resources: ['*'] }],
    });
    expect(isProblematicWebhook(customResources)).toBe(false);
  });

  it('flags nodes (cluster-scoped) and kube-system leases even with failurePolicy Ignore', () => {
    const nodes = { operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['nodes/status'] };
    expect(isProblematicWebhook({ name: 'n', rules: [nodes] })).toBe(true);
    expect(isProblematicWebhook({ name: 'n', rules: [{ ...nodes, scope: 'Namespaced' }] })).toBe(false);
    const leases = {
      operations: ['*'],
      apiGroups: ['coordination.k8s.io'],
      apiVersions: ['v1'],
      resources: ['leases'],
    };
    expect(isProblematicWebhook({ name: 'l', failurePolicy: 'Ignore', timeoutSeconds: 10, rules: [leases] })).toBe(
      true,
    );
    expect(isProblematicWebhook({ name: 'l', failurePolicy: 'Ignore', timeoutSeconds: 3, rules: [leases] })).toBe(
      false,
    );
  });

  it('never calls a webhook without rules problematic, whatever its policy and timeout (property)', () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom('Fail', 'Ignore'), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        (failurePolicy, timeoutSeconds) =>
          !isProblematicWebhook({
            name: 'x',
            rules: [],
            ...(failurePolicy ? { failurePolicy } : {}),
            ...(timeoutSeconds ? { timeoutSeconds } : {}),
          }),
      ),
    );
  });

  it('reports the first problematic webhook with ERR_PROBLEMATIC_WEBHOOK', () => {
    const config = {
      metadata: { name: 'policy' },
      webhooks: [podsWebhook({ failurePolicy: 'Fail', timeoutSeconds: 10 })],
    };
    expect(checkForProblematicWebhooks([config], [])).toEqual({
      status: 'False',
      reason: 'ProblematicWebhooks',
      message:
        'ValidatingWebhookConfiguration "policy" is problematic: webhook "pods.policy.example.com" with failurePolicy "Fail" and 10s timeout might prevent worker nodes from properly joining the shoot cluster',
      codes: ['ERR_PROBLEMATIC_WEBHOOK'],
    });
    const remediated = {
      metadata: { name: 'fixed', annotations: { 'gardener.cloud/warning': 'changed' } },
      webhooks: [],
    };
    expect(checkForProblematicWebhooks([], [remediated])).toMatchObject({ reason: 'RemediatedWebhooks' });
    expect(checkForProblematicWebhooks([], [])).toEqual({
      status: 'True',
      reason: 'NoProblematicWebhooks',
      message: 'All webhooks are properly configured.',
      codes: [],
    });
  });
});
