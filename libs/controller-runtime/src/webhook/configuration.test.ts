import { describe, expect, it } from 'vitest';
import { rule, webhookConfiguration } from './configuration.js';

const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const webhook = {
  name: 'validate.shoots.gardener.cloud',
  path: '/validate-shoot',
  rules: [rule(['CREATE', 'UPDATE'], 'core.gardener.cloud', 'v1beta1', 'shoots')],
};

describe('webhookConfiguration', () => {
  it('builds a ValidatingWebhookConfiguration reaching a Service, with Gardener-style defaults', () => {
    const config = webhookConfiguration({
      type: 'validating',
      name: 'gardener-admission-controller',
      target: { service: { namespace: 'garden', name: 'gardener-admission-controller' } },
      caBundle: ca,
      webhooks: [{ ...webhook, objectSelector: { matchLabels: { a: 'b' } } }],
    });
    expect(config).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'gardener-admission-controller' },
      webhooks: [
        {
          name: 'validate.shoots.gardener.cloud',
          admissionReviewVersions: ['v1'],
          clientConfig: {
            service: { namespace: 'garden', name: 'gardener-admission-controller', path: '/validate-shoot', port: 443 },
            caBundle: Buffer.from(ca).toString('base64'),
          },
          rules: [
            {
              operations: ['CREATE', 'UPDATE'],
              apiGroups: ['core.gardener.cloud'],
              apiVersions: ['v1beta1'],
              resources: ['shoots'],
            },
          ],
          failurePolicy: 'Fail',
          sideEffects: 'None',
          timeoutSeconds: 10,
          matchPolicy: 'Equivalent',
          objectSelector: { matchLabels: { a: 'b' } },
        },
      ],
    });
  });

  it('builds a MutatingWebhookConfiguration reaching a URL, with a reinvocation policy', () => {
    const config = webhookConfiguration({
      type: 'mutating',
      name: 'm',
      target: { url: 'https://127.0.0.1:9443/' },
      caBundle: Buffer.from(ca),
      webhooks: [{ ...webhook, failurePolicy: 'Ignore' }],
    });
    expect(config.kind).toBe('MutatingWebhookConfiguration');
    expect(config.webhooks[0]).toMatchObject({
      clientConfig: { url: 'https://127.0.0.1:9443/validate-shoot' },
      failurePolicy: 'Ignore',
      reinvocationPolicy: 'Never',
    });
  });

  it('rejects what the API server would reject, naming the webhook', () => {
    const base = { type: 'validating' as const, name: 'v', target: { url: 'https://x' }, caBundle: ca };
    expect(() => webhookConfiguration({ ...base, webhooks: [{ ...webhook, name: 'short.name' }] })).toThrow(
      /fully qualified/,
    );
    expect(() => webhookConfiguration({ ...base, webhooks: [{ ...webhook, timeoutSeconds: 31 }] })).toThrow(
      /timeoutSeconds/,
    );
    expect(() => webhookConfiguration({ ...base, webhooks: [{ ...webhook, reinvocationPolicy: 'IfNeeded' }] })).toThrow(
      /mutating webhooks only/,
    );
    expect(() => webhookConfiguration({ ...base, webhooks: [] })).toThrow(/no webhooks/);
    expect(() => rule(['CREATE'], '', 'v1')).toThrow(/resource/);
  });
});
