// The SeedAuthorizer as the authorization webhook of a test API server: gardenlets authenticated with static tokens
// (`gardener.cloud:system:seed:<name>` in `gardener.cloud:system:seeds`) driven with the real kubectl.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, workspaceRoot } from '@gardener-ts/testing';
import { startSeedGarden, type SeedGarden } from './kubeconfig.js';
import { example } from './examples.js';

const examples = join(workspaceRoot(), 'deploy/gardener/examples/local');

const shoot = (name: string, seed: string) =>
  JSON.stringify({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name, namespace: 'garden-local' },
    spec: {
      cloudProfile: { name: 'local' },
      credentialsBindingName: 'local',
      region: 'local',
      seedName: seed,
      networking: { type: 'calico', nodes: '10.0.0.0/16', pods: '10.1.0.0/16', services: '10.2.0.0/16' },
      provider: { type: 'local', workers: [{ name: 'local', machine: { type: 'local' }, minimum: 1, maximum: 2 }] },
      kubernetes: {},
    },
  });

describe('SeedAuthorizer', () => {
  let garden: SeedGarden;
  let admin: string;
  let seedA: string;

  beforeAll(async () => {
    garden = await startSeedGarden(['a', 'b']);
    admin = garden.admin;
    seedA = await garden.seedKubeconfig('a');

    for (const file of ['cloudprofile.yaml', 'namespace.yaml', 'project.yaml'])
      await kubectl(admin, ['apply', '-f', join(examples, file)]);
    await kubectl(admin, ['create', 'secret', 'generic', 'local', '-n', 'garden-local']);
    await kubectl(admin, ['apply', '-f', join(examples, 'credentialsbinding.yaml')]);
    // The Seeds exist before Shoots name them (ShootMutator reads the Seed of a Shoot).
    for (const name of ['a', 'b']) {
      const seed = example('50-seed.yaml');
      seed.metadata!.name = name;
      await kubectl(admin, ['apply', '-f', '-'], { input: JSON.stringify(seed) });
    }
    await kubectl(admin, ['apply', '-f', '-'], { input: shoot('on-a', 'a') });
    await kubectl(admin, ['apply', '-f', '-'], { input: shoot('on-b', 'b') });
    for (const seed of ['a', 'b']) {
      await kubectl(admin, ['create', 'namespace', `seed-${seed}`]);
      await kubectl(admin, ['create', 'secret', 'generic', 'backup', '-n', `seed-${seed}`]);
    }
  }, 120_000);

  afterAll(async () => {
    await garden?.stop();
  });

  it('lets the gardenlet of seed a read and update the Shoots on seed a, and list Shoots', async () => {
    expect(
      await kubectl(seedA, ['get', 'shoot', 'on-a', '-n', 'garden-local', '-o', 'jsonpath={.spec.seedName}']),
    ).toBe('a');
    await kubectl(seedA, ['annotate', 'shoot', 'on-a', '-n', 'garden-local', 'gardener.cloud/operation=reconcile']);
    expect(await kubectl(seedA, ['get', 'shoots', '-A', '-o', 'name'])).toContain('on-b');
  });

  it('refuses the gardenlet of seed a to change a Shoot on seed b with 403 (reading Shoots is always allowed)', async () => {
    const update = await runKubectl(seedA, ['annotate', 'shoot', 'on-b', '-n', 'garden-local', 'x=y']);
    expect(update.code).not.toBe(0);
    expect(update.stderr).toContain('Forbidden');
    expect(update.stderr).toContain('gardener.cloud:system:seed:a');
  });

  it("gives the gardenlet its seed's Secrets and the credentials its shoots use, not another seed's", async () => {
    await kubectl(seedA, ['get', 'secret', 'backup', '-n', 'seed-a']);
    await kubectl(seedA, ['get', 'secret', 'local', '-n', 'garden-local']);
    const other = await runKubectl(seedA, ['get', 'secret', 'backup', '-n', 'seed-b']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('Forbidden');
    const listAll = await runKubectl(seedA, ['get', 'secrets', '-A']);
    expect(listAll.stderr).toContain('Forbidden');
  });

  it('lets the gardenlet read garden-wide configuration but not change it', async () => {
    await kubectl(seedA, ['get', 'cloudprofile', 'local']);
    const change = await runKubectl(seedA, ['annotate', 'cloudprofile', 'local', 'x=y']);
    expect(change.stderr).toContain('Forbidden');
  });
});
