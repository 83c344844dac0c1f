// Webhooks of an extension inside the shoot (Gardener's "Shoot Resource Customization Webhooks"): the
// MutatingWebhookConfiguration goes into the shoot through a ManagedResource in the shoot namespace, so the
// gardener-resource-manager keeps it there and end users cannot change it; the shoot's kube-apiserver calls the
// extension in the seed. Also the seed-side webhook entry for control plane objects.
import { stringify } from 'yaml';
import { rule, type KubernetesObject, type Secret, type WebhookSpec } from '@gardener-ts/controller-runtime';

/** The ManagedResource name carrying an extension's shoot webhook configuration. */
export function shootWebhooksManagedResourceName(extensionName: string): string {
  return `extension-${extensionName}-shoot-webhooks`;
}

/**
 * The Secret and the ManagedResource (target: the shoot) that deploy `configuration` (a Mutating- or
 * ValidatingWebhookConfiguration, e.g. from controller-runtime's `webhookConfiguration`) into the shoot of `namespace`.
 */
export function shootWebhooksManagedResource(
  extensionName: string,
  namespace: string,
  configuration: KubernetesObject,
): [Secret, KubernetesObject] {
  const name = shootWebhooksManagedResourceName(extensionName);
  const secretName = `managedresource-${name}`;
  const key = `${(configuration.kind ?? '').toLowerCase()}____${configuration.metadata?.name ?? ''}.yaml`;
  const secret: Secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: secretName, namespace },
    data: { [key]: Buffer.from(stringify(configuration)).toString('base64') },
  };
  const managedResource: KubernetesObject & { spec: Record<string, unknown> } = {
    apiVersion: 'resources.gardener.cloud/v1alpha1',
    kind: 'ManagedResource',
    metadata: { name, namespace },
    // As Gardener's ManagedResources for the shoot: the gardenlet's cleanup of a deleted shoot leaves the objects to
    // the resource manager (which would create them again) instead of deleting them itself.
    spec: {
      secretRefs: [{ name: secretName }],
      injectLabels: { 'shoot.gardener.cloud/no-cleanup': 'true' },
      keepObjects: false,
    },
  };
  return [secret, managedResource];
}

/**
 * The seed webhook entry for a provider's control plane mutator: Deployments and OperatingSystemConfigs on create and
 * update in shoot namespaces of shoots of `providerType` (namespaces labelled `shoot.gardener.cloud/provider`).
 */
export function controlPlaneWebhook(providerType: string, path = '/webhooks/controlplane'): WebhookSpec {
  return {
    name: `controlplane.${providerType}.extensions.gardener.cloud`,
    path,
    rules: [
      rule(['CREATE', 'UPDATE'], 'apps', 'v1', 'deployments'),
      rule(['CREATE', 'UPDATE'], 'extensions.gardener.cloud', 'v1alpha1', 'operatingsystemconfigs'),
    ],
    failurePolicy: 'Fail',
    sideEffects: 'None',
    timeoutSeconds: 10,
    namespaceSelector: { matchLabels: { 'shoot.gardener.cloud/provider': providerType } },
  };
}
