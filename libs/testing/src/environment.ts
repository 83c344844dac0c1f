// The test environment, like envtest: the in-process local API server with CRDs installed, and nats-server when asked.
import { KubeConfig } from '@kubernetes/client-node';
import { startTestCluster, type LocalApiServer } from '@gardener-ts/local-apiserver';
import { installCrds, loadCrds, type CrdSource } from './crds.js';
import { startNatsServer, type NatsServer } from './nats-server.js';

export interface TestEnvironmentOptions {
  /** CRD objects, or YAML/JSON files and directories of them. */
  crds?: CrdSource[];
  /** Start nats-server too; `{ jetstream: true }` enables JetStream. */
  nats?: boolean | { jetstream?: boolean; config?: string };
}

export interface TestEnvironment {
  kubeconfigPath: string;
  kubeConfig: KubeConfig;
  server: LocalApiServer;
  nats?: NatsServer;
  /** Stops nats-server and the API server and removes their temporary files. */
  stop(): Promise<void>;
}

export async function startTestEnvironment(options: TestEnvironmentOptions = {}): Promise<TestEnvironment> {
  // Read the CRDs first: a bad path fails before anything starts.
  const crds = await loadCrds(options.crds ?? []);
  const natsOptions = options.nats === true ? {} : options.nats || undefined;
  const [cluster, nats] = await Promise.allSettled([
    startTestCluster(),
    natsOptions ? startNatsServer(natsOptions) : Promise.resolve(undefined),
  ]);
  const stopStarted = async () => {
    await Promise.all([
      cluster.status === 'fulfilled' ? cluster.value.stop() : undefined,
      nats.status === 'fulfilled' ? nats.value?.stop() : undefined,
    ]);
  };
  if (cluster.status === 'rejected' || nats.status === 'rejected') {
    await stopStarted();
    throw cluster.status === 'rejected' ? cluster.reason : (nats as PromiseRejectedResult).reason;
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(cluster.value.kubeconfigPath);
  try {
    await installCrds(kubeConfig, crds);
  } catch (err) {
    await stopStarted();
    throw err;
  }
  return {
    kubeconfigPath: cluster.value.kubeconfigPath,
    kubeConfig,
    server: cluster.value.server,
    ...(nats.value ? { nats: nats.value } : {}),
    stop: stopStarted,
  };
}
