import { describe, expect, it } from 'vitest';
import {
  ExcludeWebhookFromRemediationLabel,
  SeedWebhookConfigurationName,
  ShootWebhookConfigurationName,
  WebhookServiceName,
  controlPlaneWebhook,
  nodeWebhook,
  seedWebhookConfiguration,
  servingNames,
  shootWebhookConfiguration,
} from './configurations.js';

type Configuration = { metadata: Record<string, any>; webhooks: Record<string, any>[] };
const namespace = 'extension-provider-local-x1y2z';
const caBundle = '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n';

describe('seedWebhookConfiguration', () => {
  const config = seedWebhookConfiguration(namespace, caBundle) as unknown as Configuration;

  it("is Gardener's gardener-extension-provider-local with the node and control plane webhooks through the Service", () => {
    expect(config).toMatchObject({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'gardener-extension-provider-local', labels: { [ExcludeWebhookFromRemediationLabel]: 'true' } },
    });
    expect(config.webhooks.map((w) => [w.name, w.clientConfig.service])).toEqual([
      ['node.local.extensions.gardener.cloud', { namespace, name: WebhookServiceName, path: '/node', port: 443 }],
      [
        'controlplane.local.extensions.gardener.cloud',
        { namespace, name: WebhookServiceName, path: '/controlplane', port: 443 },
      ],
    ]);
    for (const w of config.webhooks) expect(Buffer.from(w.clientConfig.caBundle, 'base64').toString()).toBe(caBundle);
  });

  it('reacts on nodes/status within a second, and on Deployments and OSCs of shoot namespaces of provider local only', () => {
    const [node, controlPlane] = config.webhooks;
    expect(node).toMatchObject({
      rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['nodes/status'] }],
      timeoutSeconds: 1,
      matchPolicy: 'Exact',
      sideEffects: 'None',
    });
    expect(node!.namespaceSelector).toBeUndefined();
    // Only what the gardenlet labels for the control plane webhook goes to the extension.
    expect(config.webhooks.map((w) => w.objectSelector)).toEqual([
      undefined,
      { matchLabels: { 'provider.extensions.gardener.cloud/mutated-by-controlplane-webhook': 'true' } },
    ]);
    expect(controlPlane).toMatchObject({
      rules: [
        { operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
        {
          operations: ['CREATE', 'UPDATE'],
          apiGroups: ['extensions.gardener.cloud'],
          apiVersions: ['v1alpha1'],
          resources: ['operatingsystemconfigs'],
        },
      ],
      failurePolicy: 'Fail',
      namespaceSelector: {
        matchExpressions: [{ key: 'shoot.gardener.cloud/provider', operator: 'In', values: ['local'] }],
      },
    });
  });

  it('reaches a URL instead when given one', () => {
    const byURL = seedWebhookConfiguration(namespace, caBundle, {
      url: 'https://127.0.0.1:9443',
    }) as unknown as Configuration;
    expect(byURL.webhooks.map((w) => w.clientConfig.url)).toEqual([
      'https://127.0.0.1:9443/node',
      'https://127.0.0.1:9443/controlplane',
    ]);
    expect(byURL.metadata.name).toBe(SeedWebhookConfigurationName);
  });
});

describe('shootWebhookConfiguration', () => {
  it("reaches the extension's Service by name and namespace from the shoot's API server in the seed", () => {
    const config = shootWebhookConfiguration(namespace, caBundle) as unknown as Configuration;
    expect(config.metadata.name).toBe(ShootWebhookConfigurationName);
    expect(config.webhooks).toHaveLength(1);
    expect(config.webhooks[0]).toMatchObject({
      name: 'node-shoot.local.extensions.gardener.cloud',
      clientConfig: { url: `https://gardener-extension-provider-local.${namespace}:443/node-shoot` },
      rules: [{ resources: ['nodes/status'] }],
      failurePolicy: 'Fail',
    });
  });
});

describe('webhook entries', () => {
  it('differ between seed and shoot only in name, path and failure policy', () => {
    const { name: seedName, path: seedPath, failurePolicy: seedPolicy, ...seed } = nodeWebhook('seed');
    const { name: shootName, path: shootPath, failurePolicy: shootPolicy, ...shoot } = nodeWebhook('shoot');
    expect(seed).toEqual(shoot);
    expect([seedName, seedPath, seedPolicy]).toEqual(['node.local.extensions.gardener.cloud', '/node', 'Ignore']);
    expect([shootName, shootPath, shootPolicy]).toEqual([
      'node-shoot.local.extensions.gardener.cloud',
      '/node-shoot',
      'Fail',
    ]);
    expect(controlPlaneWebhook().timeoutSeconds).toBe(10);
  });
});

describe('servingNames', () => {
  it("names the Service as Gardener's extension certificates do, and sorts extra names into DNS names and IPs", () => {
    expect(servingNames(namespace, ['localhost', '127.0.0.1', '::1'])).toEqual({
      dns: [
        'gardener-extension-provider-local',
        `gardener-extension-provider-local.${namespace}`,
        `gardener-extension-provider-local.${namespace}.svc`,
        'localhost',
      ],
      ips: ['127.0.0.1', '::1'],
    });
  });
});
