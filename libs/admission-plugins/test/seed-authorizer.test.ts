// The SeedAuthorizer as the authorization webhook of a test API server: gardenlets authenticated with static tokens
// (`gardener.cloud:system:seed:<name>` in `gardener.cloud:system:seeds`) driven with the real kubectl.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installCrds,
  kubectl,
  loadCrds,
  runKubectl,
  startTestCluster,
  workspaceRoot,
  type TestCluster,
} from '@gardener-ts/testing';
import { startTestGardenWebhooks, type TestGardenWebhooks } from '../src/testing.js';
import { tokenKubeconfig } from './kubeconfig.js';
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
  let webhooks: TestGardenWebhooks;
  let cluster: TestCluster;
  let admin: string;
  let seedA: string;
  let tokenDir: string;

  beforeAll(async () => {
    webhooks = await startTestGardenWebhooks();
    tokenDir = await mkdtemp(join(tmpdir(), 'seed-tokens-'));
    const tokenFile = join(tokenDir, 'tokens.csv');
    await writeFile(
      tokenFile,
      'token-a,gardener.cloud:system:seed:a,uid-a,"gardener.cloud:system:seeds"\ntoken-b,gardener.cloud:system:seed:b,uid-b,"gardener.cloud:system:seeds"\n',
    );
    cluster = await startTestCluster({
      tokenFile,
      authorizationWebhook: { url: webhooks.authorizationWebhookUrl, caPem: webhooks.caPem },
    });
    admin = cluster.kubeconfigPath;
    const kc = new KubeConfig();
    kc.loadFromFile(admin);
    await installCrds(kc, await loadCrds([join(workspaceRoot(), 'libs/api/crds')]));
    await webhooks.connect(admin);
    seedA = await tokenKubeconfig(admin, 'token-a', join(cluster.dir, 'seed-a.kubeconfig'));

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
    await webhooks?.stop();
    await cluster?.stop();
    await rm(tokenDir, { recursive: true, force: true });
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
