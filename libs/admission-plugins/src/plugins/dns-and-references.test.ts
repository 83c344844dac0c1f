import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { NamespaceDeletion } from './namespace-deletion.js';
import { ShootDNS } from './shoot-dns.js';
import type { KubeObject } from '../attributes.js';

const project = () => example('local/project.yaml');
const defaultDomain: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'default-domain-local',
    namespace: 'garden',
    labels: { 'gardener.cloud/role': 'default-domain' },
    annotations: { 'dns.gardener.cloud/domain': 'local.gardener.cloud', 'dns.gardener.cloud/provider': 'local' },
  },
};

describe('ShootDNS', () => {
  const bound = (change: (shoot: KubeObject) => void = () => undefined) => {
    const shoot = example('local/shoot.yaml');
    shoot.spec.seedName = 'local';
    change(shoot);
    return shoot;
  };
  const seed = (defaults?: { domain: string }[]): KubeObject => ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name: 'local' },
    spec: { dns: defaults ? { defaults } : {} },
  });
  const domainSecret = (name: string, domain: string, priority?: string): KubeObject => ({
    ...defaultDomain,
    metadata: {
      ...defaultDomain.metadata,
      name,
      annotations: {
        'dns.gardener.cloud/domain': domain,
        'dns.gardener.cloud/provider': 'local',
        ...(priority ? { 'dns.gardener.cloud/domain-default-priority': priority } : {}),
      },
    },
  });

  it('gives a Shoot without a domain <shoot>.<project>.<default domain> once it is bound to a seed', async () => {
    const listers = staticListers([project(), defaultDomain, seed()]);
    const unbound = await runChain([ShootDNS], request('CREATE', example('local/shoot.yaml')), listers);
    expect(unbound).toEqual({ allowed: true, warnings: [] });
    const created = await runChain([ShootDNS], request('CREATE', bound()), listers);
    expect(created.allowed && created.object?.spec.dns).toEqual({ domain: 'local.local.local.gardener.cloud' });
    // The scheduler binds with an update of spec.seedName.
    const binding = await runChain([ShootDNS], request('UPDATE', bound(), example('local/shoot.yaml')), listers);
    expect(binding.allowed && binding.object?.spec.dns).toEqual({ domain: 'local.local.local.gardener.cloud' });
  });

  it("takes the highest priority default domain, or the seed's spec.dns.defaults when it has any", async () => {
    const secrets = [domainSecret('a', 'a.example.com'), domainSecret('b', 'b.example.com', '10')];
    const byPriority = await runChain(
      [ShootDNS],
      request('CREATE', bound()),
      staticListers([project(), seed(), ...secrets]),
    );
    expect(byPriority.allowed && byPriority.object?.spec.dns.domain).toBe('local.local.b.example.com');
    const bySeed = await runChain(
      [ShootDNS],
      request('CREATE', bound()),
      staticListers([project(), seed([{ domain: 'seed.example.com' }]), ...secrets]),
    );
    expect(bySeed.allowed && bySeed.object?.spec.dns.domain).toBe('local.local.seed.example.com');
  });

  it('leaves Shoots alone when the garden has no default domain, and unmanaged DNS', async () => {
    expect(await runChain([ShootDNS], request('CREATE', bound()), staticListers([project(), seed()]))).toEqual({
      allowed: true,
      warnings: [],
    });
    const unmanaged = bound((s) => (s.spec.dns = { providers: [{ type: 'unmanaged' }] }));
    expect(
      await runChain([ShootDNS], request('CREATE', unmanaged), staticListers([project(), seed(), defaultDomain])),
    ).toEqual({ allowed: true, warnings: [] });
  });

  it('marks the first provider of a domain of its own primary, and keeps a primary flag an update dropped', async () => {
    const listers = staticListers([project(), seed(), defaultDomain]);
    const own = bound(
      (s) => (s.spec.dns = { domain: 'api.example.org', providers: [{ type: 'aws-route53', secretName: 'dns' }] }),
    );
    const created = await runChain([ShootDNS], request('CREATE', own), listers);
    expect(created.allowed && created.object?.spec.dns.providers).toEqual([
      { type: 'aws-route53', secretName: 'dns', primary: true },
    ]);
    const old = bound(
      (s) =>
        (s.spec.dns = {
          domain: 'api.example.org',
          providers: [{ type: 'aws-route53', secretName: 'dns', primary: true }],
        }),
    );
    const dropped = bound(
      (s) =>
        (s.spec.dns = {
          domain: 'api.example.org',
          providers: [
            { type: 'other', secretName: 'x' },
            { type: 'aws-route53', secretName: 'dns' },
          ],
        }),
    );
    const updated = await runChain([ShootDNS], request('UPDATE', dropped, old), listers);
    expect(updated.allowed && updated.object?.spec.dns.providers).toEqual([
      { type: 'other', secretName: 'x' },
      { type: 'aws-route53', secretName: 'dns', primary: true },
    ]);
  });

  it('refuses another name under the default domain, and a primary provider with it', async () => {
    const listers = staticListers([project(), defaultDomain]);
    const shoot = example('local/shoot.yaml');
    shoot.spec.dns = { domain: 'other.local.gardener.cloud', providers: [{ type: 'local', primary: true }] };
    const result = await runChain([ShootDNS], request('CREATE', shoot), listers);
    expect(!result.allowed && result.code).toBe(422);
    expect(!result.allowed && result.message).toContain(
      `spec.dns.domain: Invalid value: "other.local.gardener.cloud": shoot uses a default domain but does not match expected scheme: <shoot-name>.<project-name>.<default-domain> (expected 'local.local.local.gardener.cloud', but got 'other.local.gardener.cloud')`,
    );
    expect(!result.allowed && result.message).toContain(
      'spec.dns.providers[0].primary: Invalid value: true: primary dns provider must not be set when default domain is used',
    );
    // A shoot with a generated name: <random>.<project>.<default domain>.
    const generated = example('local/shoot.yaml');
    generated.metadata = { ...generated.metadata, name: '', generateName: 'gen-' };
    generated.spec.dns = { domain: 'x1y2z.local.local.gardener.cloud' };
    expect((await runChain([ShootDNS], request('CREATE', generated), listers)).allowed).toBe(true);
    generated.spec.dns = { domain: 'x1y2z.other.local.gardener.cloud' };
    expect((await runChain([ShootDNS], request('CREATE', generated), listers)) as { message?: string }).toMatchObject({
      message: expect.stringContaining("expected '.local.local.gardener.cloud' to be a suffix"),
    });
  });

  it('checks the format on updates only while the shoot was unbound or had no domain', async () => {
    const listers = staticListers([project(), seed(), defaultDomain]);
    const wrong = bound((s) => (s.spec.dns = { domain: 'other.local.gardener.cloud' }));
    expect((await runChain([ShootDNS], request('UPDATE', wrong, wrong), listers)).allowed).toBe(true);
    const unbound = example('local/shoot.yaml');
    unbound.spec.dns = { domain: 'other.local.gardener.cloud' };
    expect((await runChain([ShootDNS], request('UPDATE', wrong, unbound), listers)).allowed).toBe(false);
  });
});

describe('NamespaceDeletion', () => {
  const namespace: KubeObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: 'garden-local',
      labels: { 'gardener.cloud/role': 'project', 'project.gardener.cloud/name': 'local' },
    },
  };

  it("refuses deleting a project's namespace directly, allows it once the project is being deleted", async () => {
    const attributes = {
      ...request('DELETE', undefined, namespace),
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
    };
    const refused = await runChain([NamespaceDeletion], attributes, staticListers([project()]));
    expect(!refused.allowed && refused.message).toBe(
      'namespaces "garden-local" is forbidden: direct deletion of namespace "garden-local" is forbidden: it belongs to project "local", delete the project instead',
    );
    const deleting = { ...project(), metadata: { ...project().metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect((await runChain([NamespaceDeletion], attributes, staticListers([deleting]))).allowed).toBe(true);
    const plain = { ...attributes, oldObject: { ...namespace, metadata: { name: 'garden-local' } } };
    expect((await runChain([NamespaceDeletion], plain, staticListers([project()]))).allowed).toBe(true);
  });
});
