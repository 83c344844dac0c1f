// The shoot's external domain as Gardener's gardenlet reads it: the garden's default domains (the Seed's
// `spec.dns.defaults`, else the `default-domain` Secrets of `seed-<name>` by priority), the provider and credentials a
// shoot domain gets (default domain, else its primary provider), and when the external DNS record steps are skipped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Secret } from '@gardener-ts/controller-runtime';
import { kubeAPIServerArgs } from '../component/kube-apiserver.js';
import { kubeAPIServerDNSNames } from '../component/secrets.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { advertisedAddresses, Botanist } from './botanist.js';
import {
  defaultDomainsOfSecrets,
  externalDNSSkipReason,
  externalDomainOf,
  readDefaultDomains,
  readExternalDomain,
  usesUnmanagedDNS,
  type Domain,
} from './external-dns.js';

const values = exampleValues();
type Shoot = typeof values.shoot;
const withDNS = (dns: NonNullable<Shoot['spec']['dns']>): Shoot => ({
  ...values.shoot,
  spec: { ...values.shoot.spec, dns },
});

const domainSecret = (name: string, domain: string, extra: Record<string, string> = {}): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name,
    namespace: 'seed-local',
    labels: { 'gardener.cloud/role': 'default-domain' },
    annotations: { 'dns.gardener.cloud/provider': 'local', 'dns.gardener.cloud/domain': domain, ...extra },
  },
  data: { token: Buffer.from(name).toString('base64') },
});

const local: Domain = { domain: 'external.local.gardener.cloud', type: 'local', credentials: { data: { t: 'dA==' } } };

describe('defaultDomainsOfSecrets', () => {
  it('orders by dns.gardener.cloud/domain-default-priority, highest first, equal ones as listed', () => {
    const domains = defaultDomainsOfSecrets([
      domainSecret('a', 'a.example.com'),
      domainSecret('b', 'b.example.com', { 'dns.gardener.cloud/domain-default-priority': '10' }),
      domainSecret('c', 'c.example.com', { 'dns.gardener.cloud/zone': 'zone-c' }),
      domainSecret('d', 'd.example.com', { 'dns.gardener.cloud/domain-default-priority': 'not a number' }),
    ]);
    expect(domains.map((d) => d.domain)).toEqual(['b.example.com', 'a.example.com', 'c.example.com', 'd.example.com']);
    expect(domains[2]).toEqual({
      domain: 'c.example.com',
      type: 'local',
      zone: 'zone-c',
      credentials: { data: { token: Buffer.from('c').toString('base64') } },
    });
  });

  it('keeps every default domain Secret and never puts a lower priority before a higher one', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 12 }), (priorities) => {
        const secrets = priorities.map((p, i) =>
          domainSecret(`s${i}`, `d${i}.example.com`, { 'dns.gardener.cloud/domain-default-priority': String(p) }),
        );
        const ordered = defaultDomainsOfSecrets(secrets).map((d) => Number(d.domain.slice(1).split('.')[0]));
        expect([...ordered].sort((a, b) => a - b)).toEqual(priorities.map((_, i) => i));
        for (let i = 1; i < ordered.length; i++) {
          const [before, after] = [ordered[i - 1]!, ordered[i]!];
          expect(
            priorities[before]! > priorities[after]! || (priorities[before] === priorities[after] && before < after),
          ).toBe(true);
        }
      }),
    );
  });

  it('names a default domain Secret without its provider or domain annotation', () => {
    const broken = domainSecret('broken', 'x.example.com');
    delete broken.metadata!.annotations!['dns.gardener.cloud/provider'];
    expect(() => defaultDomainsOfSecrets([broken])).toThrow(
      'default domain Secret seed-local/broken needs the annotations dns.gardener.cloud/provider and dns.gardener.cloud/domain',
    );
  });
});

