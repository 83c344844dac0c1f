// The rotation steps on fakes: shoot access Secrets get a renew timestamp; the rewrite of encrypted data lists with
// the label selector of its mode and patches exactly the listed objects (namespaced and cluster-scoped paths), and
// the targets come from discovery.
import { describe, expect, it } from 'vitest';
import type { Transport } from '@gardener-ts/controller-runtime';
import {
  LabelKeyRotationKeyName,
  renewShootAccessSecrets,
  rewriteEncryptedData,
  rewriteTargets,
} from './rotation-steps.js';

type HttpRequest = Parameters<Transport['request']>[0];

describe('renewShootAccessSecrets', () => {
  it('sets the token renew timestamp on the shoot access Secrets of the namespace', async () => {
    const patches: { name: string; patch: unknown }[] = [];
    let selector: unknown;
    const seed = {
      async list(_kind: unknown, opts: { labelSelector?: unknown }) {
        selector = opts.labelSelector;
        return { items: [{ metadata: { name: 'shoot-access-a' } }, { metadata: { name: 'gardener' } }] };
      },
      async patch(_kind: unknown, key: { name: string }, patch: { patch: unknown }) {
        patches.push({ name: key.name, patch: patch.patch });
        return {};
      },
    };
    await renewShootAccessSecrets(seed as never, 'shoot--a--b', new Date('2026-11-30T01:00:00.123Z'));
    expect(selector).toEqual({
      'resources.gardener.cloud/purpose': 'token-requestor',
      'resources.gardener.cloud/class': 'shoot',
    });
    expect(patches).toEqual(
      ['shoot-access-a', 'gardener'].map((name) => ({
        name,
        patch: {
          metadata: {
            annotations: { 'serviceaccount.resources.gardener.cloud/token-renew-timestamp': '2026-11-30T01:00:00Z' },
          },
        },
      })),
    );
  });
});

describe('rewriteTargets', () => {
  it('finds the encrypted resources that can be listed and patched', () => {
    const lists = [
      {
        groupVersion: 'v1',
        resources: [
          { name: 'secrets', verbs: ['get', 'list', 'patch'] },
          { name: 'configmaps', verbs: ['get', 'list', 'patch'] },
          { name: 'pods/log', verbs: ['get'] },
        ],
      },
      { groupVersion: 'example.com/v1', resources: [{ name: 'widgets', verbs: ['get', 'list', 'patch'] }] },
      { groupVersion: 'other.io/v1', resources: [{ name: 'things', verbs: ['get'] }] },
    ];
    expect(rewriteTargets(['secrets', 'widgets.example.com', 'things.other.io'], lists)).toEqual([
      { groupVersion: 'v1', resource: 'secrets' },
      { groupVersion: 'example.com/v1', resource: 'widgets' },
    ]);
  });
});

describe('rewriteEncryptedData', () => {
  function fakeShoot(items: Record<string, { metadata: { name: string; namespace?: string } }[]>) {
    const requests: HttpRequest[] = [];
    return {
      requests,
      transport: {
        async request<T>(req: HttpRequest): Promise<T> {
          requests.push(req);
          return (req.method === 'GET' ? { items: items[req.path] ?? [] } : {}) as T;
        },
      },
    };
  }

  it('labels the objects not yet labelled with the current key', async () => {
    const shoot = fakeShoot({
      '/api/v1/secrets': [{ metadata: { name: 's1', namespace: 'default' } }],
      '/apis/example.com/v1/widgets': [{ metadata: { name: 'w1' } }],
    });
    const n = await rewriteEncryptedData(
      shoot.transport,
      [
        { groupVersion: 'v1', resource: 'secrets' },
        { groupVersion: 'example.com/v1', resource: 'widgets' },
      ],
      { add: 'kube-apiserver-etcd-encryption-key-abc' },
    );
    expect(n).toBe(2);
    const [list, patch, list2, patch2] = shoot.requests;
    expect(list?.query?.get('labelSelector')).toBe(
      `${LabelKeyRotationKeyName}!=kube-apiserver-etcd-encryption-key-abc`,
    );
    expect(patch).toMatchObject({
      method: 'PATCH',
      path: '/api/v1/namespaces/default/secrets/s1',
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { [LabelKeyRotationKeyName]: 'kube-apiserver-etcd-encryption-key-abc' } } },
    });
    expect(list2?.path).toBe('/apis/example.com/v1/widgets');
    expect(patch2?.path).toBe('/apis/example.com/v1/widgets/w1');
  });

  it('removes the label from the labelled objects', async () => {
    const shoot = fakeShoot({ '/api/v1/secrets': [{ metadata: { name: 's1', namespace: 'kube-system' } }] });
    await rewriteEncryptedData(shoot.transport, [{ groupVersion: 'v1', resource: 'secrets' }], { remove: true });
    expect(shoot.requests[0]?.query?.get('labelSelector')).toBe(LabelKeyRotationKeyName);
    expect(shoot.requests[1]?.body).toEqual({ metadata: { labels: { [LabelKeyRotationKeyName]: null } } });
  });
});
