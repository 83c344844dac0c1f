// The provider secret labels handler: a written Secret or InternalSecret carries exactly the provider type labels of
// the bindings referencing it; unreferenced objects keep their labels.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, KubeObject, Listers } from '../attributes.js';
import { runMutating } from '../chain.js';
import { staticListers } from '../listers.js';
import { admissionWebhookConfigurations, WebhookPaths } from '../webhook/configurations.js';
import {
  providerTypesOf,
  ProviderSecretLabels,
  secretBindingTypes,
  ShootProviderLabelPrefix,
  withProviderLabels,
} from './provider-secret-labels.js';

const ns = 'garden-local';
const secret = (labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'local', namespace: ns, labels },
  stringData: { token: 'x' },
});
const internalSecret = (): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'InternalSecret',
  metadata: { name: 'local', namespace: ns },
});
const secretBinding = (name: string, type: string | undefined, secretNamespace = ns): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'SecretBinding',
  metadata: { name, namespace: ns },
  secretRef: { name: 'local', namespace: secretNamespace },
  ...(type === undefined ? {} : { provider: { type } }),
});
const credentialsBinding = (name: string, type: string, ref: Partial<Record<string, string>> = {}): KubeObject => ({
  apiVersion: 'security.gardener.cloud/v1alpha1',
  kind: 'CredentialsBinding',
  metadata: { name, namespace: ns },
  credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'local', namespace: ns, ...ref },
  provider: { type },
});

function write(object: KubeObject, operation: 'CREATE' | 'UPDATE' = 'CREATE'): AdmissionAttributes {
  const [group, version] = object.apiVersion!.includes('/') ? object.apiVersion!.split('/') : ['', 'v1'];
  return {
    operation,
    kind: { group: group!, version: version!, kind: object.kind! },
    resource: { group: group!, version: version!, resource: `${object.kind!.toLowerCase()}s` },
    namespace: ns,
    name: 'local',
    object,
    ...(operation === 'UPDATE' ? { oldObject: object } : {}),
    userInfo: { username: 'alice' },
  };
}

const labelsAfter = async (object: KubeObject, objects: KubeObject[]) => {
  const result = await runMutating([ProviderSecretLabels], write(object), staticListers(objects));
  if (!result.allowed) throw new Error(result.message);
  return result.object?.metadata?.labels;
};

