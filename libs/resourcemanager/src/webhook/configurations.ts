// Which webhooks a configuration enables, where each is served, and the Mutating/ValidatingWebhookConfigurations that
// make an API server call them, with the rules and selectors Gardener registers them with.
import type { ResourceManagerConfiguration } from '@gardener-ts/component-config';
import {
  rule,
  webhookConfiguration,
  type ClientTarget,
  type KubernetesObject,
  type WebhookSpec,
} from '@gardener-ts/controller-runtime';
import { WebhookLabel, WebhookPath, extensionValidationPath } from './constants.js';
import { ProtectedExtensionResources } from './crd-deletion-protection.js';
import { ExtensionRules } from './extension-validation.js';
import {
  TokenInvalidatorPath,
  TokenInvalidatorSelector,
  TokenInvalidatorWebhookName,
  tokenInvalidatorEnabled,
} from './token-invalidator.js';

const createUpdate = ['CREATE', 'UPDATE'] as ('CREATE' | 'UPDATE')[];
const podRule = [rule(['CREATE'], '', 'v1', 'pods')];
const notIn = (key: string, ...values: string[]) => ({
  matchExpressions: [{ key, operator: 'NotIn' as const, values }],
});
const doesNotExist = (key: string) => ({ matchExpressions: [{ key, operator: 'DoesNotExist' as const }] });

const plural = (kind: string) => {
  const lower = kind.toLowerCase();
  return lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : `${lower}s`;
};

/** The mutating webhooks the configuration enables, each with its rules and selectors. */
export function mutatingWebhooks(config: ResourceManagerConfiguration): WebhookSpec[] {
  const w = config.webhooks;
  const hooks: WebhookSpec[] = [];
  if (w.highAvailabilityConfig.enabled) {
    hooks.push({
      name: 'high-availability-config.resources.gardener.cloud',
      path: WebhookPath.HighAvailabilityConfig,
      rules: [
        rule(createUpdate, 'apps', 'v1', 'deployments', 'statefulsets'),
        rule(createUpdate, 'autoscaling', 'v2', 'horizontalpodautoscalers'),
      ],
      namespaceSelector: { matchLabels: { [WebhookLabel.HighAvailabilityConsider]: 'true' } },
      objectSelector: doesNotExist(WebhookLabel.HighAvailabilitySkip),
    });
  }
  if (w.kubernetesServiceHost.enabled) {
    hooks.push({
      name: 'kubernetes-service-host.resources.gardener.cloud',
      path: WebhookPath.KubernetesServiceHost,
      rules: podRule,
      failurePolicy: 'Ignore',
      namespaceSelector: notIn(WebhookLabel.KubernetesServiceHostInject, 'disable'),
      objectSelector: notIn(WebhookLabel.KubernetesServiceHostInject, 'disable'),
    });
  }
  if (w.projectedTokenMount.enabled) {
    hooks.push({
      name: 'projected-token-mount.resources.gardener.cloud',
      path: WebhookPath.ProjectedTokenMount,
      rules: podRule,
      objectSelector: notIn(WebhookLabel.ProjectedTokenSkip, 'true'),
    });
  }
  if (w.podTopologySpreadConstraints.enabled) {
    hooks.push({
      name: 'pod-topology-spread-constraints.resources.gardener.cloud',
      path: WebhookPath.PodTopologySpreadConstraints,
      rules: podRule,
      objectSelector: {
        matchExpressions: [
          ...doesNotExist(WebhookLabel.PodTopologySpreadConstraintsSkip).matchExpressions,
          { key: 'app', operator: 'NotIn', values: ['gardener-resource-manager'] },
        ],
      },
    });
  }
  if (w.systemComponentsConfig.enabled) {
    hooks.push({
      name: 'system-components-config.resources.gardener.cloud',
      path: WebhookPath.SystemComponentsConfig,
      rules: podRule,
      namespaceSelector: {
        matchExpressions: [
          { key: 'kubernetes.io/metadata.name', operator: 'In', values: ['kube-system', 'kubernetes-dashboard'] },
        ],
      },
      objectSelector: {
        matchLabels: { 'resources.gardener.cloud/managed-by': 'gardener' },
        ...notIn(WebhookLabel.SystemComponentsConfigSkip, 'true'),
      },
    });
  }
  if (w.endpointSliceHints.enabled) {
    hooks.push({
      name: 'endpoint-slice-hints.resources.gardener.cloud',
      path: WebhookPath.EndpointSliceHints,
      rules: [rule(createUpdate, 'discovery.k8s.io', 'v1', 'endpointslices')],
      objectSelector: { matchLabels: { [WebhookLabel.EndpointSliceHintsConsider]: 'true' } },
    });
  }
  if (w.podSchedulerName.enabled) {
    hooks.push({
      name: 'pod-scheduler-name.resources.gardener.cloud',
      path: WebhookPath.PodSchedulerName,
      rules: podRule,
    });
  }
  if (w.seccompProfile.enabled) {
    hooks.push({
      name: 'seccomp-profile.resources.gardener.cloud',
      path: WebhookPath.SeccompProfile,
      rules: podRule,
      objectSelector: doesNotExist(WebhookLabel.SeccompProfileSkip),
    });
  }
  if (tokenInvalidatorEnabled(config)) {
    hooks.push({
      name: TokenInvalidatorWebhookName,
      path: TokenInvalidatorPath,
      rules: [rule(createUpdate, '', 'v1', 'secrets')],
      objectSelector: { matchLabels: { ...TokenInvalidatorSelector } },
    });
  }
  return hooks;
}

