// One local cluster in one process: the API server, the controller manager, the kubelets of its nodes and the service
// proxy, started in dependency order and stopped in reverse. Pods run as child processes of the kubelet; stopping the
// supervisor stops every one of them.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { LocalApiServer } from '@gardener-ts/local-apiserver';
import type { Logger } from '@gardener-ts/logging';
import { ServiceProxy } from '../proxy/service-proxy.js';
import { killLeftovers } from '../kubelet/runtime/pid-records.js';
import {
  choosePodCIDR,
  clusterNodes,
  readSettings,
  resolveNodeSettings,
  writeSettings,
  type ClusterLayout,
  type ClusterSettings,
  type NodeRequest,
  type NodeSpec,
} from './layout.js';

export interface Component {
  name: string;
  stop(): Promise<void>;
}

/** Starts a further component once the API server (and the proxy) run: the controller manager, the kubelet. */
export type ComponentStarter = (context: ClusterContext) => Promise<Component>;

export interface ClusterContext {
  layout: ClusterLayout;
  settings: ClusterSettings;
  /** The cluster's nodes: one kubelet each. */
  nodes: NodeSpec[];
  kubeConfig: KubeConfig;
  apiServer: LocalApiServer;
  logger: Logger;
}

export interface RunningCluster {
  context: ClusterContext;
  stop(): Promise<void>;
}

export interface RunClusterOptions {
  /** The API server's port; default the port of the previous run, else any free one. */
  apiServerPort?: number;
  /** Node count and zones; only at the first run, later runs keep them (and refuse others). */
  nodes?: NodeRequest;
  /**
   * What the API server verifies kubelet serving certificates with (kube's --kubelet-certificate-authority): default
   * true, the cluster CA that issues the kubelets' bootstrapped certificates; a PEM; or false, not verified (for
   * kubelets serving self-signed certificates, `defaultComponents({ serverTLSBootstrap: false })`).
   */
  kubeletCertificateAuthority?: string | boolean;
  /**
   * kube's --api-audiences: the audiences accepted ServiceAccount tokens may be for (default: the issuer). A cluster
   * that is also Gardener's garden accepts `gardener` too, the audience of the tokens the gardenlet's TokenRequestor
   * issues for extensions' garden access.
   */
  apiAudiences?: string[];
}

export async function runCluster(
  layout: ClusterLayout,
  starters: ComponentStarter[],
  logger: Logger,
  options: RunClusterOptions = {},
): Promise<RunningCluster> {
  await mkdir(layout.root, { recursive: true, mode: 0o700 });
  const previous = readSettings(layout);
  const { nodes, zones } = resolveNodeSettings(layout.name, previous, options.nodes);
  const apiServer = await LocalApiServer.start({
    dataDir: layout.apiserver,
    port: options.apiServerPort ?? previous?.apiServerPort ?? 0,
    storage: 'file',
    // kube's --kubelet-certificate-authority: the cluster CA, which signs the kubelets' bootstrapped serving certificates.
    kubeletCertificateAuthority:
      options.kubeletCertificateAuthority === false ? undefined : (options.kubeletCertificateAuthority ?? true),
    logger: logger.child({ component: 'apiserver' }),
    ...(options.apiAudiences ? { serviceAccount: { apiAudiences: options.apiAudiences } } : {}),
  });
  const settings: ClusterSettings = {
    apiServerPort: apiServer.port,
    nodeName: previous?.nodeName ?? `${layout.name}-node`,
    podCIDR: previous?.podCIDR ?? choosePodCIDR(layout),
    ...(nodes > 1 || previous?.nodes !== undefined ? { nodes } : {}),
    ...(zones.length || previous?.zones !== undefined ? { zones } : {}),
  };
  if (JSON.stringify(previous) !== JSON.stringify(settings)) await writeSettings(layout, settings);

  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(apiServer.kubeconfig);
  const context: ClusterContext = {
    layout,
    settings,
    nodes: clusterNodes(layout, settings),
    kubeConfig,
    apiServer,
    logger,
  };
  await killStrayNodeProcesses(context).catch((err) => logger.error({ err }, 'cleaning up node directories failed'));
  const components: Component[] = [{ name: 'apiserver', stop: () => apiServer.stop() }];
  const stop = async () => {
    await rm(layout.ready, { force: true });
    for (const component of components.reverse()) {
      await component.stop().catch((err) => logger.error({ err, component: component.name }, 'stopping failed'));
    }
  };
  try {
    const proxy = new ServiceProxy({
      kubeConfig,
      stateFile: layout.services,
      logger: logger.child({ component: 'service-proxy' }),
    });
    await proxy.start();
    components.push({ name: 'service-proxy', stop: () => proxy.stop() });
    for (const start of starters) components.push(await start(context));
  } catch (err) {
    await stop();
    throw err;
  }
  await writeFile(layout.ready, new Date().toISOString() + '\n');
  return { context, stop };
}

// Each kubelet kills what a previous kubelet of its data dir left running; a node directory no current node owns
// (cluster.json edited by hand) gets the same treatment here, so no Pod process outlives its cluster.
async function killStrayNodeProcesses({ layout, nodes, logger }: ClusterContext): Promise<void> {
  const owned = new Set(nodes.map((n) => n.dataDir));
  const dirs = await readdir(layout.nodes).catch(() => [] as string[]);
  for (const dir of dirs.map((d) => join(layout.nodes, d)).filter((d) => !owned.has(d))) {
    const pids = await killLeftovers(join(dir, 'pods'));
    if (pids.length)
      logger.info({ pids, dir }, 'Killed processes left in the directory of a node the cluster no longer has');
  }
}