describe('readDefaultDomains', () => {
  const garden = (secrets: Secret[]) => {
    const calls: unknown[] = [];
    return {
      calls,
      get: async (_kind: unknown, key: { namespace?: string; name: string }) => {
        calls.push(['get', key]);
        const found = secrets.find((s) => s.metadata?.name === key.name && s.metadata?.namespace === key.namespace);
        if (!found) throw Object.assign(new Error('not found'), { statusCode: 404 });
        return found;
      },
      list: async (_kind: unknown, opts: { namespace?: string; labelSelector?: unknown }) => {
        calls.push(['list', opts]);
        return { items: secrets.filter((s) => s.metadata?.namespace === opts.namespace) };
      },
    };
  };

  it("reads the default-domain Secrets of the seed's garden namespace when the Seed has no spec.dns.defaults", async () => {
    const g = garden([domainSecret('default-domain-external-local-gardener-cloud', 'external.local.gardener.cloud')]);
    const domains = await readDefaultDomains(g as never, values.seed);
    expect(domains.map((d) => [d.domain, d.type])).toEqual([['external.local.gardener.cloud', 'local']]);
    expect(g.calls).toEqual([
      ['list', { namespace: 'seed-local', labelSelector: { 'gardener.cloud/role': 'default-domain' } }],
    ]);
  });

  it("takes the Seed's spec.dns.defaults with their credentials instead", async () => {
    const creds: Secret = { metadata: { name: 'creds', namespace: 'garden' }, type: 'Opaque', data: { k: 'dg==' } };
    const seed = {
      ...values.seed,
      spec: {
        ...values.seed.spec,
        dns: {
          ...values.seed.spec.dns,
          defaults: [
            {
              type: 'aws-route53',
              domain: 'seed.example.com',
              zone: 'Z1',
              credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'creds', namespace: 'garden' },
            },
          ],
        },
      },
    };
    expect(await readDefaultDomains(garden([creds]) as never, seed)).toEqual([
      {
        domain: 'seed.example.com',
        type: 'aws-route53',
        zone: 'Z1',
        credentials: { type: 'Opaque', data: { k: 'dg==' } },
      },
    ]);
  });

  it("reads the primary provider's Secret in the project namespace for a domain under no default domain", async () => {
    const providerSecret: Secret = { metadata: { name: 'my-dns', namespace: 'garden-local' }, data: { k: 'dg==' } };
    const shoot = withDNS({
      domain: 'api.example.org',
      providers: [{ type: 'aws-route53', secretName: 'my-dns', primary: true, zones: { include: ['Z9'] } }],
    });
    expect(await readExternalDomain(garden([providerSecret]) as never, { shoot, seed: values.seed })).toEqual({
      domain: 'api.example.org',
      type: 'aws-route53',
      zone: 'Z9',
      credentials: { data: { k: 'dg==' } },
    });
  });
});

describe('externalDomainOf', () => {
  it('is undefined without spec.dns.domain, and the default domain provider for a domain under it', () => {
    expect(externalDomainOf(values.shoot, [local])).toBeUndefined();
    const shoot = withDNS({ domain: 'local.local.external.local.gardener.cloud' });
    expect(externalDomainOf(shoot, [local])).toEqual({ ...local, domain: 'local.local.external.local.gardener.cloud' });
  });

  it('needs a default domain or a primary provider with a secretName', () => {
    const other = withDNS({ domain: 'api.example.org' });
    expect(() => externalDomainOf(other, [local])).toThrow('incomplete DNS configuration');
    const noSecret = withDNS({ domain: 'api.example.org', providers: [{ type: 'aws-route53', primary: true }] });
    expect(() => externalDomainOf(noSecret, [local])).toThrow('the primary DNS provider has no secretName');
  });
});

