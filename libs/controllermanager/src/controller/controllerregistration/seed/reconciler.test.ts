import { describe, expect, it } from 'vitest';
import type { ControllerInstallation } from '@gardener-ts/api';
import { ApiError, type Client, type KubernetesObject, type Secret } from '@gardener-ts/controller-runtime';
import { localSeed, localShoot, providerLocalRegistration, registration } from '../../../../test/support/examples.js';
import { ctx } from '../../seed/testing/fake-seed-client.js';
import { ControllerRegistrationSeedReconciler, readGardenSecrets, seedOfNamespace } from './reconciler.js';

/** The garden's objects by kind/namespace/name: reads, creations (generateName honoured), merge patches, deletions. */
class FakeGarden {
  readonly objects = new Map<string, KubernetesObject>();
  private n = 0;
  private key = (kind: string, namespace: string | undefined, name: string) => `${kind}/${namespace ?? ''}/${name}`;
  add(obj: KubernetesObject) {
    const meta = { resourceVersion: '1', ...obj.metadata };
    this.objects.set(this.key(obj.kind!, meta.namespace, meta.name!), structuredClone({ ...obj, metadata: meta }));
  }
  installations(seed: string) {
    return [...this.objects.values()]
      .filter((o) => o.kind === 'ControllerInstallation')
      .map((o) => o as ControllerInstallation)
      .filter((i) => i.spec.seedRef?.name === seed)
      .map((i) => i.spec.registrationRef.name)
      .sort();
  }
  get = (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
    const o = this.objects.get(this.key(kind.kind, key.namespace, key.name));
    if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return structuredClone(o);
  }) as Client['get'];
  list = (async (kind: { kind: string }, opts: { namespace?: string } = {}) => ({
    items: [...this.objects.values()]
      .filter((o) => o.kind === kind.kind && (!opts.namespace || o.metadata?.namespace === opts.namespace))
      .map((o) => structuredClone(o)),
  })) as unknown as Client['list'];
  create = (async (obj: KubernetesObject) => {
    const name = obj.metadata?.name ?? `${obj.metadata?.generateName}${++this.n}`;
    this.add({ ...obj, metadata: { ...obj.metadata, name } });
    return obj;
  }) as Client['create'];
  patch = (async () => ({})) as unknown as Client['patch'];
  delete = (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
    this.objects.delete(this.key(kind.kind, key.namespace, key.name));
  }) as Client['delete'];
}

const domainSecret = (
  namespace: string,
  role: string,
  provider: string | undefined,
  domain = 'example.com',
): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: `${role}-${provider ?? 'none'}`,
    namespace,
    labels: { 'gardener.cloud/role': role },
    annotations: {
      ...(provider ? { 'dns.gardener.cloud/provider': provider } : {}),
      'dns.gardener.cloud/domain': domain,
    },
  },
});

/** A garden with seed `local`, provider-local (Always), a DNS registration for aws-route53 and a shoot on the seed. */
function garden(): FakeGarden {
  const g = new FakeGarden();
  g.add(localSeed('local'));
  g.add(providerLocalRegistration());
  g.add(registration('provider-local-network', [{ kind: 'Network', type: 'calico' }]));
  g.add(registration('dns-aws', [{ kind: 'DNSRecord', type: 'aws-route53' }]));
  g.add(localShoot('a', 'local'));
  return g;
}
const reconciler = (g: FakeGarden) =>
  new ControllerRegistrationSeedReconciler({
    client: g as unknown as Client,
    api: g as unknown as Client,
    gardenNamespace: 'garden',
  });
const request = { namespace: '', name: 'local' };

describe('ControllerRegistrationSeedReconciler: garden secrets', () => {
  it("reads the domain secrets' copies in seed-<name>, not the originals in garden", async () => {
    const g = garden();
    // The original names a provider no registration serves; the copy (what Gardener reads) one that is served.
    g.add(domainSecret('garden', 'internal-domain', 'google-clouddns'));
    g.add(domainSecret('seed-local', 'internal-domain', 'aws-route53'));
    await reconciler(g).reconcile(request, ctx);
    expect(g.installations('local')).toEqual(['dns-aws', 'provider-local', 'provider-local-network']);
  });

  it('fails while the garden has secrets but their copies are not synchronized yet, then installs', async () => {
    const g = garden();
    g.add(domainSecret('garden', 'internal-domain', 'aws-route53'));
    await expect(reconciler(g).reconcile(request, ctx)).rejects.toThrow(
      'garden secrets for seed "local" have not been synchronized yet',
    );
    expect(g.installations('local')).toEqual([]);

    g.add(domainSecret('seed-local', 'internal-domain', 'aws-route53'));
    await reconciler(g).reconcile(request, ctx);
    expect(g.installations('local')).toEqual(['dns-aws', 'provider-local', 'provider-local-network']);
  });

  it('goes on without domains when the garden has no secrets to synchronize', async () => {
    const g = garden();
    g.add(domainSecret('garden', 'internal-domain', undefined)); // no provider annotation: not a garden secret
    await reconciler(g).reconcile(request, ctx);
    expect(g.installations('local')).toEqual(['provider-local', 'provider-local-network']);
  });
});

describe('readGardenSecrets', () => {
  it("classifies the role-labelled secrets as Gardener's ReadGardenSecrets", () => {
    const alerting = { metadata: { labels: { 'gardener.cloud/role': 'alerting' } } } as Secret;
    const other = { metadata: { labels: { 'gardener.cloud/role': 'something-else' } } } as Secret;
    expect(
      readGardenSecrets([
        domainSecret('seed-local', 'internal-domain', 'local', 'internal.example'),
        domainSecret('seed-local', 'default-domain', 'aws-route53', 'a.example'),
        domainSecret('seed-local', 'default-domain', undefined, 'b.example'),
        domainSecret('seed-local', 'default-domain', 'aws-route53', ''),
        alerting,
        other,
      ]),
    ).toEqual({
      internal: { provider: 'local', domain: 'internal.example' },
      defaults: [{ provider: 'aws-route53', domain: 'a.example' }],
      count: 3,
    });
    expect(readGardenSecrets([other])).toEqual({ defaults: [], count: 0 });
  });

  it('maps seed-<name> namespaces to their seed', () => {
    expect(seedOfNamespace('seed-local')).toBe('local');
    expect(seedOfNamespace('seed-')).toBeUndefined();
    expect(seedOfNamespace('garden')).toBeUndefined();
    expect(seedOfNamespace(undefined)).toBeUndefined();
  });
});
