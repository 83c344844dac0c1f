// The garden the seed authorization integration tests run against, and kubeconfigs to act as someone else on it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { installCrds, loadCrds, startTestCluster, workspaceRoot, type TestCluster } from '@gardener-ts/testing';
import { startTestGardenWebhooks, type TestGardenWebhooks } from '../src/testing.js';

/** A kubeconfig for the same API server that authenticates with a bearer token. */
export async function tokenKubeconfig(admin: string, token: string, file: string): Promise<string> {
  const kc = new KubeConfig();
  kc.loadFromFile(admin);
  const cluster = kc.getCurrentCluster()!;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData } }],
    users: [{ name: 'u', user: { token } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'c',
  };
  await writeFile(file, JSON.stringify(config), { mode: 0o600 });
  return file;
}

/** A garden for the seed authorization tests: a test API server calling the admission and authorization webhooks. */
export interface SeedGarden {
  webhooks: TestGardenWebhooks;
  cluster: TestCluster;
  /** The admin kubeconfig. */
  admin: string;
  /** The kubeconfig of seed `name`'s gardenlet (a static token in `gardener.cloud:system:seeds`). */
  seedKubeconfig(name: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the garden's webhooks and a test API server that calls them, with a static token for the gardenlet of each
 * of `seeds` and the Gardener CRDs installed.
 */
export async function startSeedGarden(seeds: string[]): Promise<SeedGarden> {
  const webhooks = await startTestGardenWebhooks();
  const tokenDir = await mkdtemp(join(tmpdir(), 'seed-tokens-'));
  const tokenFile = join(tokenDir, 'tokens.csv');
  await writeFile(
    tokenFile,
    seeds.map((s) => `token-${s},gardener.cloud:system:seed:${s},uid-${s},"gardener.cloud:system:seeds"\n`).join(''),
  );
  const cluster = await startTestCluster({
    tokenFile,
    authorizationWebhook: { url: webhooks.authorizationWebhookUrl, caPem: webhooks.caPem },
  });
  const admin = cluster.kubeconfigPath;
  const kc = new KubeConfig();
  kc.loadFromFile(admin);
  await installCrds(kc, await loadCrds([join(workspaceRoot(), 'libs/api/crds')]));
  await webhooks.connect(admin);
  return {
    webhooks,
    cluster,
    admin,
    seedKubeconfig: (name) => tokenKubeconfig(admin, `token-${name}`, join(cluster.dir, `seed-${name}.kubeconfig`)),
    stop: async () => {
      await webhooks.stop();
      await cluster.stop();
      await rm(tokenDir, { recursive: true, force: true });
    },
  };
}
