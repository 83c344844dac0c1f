import { describe, expect, it } from 'vitest';
import { webhookConfigurations } from './garden.js';

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
