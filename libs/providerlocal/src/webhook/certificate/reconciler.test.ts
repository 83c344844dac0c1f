import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Client, KubernetesObject, Secret } from '@gardener-ts/controller-runtime';
import { shootWebhookConfiguration } from '../configurations.js';
import { DefaultCertificateSyncPeriodMs, WebhookCertificateReconciler } from './reconciler.js';

const mr = (namespace: string, name: string, deleting = false): KubernetesObject => ({
  apiVersion: 'resources.gardener.cloud/v1alpha1',
  kind: 'ManagedResource',
  metadata: { namespace, name, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
});

function setup(changed: boolean, caBundle = 'NEW-CA') {
  const applied: KubernetesObject[] = [];
  const client = {
    list: async () => ({
      items: [
        mr('shoot--a--one', 'extension-controlplane-shoot-webhooks'),
        mr('shoot--a--two', 'extension-controlplane-storageclasses'),
        mr('shoot--a--gone', 'extension-controlplane-shoot-webhooks', true),
        mr('shoot--b--three', 'extension-controlplane-shoot-webhooks'),
      ],
    }),
    patch: async (_kind: unknown, _key: unknown, patch: { patch: KubernetesObject }) => {
      applied.push(patch.patch);
      return patch.patch;
    },
  } as unknown as Pick<Client, 'list' | 'patch'>;
  let renewals = 0;
  const webhooks = {
    renewCertificates: async () => {
      renewals++;
      return changed;
    },
    shootWebhookConfiguration: () => shootWebhookConfiguration('extension-provider-local-x', caBundle),
  };
  return { reconciler: new WebhookCertificateReconciler({ webhooks, client }), applied, renewals: () => renewals };
}

describe('WebhookCertificateReconciler', () => {
  it('renews the certificates every sync period and leaves the shoots alone while the CA bundle stays', async () => {
    const { reconciler, applied, renewals } = setup(false);
    expect(await reconciler.reconcile()).toEqual({ requeueAfter: DefaultCertificateSyncPeriodMs });
    expect(renewals()).toBe(1);
    expect(applied).toEqual([]);
  });

  it("puts a new CA bundle into every shoot's webhook configuration, Secret before ManagedResource", async () => {
    const { reconciler, applied } = setup(true);
    await reconciler.reconcile();
    expect(applied.map((o) => `${o.kind} ${o.metadata?.namespace}/${o.metadata?.name}`)).toEqual([
      'Secret shoot--a--one/managedresource-extension-controlplane-shoot-webhooks',
      'ManagedResource shoot--a--one/extension-controlplane-shoot-webhooks',
      'Secret shoot--b--three/managedresource-extension-controlplane-shoot-webhooks',
      'ManagedResource shoot--b--three/extension-controlplane-shoot-webhooks',
    ]);
    const [content] = Object.values((applied[0] as Secret).data ?? {});
    const configuration = parse(Buffer.from(content!, 'base64').toString()) as {
      webhooks: { clientConfig: { caBundle: string } }[];
    };
    expect(Buffer.from(configuration.webhooks[0]!.clientConfig.caBundle, 'base64').toString()).toBe('NEW-CA');
  });
});
