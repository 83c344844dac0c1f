import { X509Certificate } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resourceManagerConfigSpec, type ResourceManagerConfiguration } from '@gardener-ts/component-config';
import { createSelfSignedCertificate } from './certificates.js';
import { mutatingWebhooks, validatingWebhooks, webhookConfigurations } from './configurations.js';

const config = (webhooks: Record<string, unknown>) =>
  resourceManagerConfigSpec.schema.parse({
    apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
    kind: 'ResourceManagerConfiguration',
    webhooks,
  }) as ResourceManagerConfiguration;

describe('webhook configurations', () => {
  it('registers nothing when no webhook is enabled', () => {
    expect(webhookConfigurations(config({}), { url: 'https://127.0.0.1:9449' }, 'ca')).toEqual([]);
  });

  it('registers the enabled webhooks with their selectors', () => {
    const c = config({ highAvailabilityConfig: { enabled: true }, crdDeletionProtection: { enabled: true } });
    const [ha] = mutatingWebhooks(c);
    expect(mutatingWebhooks(c)).toHaveLength(1);
    expect(ha).toMatchObject({
      path: '/webhooks/high-availability-config',
      namespaceSelector: { matchLabels: { 'high-availability-config.resources.gardener.cloud/consider': 'true' } },
      objectSelector: {
        matchExpressions: [{ key: 'high-availability-config.resources.gardener.cloud/skip', operator: 'DoesNotExist' }],
      },
    });
    const crd = validatingWebhooks(c)[0]!;
    expect(crd.rules[0]).toMatchObject({ operations: ['DELETE'], resources: ['customresourcedefinitions'] });
    expect(crd.objectSelector).toEqual({ matchLabels: { 'gardener.cloud/deletion-protected': 'true' } });
    const objects = webhookConfigurations(c, { url: 'https://127.0.0.1:9449' }, 'ca');
    expect(objects.map((o) => o.kind)).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
  });

  it('validates every extension kind at its own path', () => {
    const paths = validatingWebhooks(config({ extensionValidation: { enabled: true } })).map((h) => h.path);
    expect(paths).toContain('/validate-extensions-gardener-cloud-v1alpha1-infrastructure');
    expect(paths).toContain('/validate-druid-gardener-cloud-v1alpha1-etcd');
  });
});

describe('self-signed certificate', () => {
  it('is signed by the written CA and valid for loopback and the service names', async () => {
    const { certDir, caPem } = await createSelfSignedCertificate({
      dns: ['localhost', 'gardener-resource-manager.garden.svc'],
      ips: ['127.0.0.1'],
    });
    try {
      const cert = new X509Certificate(await readFile(join(certDir, 'tls.crt')));
      expect(cert.verify(new X509Certificate(caPem).publicKey)).toBe(true);
      expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(cert.checkHost('gardener-resource-manager.garden.svc')).toBe('gardener-resource-manager.garden.svc');
      expect(await readFile(join(certDir, 'ca.crt'), 'utf8')).toBe(caPem);
    } finally {
      await rm(certDir, { recursive: true, force: true });
    }
  });
});
