import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { LabelPrefixSeedName, maintainSeedNameLabels, SeedMutator, SeedValidator } from './seed.js';

const seed = () => example('50-seed.yaml');
const shootOn = (seedName: string, domain?: string): KubeObject => {
  const s = example('local/shoot.yaml');
  s.spec.seedName = seedName;
  if (domain) s.spec.dns = { domain };
  return s;
};
const managedSeed = (name: string, shootName: string): KubeObject => ({
  apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
  kind: 'ManagedSeed',
  metadata: { name, namespace: 'garden' },
  spec: { shoot: { name: shootName } },
});

describe('SeedMutator', () => {
  it("labels Gardener's example Seed with its own name", async () => {
    const result = await runChain([SeedMutator], request('CREATE', seed()), staticListers([]));
    expect(result.allowed && result.object?.metadata?.labels).toEqual({ 'name.seed.gardener.cloud/my-seed': 'true' });
  });

  it("adds the seed of a ManagedSeed's Shoot and drops stale seed name labels", async () => {
    const s = seed();
    s.metadata!.labels = { 'name.seed.gardener.cloud/old': 'true', team: 'a' };
    const shoot = { ...shootOn('parent'), metadata: { name: 'my-seed-shoot', namespace: 'garden' } };
    const result = await runChain(
      [SeedMutator],
      request('UPDATE', s, seed()),
      staticListers([managedSeed('my-seed', 'my-seed-shoot'), shoot]),
    );
    expect(result.allowed && result.object?.metadata?.labels).toEqual({
      team: 'a',
      'name.seed.gardener.cloud/my-seed': 'true',
      'name.seed.gardener.cloud/parent': 'true',
    });
  });

  it("fails when the ManagedSeed's Shoot does not exist", async () => {
    const result = await runChain(
      [SeedMutator],
      request('CREATE', seed()),
      staticListers([managedSeed('my-seed', 'x')]),
    );
    expect(result).toMatchObject({
      allowed: false,
      code: 500,
      message: 'failed to get shoot x for managed seed "my-seed": shoot.core.gardener.cloud "x" not found',
    });
  });

  it('keeps exactly one label per given name and every other label (property)', () => {
    const key = fc.oneof(
      fc.constantFrom('team', 'env'),
      fc.string({ minLength: 1, maxLength: 5 }).map((n) => `${LabelPrefixSeedName}${n}`),
    );
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.constant('true')),
        fc.array(fc.option(fc.string({ maxLength: 5 }))),
        (labels, names) => {
          const result = maintainSeedNameLabels(labels, ...names.map((n) => n ?? undefined)) ?? {};
          const seedKeys = Object.keys(result).filter((k) => k.startsWith(LabelPrefixSeedName));
          expect(new Set(seedKeys)).toEqual(new Set(names.filter(Boolean).map((n) => `${LabelPrefixSeedName}${n}`)));
          for (const [k, v] of Object.entries(labels))
            if (!k.startsWith(LabelPrefixSeedName)) expect(result[k]).toBe(v);
        },
      ),
    );
  });
});

describe('SeedValidator', () => {
  const update = (s: KubeObject, old: KubeObject, objects: KubeObject[]) =>
    runChain([SeedValidator], request('UPDATE', s, old), staticListers(objects));

  it('refuses removing a zone while Shoots are scheduled to the Seed', async () => {
    const old = seed();
    old.spec.provider.zones = ['europe-1a', 'europe-1b', 'europe-1c'];
    const s = seed();
    s.spec.provider.zones = ['europe-1a'];
    expect(await update(s, old, [shootOn('my-seed')])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'Seed.core.gardener.cloud "my-seed" is forbidden: cannot remove zones [europe-1b europe-1c] from Seed my-seed as there are Shoots scheduled to this Seed',
    });
    expect((await update(s, old, [shootOn('other')])).allowed).toBe(true);
    const adding = seed();
    adding.spec.provider.zones = ['europe-1a', 'europe-1d'];
    expect((await update(adding, seed(), [shootOn('my-seed')])).allowed).toBe(true);
  });

  it('refuses changing the internal domain while Shoots use the Seed', async () => {
    const s = seed();
    s.spec.dns.internal.domain = 'internal.other.example.com';
    expect(await update(s, seed(), [shootOn('my-seed')])).toMatchObject({
      allowed: false,
      message:
        'Seed.core.gardener.cloud "my-seed" is forbidden: cannot change internal domain as the Seed "my-seed" is still in use by shoots',
    });
    expect((await update(s, seed(), [])).allowed).toBe(true);
  });

  it('refuses removing a default domain a Shoot on the Seed uses', async () => {
    const defaults = (...domains: string[]) =>
      domains.map((domain) => ({
        type: 'aws-route53',
        domain,
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'd', namespace: 'garden' },
      }));
    const old = seed();
    old.spec.dns.defaults = defaults('example.com', 'test.org');
    const s = seed();
    s.spec.dns.defaults = defaults('test.org');
    expect(await update(s, old, [shootOn('my-seed', 'local.garden.example.com')])).toMatchObject({
      allowed: false,
      message:
        'Seed.core.gardener.cloud "my-seed" is forbidden: cannot remove default domains [example.com] from Seed "my-seed" as they are still being used by shoots',
    });
    expect((await update(s, old, [shootOn('my-seed', 'local.garden.test.org')])).allowed).toBe(true);

    // From the garden's global default domains to explicit ones: those in use must stay.
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'default-domain',
        namespace: 'garden',
        labels: { 'gardener.cloud/role': 'default-domain' },
        annotations: { 'dns.gardener.cloud/domain': 'example.com' },
      },
    };
    expect(await update(s, seed(), [secret, shootOn('my-seed', 'local.garden.example.com')])).toMatchObject({
      allowed: false,
      message:
        'Seed.core.gardener.cloud "my-seed" is forbidden: cannot configure explicit default domains for Seed "my-seed" without including domains [example.com] that are currently being used by shoots',
    });
  });

  it('refuses a backup WorkloadIdentity of another provider type', async () => {
    const s = seed();
    s.spec.backup.credentialsRef = {
      apiVersion: 'security.gardener.cloud/v1alpha1',
      kind: 'WorkloadIdentity',
      name: 'backup',
      namespace: 'garden',
    };
    const identity = (type: string) => ({
      apiVersion: 'security.gardener.cloud/v1alpha1',
      kind: 'WorkloadIdentity',
      metadata: { name: 'backup', namespace: 'garden' },
      spec: { audiences: ['a'], targetSystem: { type } },
    });
    const create = (objects: KubeObject[]) => runChain([SeedValidator], request('CREATE', s), staticListers(objects));
    expect(await create([identity('aws')])).toMatchObject({
      allowed: false,
      message:
        'seeds.core.gardener.cloud "my-seed" is forbidden: seed using backup of type "local" cannot use WorkloadIdentity of type "aws"',
    });
    expect((await create([identity('local')])).allowed).toBe(true);
    expect(await create([])).toMatchObject({ allowed: false, code: 500 });
  });

  it('refuses deleting a Seed that Shoots are scheduled to or run on', async () => {
    const running = shootOn('other');
    running.status = { seedName: 'my-seed' };
    expect(
      await runChain([SeedValidator], request('DELETE', undefined, seed()), staticListers([running])),
    ).toMatchObject({
      allowed: false,
      message:
        'seeds.core.gardener.cloud "my-seed" is forbidden: cannot delete seed my-seed since it is still used by shoot(s)',
    });
  });
});
