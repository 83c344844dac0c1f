import { describe, expect, it } from 'vitest';
import { DEFAULT_DOMAIN_SECRET, webhookConfigurations } from './garden.js';

describe('webhookConfigurations', () => {
  it('finds the webhook configurations of a rendered chart, whatever the order of their fields', () => {
    const manifests = [
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: gardener-admission\n  namespace: garden',
      'apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  labels:\n    app: x\n  name: gardener-admission-controller\nwebhooks: []',
      'kind: ValidatingWebhookConfiguration\napiVersion: admissionregistration.k8s.io/v1\nmetadata:\n  name: "validate"\n',
    ].join('\n---\n');
    expect(webhookConfigurations(manifests)).toEqual([
      ['mutatingwebhookconfiguration', 'gardener-admission-controller'],
      ['validatingwebhookconfiguration', 'validate'],
    ]);
  });
});

describe('the default domain Secret', () => {
  it("is Gardener's local default domain: the example shoot's API server becomes api.local.local.external.local.gardener.cloud", () => {
    const { metadata } = DEFAULT_DOMAIN_SECRET;
    expect(metadata.namespace).toBe('garden');
    expect(metadata.labels['gardener.cloud/role']).toBe('default-domain');
    expect(metadata.annotations['dns.gardener.cloud/provider']).toBe('local');
    // <shoot>.<project>.<default domain>, with provider-local's rewrite pattern api.<a>.<b>.<c>.local.gardener.cloud.
    const apiServer = `api.local.local.${metadata.annotations['dns.gardener.cloud/domain']}`;
    expect(apiServer).toBe('api.local.local.external.local.gardener.cloud');
    expect(apiServer).toMatch(/^api\.[^.]+\.[^.]+\.[^.]+\.local\.gardener\.cloud$/);
  });
});