describe('externalDNSSkipReason', () => {
  const served = (type: string) => type === 'local';
  it('runs the steps for a domain with a served provider, or when reading the provider failed (they fail with it)', () => {
    const shoot = withDNS({ domain: 'local.local.external.local.gardener.cloud' });
    expect(externalDNSSkipReason(shoot, local, served)).toBeUndefined();
    expect(externalDNSSkipReason(shoot, new Error('forbidden'), served)).toBeUndefined();
  });

  it('names why: no domain, unmanaged DNS, nip.io, a type no registration serves', () => {
    expect(externalDNSSkipReason(values.shoot, undefined, served)).toBe(
      'the shoot has no external domain (spec.dns.domain)',
    );
    const unmanaged = withDNS({ domain: 'x.example.org', providers: [{ type: 'unmanaged' }] });
    expect(usesUnmanagedDNS(unmanaged)).toBe(true);
    expect(externalDNSSkipReason(unmanaged, undefined, served)).toContain('unmanaged DNS');
    expect(externalDNSSkipReason(withDNS({ domain: '1.2.3.4.nip.io' }), undefined, served)).toContain('nip.io');
    expect(
      externalDNSSkipReason(withDNS({ domain: 'a.b.example.com' }), { ...local, type: 'aws-route53' }, served),
    ).toBe('no ControllerRegistration in the garden serves DNSRecord of type aws-route53');
  });
});

describe('advertisedAddresses', () => {
  it('lists external first, then internal, and always the load balancer address last', () => {
    expect(
      advertisedAddresses(
        {
          external: 'api.local.local.external.local.gardener.cloud',
          internal: 'api.local.local.internal.local.gardener.cloud',
        },
        'https://127.0.0.1:31443',
      ),
    ).toEqual([
      { name: 'external', url: 'https://api.local.local.external.local.gardener.cloud' },
      { name: 'internal', url: 'https://api.local.local.internal.local.gardener.cloud' },
      { name: 'unmanaged', url: 'https://127.0.0.1:31443' },
    ]);
    expect(advertisedAddresses({}, 'https://127.0.0.1:31443')).toEqual([
      { name: 'unmanaged', url: 'https://127.0.0.1:31443' },
    ]);
  });
});