/** The validating webhooks the configuration enables. */
export function validatingWebhooks(config: ResourceManagerConfiguration): WebhookSpec[] {
  const w = config.webhooks;
  const hooks: WebhookSpec[] = [];
  if (w.crdDeletionProtection.enabled) {
    hooks.push(
      {
        name: 'crd-deletion-protection.resources.gardener.cloud',
        path: WebhookPath.CRDDeletionProtection,
        rules: [rule(['DELETE'], 'apiextensions.k8s.io', 'v1', 'customresourcedefinitions')],
        objectSelector: { matchLabels: { [WebhookLabel.DeletionProtected]: 'true' } },
      },
      {
        name: 'cr-deletion-protection.resources.gardener.cloud',
        path: WebhookPath.CRDDeletionProtection,
        rules: [
          rule(['DELETE'], 'extensions.gardener.cloud', 'v1alpha1', ...ProtectedExtensionResources),
          rule(['DELETE'], 'druid.gardener.cloud', 'v1alpha1', 'etcds'),
        ],
      },
    );
  }
  if (w.extensionValidation.enabled) {
    for (const key of Object.keys(ExtensionRules)) {
      const [group, kind] = key.split('/') as [string, string];
      hooks.push({
        name: `validation.${kind.toLowerCase()}.${group}`,
        path: extensionValidationPath(group, 'v1alpha1', kind),
        rules: [rule(createUpdate, group, 'v1alpha1', plural(kind))],
      });
    }
  }
  return hooks;
}

/** The configurations for the enabled webhooks (none for a kind without enabled webhooks). */
export function webhookConfigurations(
  config: ResourceManagerConfiguration,
  target: ClientTarget,
  caBundle: string | Buffer,
  name = 'gardener-resource-manager',
): KubernetesObject[] {
  const result: KubernetesObject[] = [];
  const mutating = mutatingWebhooks(config);
  const validating = validatingWebhooks(config);
  if (mutating.length > 0)
    result.push(webhookConfiguration({ type: 'mutating', name, target, caBundle, webhooks: mutating }));
  if (validating.length > 0)
    result.push(webhookConfiguration({ type: 'validating', name, target, caBundle, webhooks: validating }));
  return result;
}
