import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { ResourceReferenceManager } from './resource-reference-manager.js';
import { ShootManagedSeed } from './seed-and-managed-seed.js';
import { SeedValidator } from './seed.js';

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'local', namespace: 'garden-local' } };
const readAll = async () => true;

describe('ResourceReferenceManager', () => {
  it('refuses a CredentialsBinding whose Secret does not exist, accepts it once it does', async () => {
    const binding = example('local/credentialsbinding.yaml');
    expect(
      await runChain([ResourceReferenceManager], request('CREATE', binding), staticListers([], readAll)),
    ).toMatchObject({
      allowed: false,
      code: 403,
      message: 'credentialsbindings.security.gardener.cloud "local" is forbidden: secrets "local" not found',
    });
    expect(
      (await runChain([ResourceReferenceManager], request('CREATE', binding), staticListers([secret], readAll)))
        .allowed,
    ).toBe(true);
  });

  it('refuses a Shoot whose CredentialsBinding does not exist and annotates a new Shoot with its creator', async () => {
    const shoot = example('local/shoot.yaml');
    const profile = example('local/cloudprofile.yaml');
    const refused = await runChain([ResourceReferenceManager], request('CREATE', shoot), staticListers([profile]));
    // Gardener's lister error names the lowercase kind.
    expect(!refused.allowed && refused.message).toBe(
      'shoots.core.gardener.cloud "local" is forbidden: credentialsbinding.security.gardener.cloud "local" not found',
    );
    const result = await runChain(
      [ResourceReferenceManager],
      request('CREATE', shoot),
      staticListers([profile, example('local/credentialsbinding.yaml')]),
    );
    expect(result.allowed && result.object?.metadata?.annotations?.['gardener.cloud/created-by']).toBe(
      'alice@example.com',
    );
  });

  it('does not recheck references that did not change', async () => {
    const shoot = example('local/shoot.yaml');
    expect(
      (await runChain([ResourceReferenceManager], request('UPDATE', shoot, shoot), staticListers([]))).allowed,
    ).toBe(true);
  });
});

describe('SeedValidator and ShootManagedSeed', () => {
  it('refuses to delete a Seed that Shoots are scheduled to', async () => {
    const seed = example('50-seed.yaml');
    const shoot = {
      ...example('local/shoot.yaml'),
      spec: { ...example('local/shoot.yaml').spec, seedName: seed.metadata!.name },
    };
    expect(await runChain([SeedValidator], request('DELETE', undefined, seed), staticListers([shoot]))).toMatchObject({
      allowed: false,
      message: `seeds.core.gardener.cloud "${seed.metadata!.name}" is forbidden: cannot delete seed ${seed.metadata!.name} since it is still used by shoot(s)`,
    });
    expect((await runChain([SeedValidator], request('DELETE', undefined, seed), staticListers([]))).allowed).toBe(true);
  });

  it('refuses to delete a Shoot registered as a ManagedSeed', async () => {
    const shoot = example('local/shoot.yaml');
    const managedSeed = {
      apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
      kind: 'ManagedSeed',
      metadata: { name: 'ms', namespace: 'garden-local' },
      spec: { shoot: { name: 'local' } },
    };
    const result = await runChain(
      [ShootManagedSeed],
      request('DELETE', undefined, shoot),
      staticListers([managedSeed]),
    );
    expect(!result.allowed && result.message).toContain(
      'cannot delete shoot garden-local/local since it is still referenced by a managed seed',
    );
  });
});

describe('ResourceReferenceManager on Gardenlets and ManagedSeeds', () => {
  const object = (kind: string, name = 'local', namespace = 'garden') => ({
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind,
    metadata: { name, namespace },
    spec: {},
  });

  it('refuses a Gardenlet named like a ManagedSeed of its namespace and the other way round (a plain 500)', async () => {
    const listers = staticListers([object('ManagedSeed'), object('Gardenlet', 'other')]);
    expect(await runChain([ResourceReferenceManager], request('CREATE', object('Gardenlet')), listers)).toMatchObject({
      allowed: false,
      code: 500,
      message: 'cannot create Gardenlet garden/local since there is already a ManagedSeed object with the same name',
    });
    expect(
      await runChain(
        [ResourceReferenceManager],
        request('UPDATE', object('ManagedSeed', 'other'), object('ManagedSeed', 'other')),
        listers,
      ),
    ).toMatchObject({
      allowed: false,
      code: 500,
      message: 'cannot create ManagedSeed garden/other since there is already a Gardenlet object with the same name',
    });
    const elsewhere = object('Gardenlet', 'local', 'garden-other');
    expect((await runChain([ResourceReferenceManager], request('CREATE', elsewhere), listers)).allowed).toBe(true);
    const deleting = object('ManagedSeed', 'other');
    (deleting.metadata as Record<string, unknown>).deletionTimestamp = '2026-01-01T00:00:00Z';
    expect((await runChain([ResourceReferenceManager], request('UPDATE', deleting, deleting), listers)).allowed).toBe(
      true,
    );
  });
});
