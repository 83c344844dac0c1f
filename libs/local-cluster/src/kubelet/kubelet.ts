// The local kubelet: registers a Node and runs the Pods bound to it as local processes.
import { chmod, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { quantityValue } from '@gardener-ts/api';
import { KUBERNETES_VERSION } from '@gardener-ts/local-apiserver';
import { builtinImageMap } from '../images/builtin.js';
import { ImageMap } from '../images/image-map.js';
import { kubeClients, type KubeClients } from './api/kube-client.js';
import { capacity } from './node/machine.js';
import { NodeAgent } from './node/node-agent.js';
import { nodeAddresses, nodeLabels } from './node/node-object.js';
import { KUBELET_DEFAULTS, type KubeletOptions } from './options.js';
import { PodSource } from './pod-source.js';
import { PodIPs } from './pods/pod-ips.js';
import { PodWorker, type PodWorkerDeps } from './pods/pod-worker.js';
import { DEFAULT_BACKOFF } from './runtime/backoff.js';
import { DEFAULT_LOG_ROTATION, type LogRotation } from './runtime/log-file.js';
import { killLeftovers } from './runtime/pid-records.js';
import { startHealthzServer, type HealthzServer } from './server/healthz-server.js';
import { KubeletServer } from './server/kubelet-server.js';
import { selfSignedCert, type ServingCert } from './server/serving-cert.js';
import { ServingCertManager } from './server/serving-cert-manager.js';
import { confinedJoin } from './volumes/confined-path.js';
import { ServiceAccountTokens } from './volumes/service-account-tokens.js';

export interface Kubelet {
  nodeName: string;
  /** The HTTPS port of logs and exec (the Node's `daemonEndpoints.kubeletEndpoint.Port`). */
  port: number;
  /** The healthz port, when `healthzPort` was set. */
  healthzPort?: number;
  /** The serving certificate (PEM) in use; undefined while serverTLSBootstrap waits for the first one. */
  servingCertificate(): string | undefined;
  /** Stops every Pod's processes (SIGTERM, then SIGKILL), the heartbeats and the server. */
  stop(): Promise<void>;
}

export async function startKubelet(options: KubeletOptions): Promise<Kubelet> {
  if (!options.nodeName) throw new Error('startKubelet: nodeName is required');
  if (!options.dataDir) throw new Error('startKubelet: dataDir is required');
  const log = (options.logger ?? createLogger({ name: 'local-kubelet' })).child({ node: options.nodeName });
  const dataDir = resolve(options.dataDir);
  const podsDir = join(dataDir, 'pods');
  // Pod directories hold Secret and token volumes: the kubelet's user's alone, as kube keeps /var/lib/kubelet/pods
  // from other users. One left wider by an earlier version is tightened at start.
  await mkdir(podsDir, { recursive: true, mode: 0o700 });
  await chmod(podsDir, 0o700);
  // Whatever a previous kubelet on this data dir left running (it crashed or was killed) goes first.
  const leftovers = await killLeftovers(podsDir);
  if (leftovers.length > 0) log.info({ pids: leftovers }, 'Killed processes left by a previous kubelet');

  const clients = kubeClients(options.kubeconfig);
  const imageMap = await loadImageMap(options);
  const settings = { ...KUBELET_DEFAULTS, ...definedOnly(options) };
  const workers = new Map<string, PodWorker>();
  if (options.serverTLSBootstrap && options.servingCert)
    throw new Error('startKubelet: servingCert and serverTLSBootstrap exclude each other');
  // The server exists only after the kept certificate (if any) was loaded; rotations reach it through this.
  const serving: { server?: KubeletServer } = {};
  let servingCertPem: string | undefined;
  const use = (cert: ServingCert) => {
    servingCertPem = cert.certPem;
    serving.server?.useCert(cert);
  };
  const certificates = options.serverTLSBootstrap
    ? new ServingCertManager(clients.config, {
        dir: join(dataDir, 'pki'),
        nodeName: options.nodeName,
        addresses: nodeAddresses(options.nodeName),
        pollMs: options.csrPollMs,
        retryMs: options.retryMs,
        use,
        log,
      })
    : undefined;
  const initialCert = certificates
    ? await certificates.loadCurrent()
    : (options.servingCert ?? (await selfSignedCert(join(dataDir, 'pki'), options.nodeName)));
  servingCertPem = initialCert?.certPem;
  const server = await KubeletServer.start(
    {
      port: settings.port,
      cert: initialCert,
      clientCaPem: options.clientCaFile ? await readFile(options.clientCaFile, 'utf8') : undefined,
    },
    { find: (namespace, name) => [...workers.values()].find((w) => w.namespace === namespace && w.name === name) },
    log,
  );
  serving.server = server;

  const allocatable = await capacity(dataDir);
  const facts = {
    nodeName: options.nodeName,
    labels: nodeLabels(options.nodeName, options.nodeLabels),
    capacity: allocatable,
    port: server.port,
    kubeletVersion: KUBERNETES_VERSION.gitVersion,
    podCIDR: options.podCIDR,
    taints: options.registerWithTaints,
  };
  const agent = new NodeAgent(
    clients,
    facts,
    dataDir,
    {
      leaseRenewMs: settings.leaseRenewMs,
      statusUpdateMs: settings.nodeStatusUpdateMs,
      statusReportMs: settings.nodeStatusReportMs,
    },
    log,
  );
  const deps: PodWorkerDeps = {
    clients,
    nodeName: options.nodeName,
    imageMap,
    tokens: new ServiceAccountTokens(clients.core),
    allocatable,
    hostPathRoot: options.hostPathRoot,
    baseEnv: baseEnv(clients, options.servicesFile),
    podIPs: new PodIPs(options.podCIDR, options.reservedPodIPs),
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    logRotation: logRotation(options),
    volumeResyncMs: settings.volumeResyncMs,
    retryMs: settings.retryMs,
    log,
  };

  const forget = (uid: string, done: Promise<void>) => void done.finally(() => workers.delete(uid));
  const source = new PodSource(
    clients,
    options.nodeName,
    {
      upsert(pod: k8s.V1Pod) {
        const uid = pod.metadata!.uid!;
        const known = workers.get(uid);
        if (known) return known.update(pod);
        let dir: string;
        try {
          dir = confinedJoin(podsDir, [uid]);
        } catch (err) {
          log.error(
            { err: (err as Error).message, pod: `${pod.metadata?.namespace}/${pod.metadata?.name}` },
            'Pod uid is not usable as a directory name; not running it',
          );
          return;
        }
        const worker = new PodWorker(pod, dir, deps);
        workers.set(uid, worker);
        if (pod.metadata?.deletionTimestamp) forget(uid, worker.terminate('delete'));
        else worker.start();
      },
      remove(pod: k8s.V1Pod) {
        const worker = workers.get(pod.metadata!.uid!);
        if (worker) forget(worker.uid, worker.terminate('gone'));
      },
    },
    log,
  );

  let healthz: HealthzServer | undefined;
  // If the kubelet's own process ends without stop(), its Pods' processes must not outlive it.
  const killAll = () => workers.forEach((w) => w.killNow());
  process.on('exit', killAll);
  try {
    await agent.start();
    await source.start();
    await removeStalePodDirs(podsDir, workers, log);
    // After the Node exists: an approver checks the requested names against its addresses.
    certificates?.start();
    if (options.healthzPort !== undefined)
      healthz = await startHealthzServer(options.healthzBindAddress ?? '127.0.0.1', options.healthzPort);
  } catch (err) {
    source.stop();
    agent.stop();
    await certificates?.stop();
    await server.stop();
    process.off('exit', killAll);
    throw err;
  }
  log.info({ port: server.port, healthzPort: healthz?.port, dataDir }, 'Kubelet started');

  let stopping: Promise<void> | undefined;
  return {
    nodeName: options.nodeName,
    port: server.port,
    healthzPort: healthz?.port,
    servingCertificate: () => servingCertPem,
    stop() {
      stopping ??= (async () => {
        source.stop();
        agent.stop();
        await healthz?.stop();
        await certificates?.stop();
        await Promise.all([...workers.values()].map((w) => w.terminate('shutdown', settings.shutdownGraceMs)));
        await server.stop();
        process.off('exit', killAll);
        log.info('Kubelet stopped');
      })();
      return stopping;
    },
  };
}

/** containerLogMaxSize and containerLogMaxFiles with kube's defaults and checks. */
export function logRotation(
  options: Pick<KubeletOptions, 'containerLogMaxSize' | 'containerLogMaxFiles'>,
): LogRotation {
  let maxSize = DEFAULT_LOG_ROTATION.maxSize;
  if (options.containerLogMaxSize !== undefined) {
    try {
      maxSize = quantityValue(options.containerLogMaxSize);
    } catch (err) {
      throw new Error(`containerLogMaxSize ${JSON.stringify(options.containerLogMaxSize)} is not a quantity`, {
        cause: err,
      });
    }
    if (!(maxSize > 0))
      throw new Error(`containerLogMaxSize must be positive, got ${JSON.stringify(options.containerLogMaxSize)}`);
  }
  const maxFiles = options.containerLogMaxFiles ?? DEFAULT_LOG_ROTATION.maxFiles;
  if (!Number.isInteger(maxFiles) || maxFiles < 2)
    throw new Error(`containerLogMaxFiles must be an integer of at least 2, got ${maxFiles}`);
  return { maxSize, maxFiles };
}

async function loadImageMap(options: KubeletOptions): Promise<ImageMap> {
  const builtin = builtinImageMap({ workspace: resolve(options.workspace ?? process.cwd()) });
  if (!options.imageMap) return builtin;
  const extra = typeof options.imageMap === 'string' ? await ImageMap.load(options.imageMap) : options.imageMap;
  return builtin.overriddenBy(extra);
}

// What every container's environment starts with: a PATH to find programs, and the API server as in-cluster
// clients expect it (KUBERNETES_SERVICE_HOST/PORT point at the real address, not a Service IP), and where the
// service proxy's ports are.
function baseEnv(clients: KubeClients, servicesFile: string | undefined): Record<string, string> {
  const host = clients.server.hostname.replace(/^\[|\]$/g, '');
  const port = clients.server.port || (clients.server.protocol === 'https:' ? '443' : '80');
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    KUBERNETES_SERVICE_HOST: host,
    KUBERNETES_SERVICE_PORT: port,
    KUBERNETES_SERVICE_PORT_HTTPS: port,
    KUBERNETES_PORT: `tcp://${host}:${port}`,
    ...(servicesFile ? { GARDENER_LOCAL_SERVICES_FILE: resolve(servicesFile) } : {}),
  };
}

// Pod directories of Pods that no longer exist (deleted while no kubelet ran).
async function removeStalePodDirs(podsDir: string, workers: Map<string, PodWorker>, log: Logger): Promise<void> {
  for (const uid of await readdir(podsDir)) {
    if (workers.has(uid)) continue;
    log.info({ uid }, 'Removing the directory of a Pod that no longer exists');
    await rm(join(podsDir, uid), { recursive: true, force: true });
  }
}

function definedOnly<T extends object>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}