describe('ProviderSecretLabels', () => {
  it('labels a Secret with the provider types of its SecretBindings and CredentialsBindings', async () => {
    const labels = await labelsAfter(secret({ app: 'x' }), [
      secretBinding('a', 'local'),
      secretBinding('b', 'aws,gcp'),
      credentialsBinding('c', 'azure'),
      credentialsBinding('d', 'local'),
    ]);
    expect(labels).toEqual({
      app: 'x',
      'provider.shoot.gardener.cloud/aws': 'true',
      'provider.shoot.gardener.cloud/azure': 'true',
      'provider.shoot.gardener.cloud/gcp': 'true',
      'provider.shoot.gardener.cloud/local': 'true',
    });
  });

  it('drops provider labels no referencing binding has', async () => {
    const labels = await labelsAfter(secret({ 'provider.shoot.gardener.cloud/stale': 'true', keep: 'me' }), [
      credentialsBinding('c', 'local'),
    ]);
    expect(labels).toEqual({ keep: 'me', 'provider.shoot.gardener.cloud/local': 'true' });
  });

  it('leaves a Secret alone that no binding references, or whose labels are right already', async () => {
    const stale = secret({ 'provider.shoot.gardener.cloud/stale': 'true' });
    const others = [
      secretBinding('elsewhere', 'local', 'other-namespace'),
      credentialsBinding('wi', 'local', { apiVersion: 'security.gardener.cloud/v1alpha1', kind: 'WorkloadIdentity' }),
      credentialsBinding('name', 'local', { name: 'other' }),
    ];
    expect(await runMutating([ProviderSecretLabels], write(stale), staticListers(others))).toEqual({
      allowed: true,
      warnings: [],
    });
    const right = secret({ 'provider.shoot.gardener.cloud/local': 'true' });
    expect(
      (
        await runMutating(
          [ProviderSecretLabels],
          write(right, 'UPDATE'),
          staticListers([credentialsBinding('c', 'local')]),
        )
      ).allowed,
    ).toBe(true);
    expect(
      await runMutating([ProviderSecretLabels], write(right), staticListers([credentialsBinding('c', 'local')])),
    ).not.toHaveProperty('object');
  });

  it('labels an InternalSecret from the CredentialsBindings referencing it only', async () => {
    const internal = { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'InternalSecret' };
    const labels = await labelsAfter(internalSecret(), [
      secretBinding('a', 'aws'),
      credentialsBinding('secret', 'gcp'),
      credentialsBinding('internal', 'local', internal),
    ]);
    expect(labels).toEqual({ 'provider.shoot.gardener.cloud/local': 'true' });
  });

  it('refuses when the bindings cannot be listed, as the defaulter’s error', async () => {
    const failing: Listers = {
      get: async () => undefined,
      list: async (_apiVersion, kind) => {
        if (kind === 'CredentialsBinding') throw new Error('connection refused');
        return [];
      },
    };
    expect(await runMutating([ProviderSecretLabels], write(secret()), failing)).toMatchObject({
      allowed: false,
      code: 403,
      reason: 'Forbidden',
      message:
        'failed fetching provider types from CredentialsBindings: failed to list CredentialsBindings: connection refused',
    });
  });

  it('handles writes of Secrets and InternalSecrets only', () => {
    expect(ProviderSecretLabels.handles(write(secret()))).toBe(true);
    expect(ProviderSecretLabels.handles(write(internalSecret(), 'UPDATE'))).toBe(true);
    const configMap = { ...secret(), kind: 'ConfigMap' };
    expect(ProviderSecretLabels.handles(write(configMap))).toBe(false);
    expect(ProviderSecretLabels.handles({ ...write(secret()), operation: 'DELETE', object: null })).toBe(false);
  });

  it('reads a SecretBinding’s provider types as Gardener does', () => {
    expect(secretBindingTypes(secretBinding('a', 'aws,gcp'))).toEqual(['aws', 'gcp']);
    expect(secretBindingTypes(secretBinding('a', undefined))).toEqual([]);
    const target = { apiVersion: 'v1', kind: 'Secret', namespace: ns, name: 'local' };
    expect(providerTypesOf(target, [secretBinding('a', 'b,a'), secretBinding('c', 'a')], [])).toEqual(['a', 'b']);
  });

  it('keeps every other label and sets exactly the given provider labels (property)', () => {
    const key = fc.stringMatching(/^[a-z]{1,6}(\/[a-z]{1,6})?$/);
    const providerKey = fc.stringMatching(/^[a-z]{1,6}$/).map((t) => ShootProviderLabelPrefix + t);
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(key, providerKey), fc.constantFrom('true', 'x')),
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1 }),
        (labels, types) => {
          const object = withProviderLabels(secret(labels), types) ?? secret(labels);
          const result = object.metadata!.labels!;
          const provider = Object.keys(result).filter((k) => k.startsWith(ShootProviderLabelPrefix));
          expect(provider.sort()).toEqual(types.map((t) => ShootProviderLabelPrefix + t).sort());
          for (const [k, v] of Object.entries(labels))
            if (!k.startsWith(ShootProviderLabelPrefix)) expect(result[k]).toBe(v);
          expect(Object.values(result).length).toBe(
            Object.keys(labels).filter((k) => !k.startsWith(ShootProviderLabelPrefix)).length + types.length,
          );
        },
      ),
    );
    expect(withProviderLabels(secret({ a: 'b' }), [])).toBeUndefined();
  });

  it('is registered as Gardener’s mutating sync-provider-secret-labels.gardener.cloud for project namespaces', () => {
    const mutating = admissionWebhookConfigurations({ url: 'https://127.0.0.1:1' }, 'ca').find(
      (c) => c.kind === 'MutatingWebhookConfiguration',
    )!;
    const webhook = mutating.webhooks.find((w) => w.name === 'sync-provider-secret-labels.gardener.cloud')!;
    expect(webhook).toMatchObject({
      clientConfig: { url: `https://127.0.0.1:1${WebhookPaths.providerSecretLabels}` },
      failurePolicy: 'Fail',
      namespaceSelector: { matchLabels: { 'gardener.cloud/role': 'project' } },
    });
    expect(WebhookPaths.providerSecretLabels).toBe('/webhooks/sync-provider-secret-labels');
    // Every request the rules send is one the handler acts on.
    const rules = webhook.rules as { operations: string[]; apiGroups: string[]; resources: string[] }[];
    const kinds: Record<string, KubeObject> = { secrets: secret(), internalsecrets: internalSecret() };
    expect(rules.flatMap((r) => r.resources).sort()).toEqual(['internalsecrets', 'secrets']);
    for (const rule of rules)
      for (const op of rule.operations)
        for (const resource of rule.resources)
          expect(ProviderSecretLabels.handles(write(kinds[resource]!, op as 'CREATE' | 'UPDATE'))).toBe(true);
  });
});
