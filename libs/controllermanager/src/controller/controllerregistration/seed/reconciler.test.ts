import { describe, expect, it } from 'vitest';
import type { ControllerInstallation } from '@gardener-ts/api';
import type { Client, Secret } from '@gardener-ts/controller-runtime';
import { localSeed, localShoot, providerLocalRegistration, registration } from '../../../../test/support/examples.js';
import { ctx } from '../../seed/testing/fake-seed-client.js';
import { FakeGarden } from '../../testing/fake-garden.js';
import { ControllerRegistrationSeedReconciler, readGardenSecrets, seedOfNamespace } from './reconciler.js';

/** The registrations that have an installation for `seed`, sorted. */
const installations = (g: FakeGarden, seed: string) =>
  [...g.objects.values()]
    .filter((o) => o.kind === 'ControllerInstallation')
    .map((o) => o as ControllerInstallation)
    .filter((i) => i.spec.seedRef?.name === seed)
    .map((i) => i.spec.registrationRef.name)
    .sort();

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
  g.put(localSeed('local'));
  g.put(providerLocalRegistration());
  g.put(registration('provider-local-network', [{ kind: 'Network', type: 'calico' }]));
  g.put(registration('dns-aws', [{ kind: 'DNSRecord', type: 'aws-route53' }]));
  g.put(localShoot('a', 'local'));
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
    g.put(domainSecret('garden', 'internal-domain', 'google-clouddns'));
    g.put(domainSecret('seed-local', 'internal-domain', 'aws-route53'));
    await reconciler(g).reconcile(request, ctx);
    expect(installations(g, 'local')).toEqual(['dns-aws', 'provider-local', 'provider-local-network']);
  });

  it('fails while the garden has secrets but their copies are not synchronized yet, then installs', async () => {
    const g = garden();
    g.put(domainSecret('garden', 'internal-domain', 'aws-route53'));
    await expect(reconciler(g).reconcile(request, ctx)).rejects.toThrow(
      'garden secrets for seed "local" have not been synchronized yet',
    );
    expect(installations(g, 'local')).toEqual([]);

    g.put(domainSecret('seed-local', 'internal-domain', 'aws-route53'));
    await reconciler(g).reconcile(request, ctx);
    expect(installations(g, 'local')).toEqual(['dns-aws', 'provider-local', 'provider-local-network']);
  });

  it('goes on without domains when the garden has no secrets to synchronize', async () => {
    const g = garden();
    g.put(domainSecret('garden', 'internal-domain', undefined)); // no provider annotation: not a garden secret
    await reconciler(g).reconcile(request, ctx);
    expect(installations(g, 'local')).toEqual(['provider-local', 'provider-local-network']);
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