describe("the botanist's external DNS record steps", () => {
  const registration = {
    metadata: { name: 'provider-local' },
    spec: { resources: [{ kind: 'DNSRecord', type: 'local' }] },
  };
  const fakeGarden = (secrets: Secret[], registrations: unknown[] = [registration]) => {
    const listed: string[] = [];
    const garden = {
      listed,
      list: async (k: { kind: string }, opts: { namespace?: string } = {}) => {
        listed.push(`${k.kind}${opts.namespace ? ` in ${opts.namespace}` : ''}`);
        if (k.kind === 'ControllerRegistration') return { items: registrations };
        return { items: secrets.filter((s) => s.metadata?.namespace === opts.namespace) };
      },
      patched: [] as unknown[],
      get: async (k: { kind: string }) => {
        if (k.kind === 'Service')
          return {
            spec: { ports: [{ port: 443 }] },
            status: { loadBalancer: { ingress: [{ ip: '127.0.0.1', ports: [{ port: 31443 }] }] } },
          };
        throw Object.assign(new Error('not found'), { statusCode: 404 });
      },
      create: async () => ({}),
      patch: async (_k: unknown, _key: unknown, patch: unknown) => {
        garden.patched.push(patch);
        return {};
      },
      delete: async () => ({}),
    };
    return garden;
  };
  const stepsOf = async (shoot: Shoot, garden: ReturnType<typeof fakeGarden>) => {
    const botanist = new Botanist(garden as never, garden as never, { ...values, shoot });
    await botanist.prepare();
    return { botanist, reconcile: botanist.reconcileSteps(), delete: botanist.deleteSteps() };
  };
  const defaultDomain = domainSecret('default-domain-external-local-gardener-cloud', 'external.local.gardener.cloud');

  it('deploys and destroys the record of a shoot under the default domain whose provider a registration serves', async () => {
    const garden = fakeGarden([defaultDomain]);
    const steps = await stepsOf(withDNS({ domain: 'local.local.external.local.gardener.cloud' }), garden);
    expect(typeof steps.reconcile.deployExternalDNSRecord).toBe('function');
    expect(typeof steps.reconcile.destroyExternalDNSRecord).toBe('function');
    expect(typeof steps.delete.destroyExternalDNSRecord).toBe('function');
    expect(garden.listed).toContain('Secret in seed-local');
  });

  it('is skipped, with the reason, without a domain or without a registration of the provider type; still destroyed then', async () => {
    const noDomain = fakeGarden([defaultDomain]);
    expect((await stepsOf(values.shoot, noDomain)).reconcile.deployExternalDNSRecord).toEqual({
      skip: 'the shoot has no external domain (spec.dns.domain)',
    });
    expect(noDomain.listed).not.toContain('Secret in seed-local');
    const unserved = await stepsOf(
      withDNS({ domain: 'local.local.external.local.gardener.cloud' }),
      fakeGarden([defaultDomain], []),
    );
    expect(unserved.reconcile.deployExternalDNSRecord).toEqual({
      skip: 'no ControllerRegistration in the garden serves DNSRecord of type local',
    });
    expect(typeof unserved.delete.destroyExternalDNSRecord).toBe('function');
  });

  it('advertises the domains whose records it writes, external first, and always the load balancer address', async () => {
    const addresses = async (shoot: Shoot, garden: ReturnType<typeof fakeGarden>) => {
      await (await stepsOf(shoot, garden)).botanist.updateAdvertisedAddresses();
      return (garden.patched.at(-1) as { patch: { status: { advertisedAddresses: unknown } } }).patch.status
        .advertisedAddresses;
    };
    const lb = { name: 'unmanaged', url: 'https://127.0.0.1:31443' };
    const internal = { name: 'internal', url: 'https://api.local.local.internal.local.gardener.cloud' };
    const external = { name: 'external', url: 'https://api.local.local.external.local.gardener.cloud' };
    const shoot = withDNS({ domain: 'local.local.external.local.gardener.cloud' });
    expect(await addresses(shoot, fakeGarden([defaultDomain]))).toEqual([external, internal, lb]);
    expect(await addresses(values.shoot, fakeGarden([defaultDomain]))).toEqual([internal, lb]);
    // No registration serves DNSRecord/local: no record is written, only the load balancer address is advertised.
    expect(await addresses(shoot, fakeGarden([defaultDomain], []))).toEqual([lb]);
  });

  it('fails the deploy step with the reason when the shoot domain has no provider (no default domain, no primary)', async () => {
    const steps = await stepsOf(withDNS({ domain: 'local.local.external.local.gardener.cloud' }), fakeGarden([]));
    const deploy = steps.reconcile.deployExternalDNSRecord;
    expect(typeof deploy).toBe('function');
    await expect((deploy as (s: AbortSignal) => Promise<void>)(new AbortController().signal)).rejects.toThrow(
      'incomplete DNS configuration',
    );
  });
});

describe('the kube-apiserver of a shoot with an external domain', () => {
  it('serves api.<domain> (certificate SANs) and names it as its external host name, before the internal one', () => {
    const shootValues = exampleValues((shoot) => {
      shoot.spec.dns = { domain: 'local.local.external.local.gardener.cloud' };
    });
    const names = kubeAPIServerDNSNames(shootValues);
    expect(names).toContain('api.local.local.external.local.gardener.cloud');
    expect(names).toContain('api.local.local.internal.local.gardener.cloud');
    expect(kubeAPIServerArgs(shootValues)).toContain(
      '--external-hostname=api.local.local.external.local.gardener.cloud',
    );
    expect(kubeAPIServerDNSNames(values)).not.toContain('api.local.local.external.local.gardener.cloud');
    expect(kubeAPIServerArgs(values)).toContain('--external-hostname=api.local.local.internal.local.gardener.cloud');
  });
});
