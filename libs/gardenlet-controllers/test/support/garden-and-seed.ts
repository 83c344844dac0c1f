// A garden and a seed for the gardenlet controllers' integration tests: two local API servers, each with its CRDs
// installed and its namespaces created, and a manager with the clusters `garden` and `seed` as the gardenlet has them.
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiClient, Manager } from '@gardener-ts/controller-runtime';
import { installCrds, loadCrds, startTestCluster, type TestCluster } from '@gardener-ts/testing';

/** What the CRDs of a cluster are read from (`loadCrds`). */
export type CrdSources = Parameters<typeof loadCrds>[0];

/** One cluster of the pair: its CRDs, its namespaces, and options of the API server. */
export interface ClusterSpec {
  crds: CrdSources;
  namespaces: string[];
  options?: Parameters<typeof startTestCluster>[0];
}

/** A running local API server with an admin client and its kubeconfig. */
export interface StartedCluster {
  cluster: TestCluster;
  client: ApiClient;
  kubeConfig: KubeConfig;
}

/** The pair; `startManager` registers controllers and starts the manager, `stop` takes everything down. */
export interface GardenAndSeed {
  garden: StartedCluster;
  seed: StartedCluster;
  startManager(addControllers: (mgr: Manager) => void): Promise<Manager>;
  stop(): Promise<void>;
}

async function startCluster(spec: ClusterSpec): Promise<StartedCluster> {
  const cluster = await startTestCluster(spec.options);
  try {
    const { KubeConfig } = await import('@kubernetes/client-node');
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(cluster.kubeconfigPath);
    await installCrds(kubeConfig, await loadCrds(spec.crds));
    const client = await ApiClient.create(cluster.kubeconfigPath);
    for (const name of spec.namespaces)
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return { cluster, client, kubeConfig };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

async function stopCluster(c: StartedCluster): Promise<void> {
  c.client.close();
  await c.cluster.stop();
}

/** Starts the garden, then the seed. */
export async function startGardenAndSeed(specs: { garden: ClusterSpec; seed: ClusterSpec }): Promise<GardenAndSeed> {
  const garden = await startCluster(specs.garden);
  let seed: StartedCluster;
  try {
    seed = await startCluster(specs.seed);
  } catch (err) {
    await stopCluster(garden);
    throw err;
  }
  let mgr: Manager | undefined;
  return {
    garden,
    seed,
    async startManager(addControllers) {
      mgr = await Manager.create({
        clusters: {
          garden: { kubeConfig: garden.cluster.kubeconfigPath },
          seed: { kubeConfig: seed.cluster.kubeconfigPath },
        },
        gracefulShutdownTimeoutMs: 0,
      });
      addControllers(mgr);
      await mgr.start();
      return mgr;
    },
    async stop() {
      await mgr?.stop();
      await stopCluster(seed);
      await stopCluster(garden);
    },
  };
}
