// The token-invalidator webhook: the seed's invalidated Secret (`token: AAAA`), regeneration once the label is gone,
// and its registration.
import { describe, expect, it } from 'vitest';
import { resourceManagerConfigSpec, type ResourceManagerConfiguration } from '@gardener-ts/component-config';
import type { AdmissionRequest, AdmissionResult, KubernetesObject } from '@gardener-ts/controller-runtime';
import { mutatingWebhooks } from './configurations.js';
import { webhookHandlers } from './server.js';
import { InvalidToken, TokenInvalidatorPath, tokenInvalidator } from './token-invalidator.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const CONSIDER = 'token-invalidator.resources.gardener.cloud/consider';

const secret = (data: Record<string, string> | undefined, labels: Record<string, string> = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'my-serviceaccount-token-ntxs9',
      namespace: 'default',
      labels: { 'resources.gardener.cloud/purpose': 'token-invalidator', ...labels },
      annotations: {
        'kubernetes.io/service-account.name': 'my-serviceaccount',
        'kubernetes.io/service-account.uid': '86e98645-2e05-11e9-863a-b2d4d086dd5a',
      },
    },
    type: 'kubernetes.io/service-account-token',
    ...(data ? { data } : {}),
  }) as KubernetesObject;
const req = (object: KubernetesObject, operation: 'CREATE' | 'UPDATE' = 'UPDATE'): AdmissionRequest => ({
  uid: '1',
  kind: { group: '', version: 'v1', kind: 'Secret' },
  resource: { group: '', version: 'v1', resource: 'secrets' },
  namespace: 'default',
  operation,
  userInfo: {},
  object,
});
const patched = (r: AdmissionResult) => (r.allowed ? (r.patched as any) : undefined);
const valid = { 'ca.crt': b64('cluster-ca-cert'), namespace: b64('default'), token: b64('eyJhbGciOiJSUzI1NiJ9.valid') };

describe('token-invalidator webhook', () => {
  it('replaces the token of a Secret labelled consider by the invalid token (AAAA, as in the seed)', () => {
    expect(InvalidToken).toBe('AAAA');
    const out = patched(tokenInvalidator(req(secret(valid, { [CONSIDER]: 'true' }))));
    expect(out.data).toEqual({ 'ca.crt': valid['ca.crt'], namespace: valid.namespace, token: 'AAAA' });
  });

  it('invalidates on create too, and adds the token when there was none', () => {
    const out = patched(tokenInvalidator(req(secret({ 'ca.crt': valid['ca.crt'] }, { [CONSIDER]: 'true' }), 'CREATE')));
    expect(out.data.token).toBe('AAAA');
  });

  it('leaves an already invalidated token alone', () => {
    const r = tokenInvalidator(req(secret({ ...valid, token: 'AAAA' }, { [CONSIDER]: 'true' })));
    expect(r).toMatchObject({ allowed: true });
    expect(patched(r)).toBeUndefined();
  });

  it('removes the invalid token once the consider label is gone, so that it is regenerated', () => {
    const out = patched(tokenInvalidator(req(secret({ ...valid, token: 'AAAA' }))));
    expect(out.data).toEqual({ 'ca.crt': valid['ca.crt'], namespace: valid.namespace });
  });

  it('keeps valid tokens of Secrets without the consider label, and Secrets without data', () => {
    expect(patched(tokenInvalidator(req(secret(valid))))).toBeUndefined();
    const r = tokenInvalidator(req(secret(undefined, { [CONSIDER]: 'true' })));
    expect(r).toMatchObject({ allowed: true });
    expect(patched(r)).toBeUndefined();
  });
});

describe('token-invalidator registration', () => {
  const config = (doc: Record<string, unknown>) =>
    resourceManagerConfigSpec.schema.parse({
      apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
      kind: 'ResourceManagerConfiguration',
      ...doc,
    }) as ResourceManagerConfiguration;

  it('is registered for Secrets with the token-invalidator purpose when webhooks.tokenInvalidator is enabled', () => {
    const c = config({ webhooks: { tokenInvalidator: { enabled: true } } });
    const hook = mutatingWebhooks(c).find((h) => h.path === TokenInvalidatorPath);
    expect(hook).toMatchObject({
      name: 'token-invalidator.resources.gardener.cloud',
      path: '/webhooks/invalidate-service-account-token-secret',
      objectSelector: { matchLabels: { 'resources.gardener.cloud/purpose': 'token-invalidator' } },
    });
    expect(JSON.stringify(hook!.rules)).toContain('secrets');
    const handler = webhookHandlers({ config: c, source: {} as any, target: {} as any }).get(TokenInvalidatorPath);
    expect(handler).toBeDefined();
  });

  it('is not registered otherwise, not even with the controller of the same name enabled', () => {
    expect(mutatingWebhooks(config({})).some((h) => h.path === TokenInvalidatorPath)).toBe(false);
    expect(
      mutatingWebhooks(config({ controllers: { tokenInvalidator: { enabled: true } } })).some(
        (h) => h.path === TokenInvalidatorPath,
      ),
    ).toBe(false);
  });
});
