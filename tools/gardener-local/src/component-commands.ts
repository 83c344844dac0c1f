// `gardener-local controller-manager`, `gardener-local scheduler` and `gardener-local proxy`: the substrate's controller
// manager (kube's built-in workload, endpoint and node controllers), its scheduler and its service proxy, each run
// alone against the API server of a kubeconfig — what a shoot's kube-controller-manager, kube-scheduler and kube-proxy
// Pods run in local mode (the image map
// translates their flags: libs/local-cluster/src/images/kube-*-flags.ts). Like kube's, each serves /healthz on its
// secure port (HTTPS with --tls-cert-file/--tls-private-key-file), and by default campaigns for leadership on Lease
// kube-system/kube-controller-manager or kube-system/kube-scheduler before it starts its controllers. With
// --cluster-signing-* CA files the controller manager signs approved CSRs (kube's csrsigning); with --root-ca-file it
// publishes that CA bundle as every namespace's `kube-root-ca.crt` (kube's root-ca-cert-publisher; without it the
// substrate's API server publishes its own CA). Garbage collection, namespace deletion and service account tokens are
// not here: the substrate's API server does them itself. A kubeconfig user may authenticate with a token file (Gardener's generic
// token kubeconfig), re-read as the token requestor renews it.
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDuration } from '@gardener-ts/component-config';
import {
  ApiClient,
  leaderElectorFromConfig,
  loadKubeConfig,
  type LeaderElectionConfiguration,
  type LeaderElector,
} from '@gardener-ts/controller-runtime';
import {
  KUBE_CONTROLLER_MANAGER_CONTROLLERS,
  SIGNING_FILE_FLAGS,
  signingFilesFromFlags,
  containerPath,
  ServiceProxy,
  startControllerManager,
  type CSRSigningOptions,
} from '@gardener-ts/local-cluster';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { parseKubeProxyConfiguration, type KubeProxySettings } from './proxy-config.js';
import { parseKubeSchedulerConfiguration } from './scheduler-config.js';

// The flags both commands share: kube's secure serving and leader election.
const SERVING_OPTIONS = {
  kubeconfig: { type: 'string' },
  'secure-port': { type: 'string' },
  'bind-address': { type: 'string' },
  'tls-cert-file': { type: 'string' },
  'tls-private-key-file': { type: 'string' },
  'leader-elect': { type: 'boolean' },
  'log-level': { type: 'string' },
} as const;

/** kube's leader election defaults (componentbaseconfig), on Lease kube-system/<name>. */
function leaseOf(name: string, leaderElect: boolean): LeaderElectionConfiguration {
  return {
    leaderElect,
    leaseDuration: '15s',
    renewDeadline: '10s',
    retryPeriod: '2s',
    resourceLock: 'leases',
    resourceName: name,
    resourceNamespace: 'kube-system',
  };
}

/** `gardener-local controller-manager ...`; resolves to the exit code. */
export async function controllerManagerCommand(args: string[], usage: string): Promise<number> {
  const values = parseFlags(args, usage, {
    ...SERVING_OPTIONS,
    controllers: { type: 'string' },
    'node-monitor-grace-period': { type: 'string' },
    'use-service-account-credentials': { type: 'boolean' },
    'cluster-signing-duration': { type: 'string' },
    'root-ca-file': { type: 'string' },
    ...Object.fromEntries(SIGNING_FILE_FLAGS.map((name) => [name, { type: 'string' as const }])),
  });
  if (!values) return 2;
  const kubeconfig = text(values, 'kubeconfig');
  if (!kubeconfig) return usageError('--kubeconfig is required', usage);
  const grace = text(values, 'node-monitor-grace-period');
  const graceMs = grace === undefined ? undefined : parseDuration(grace);
  if (grace !== undefined && graceMs === undefined)
    return usageError(
      `--node-monitor-grace-period must be a duration such as 40s; got ${JSON.stringify(grace)}`,
      usage,
    );
  const serving = servingOf(values, 10257, usage);
  if (!serving) return 2;
  const signingDuration = text(values, 'cluster-signing-duration');
  const durationMs = signingDuration === undefined ? undefined : parseDuration(signingDuration);
  if (signingDuration !== undefined && !durationMs)
    return usageError(
      `--cluster-signing-duration must be a duration such as 8760h; got ${JSON.stringify(signingDuration)}`,
      usage,
    );
  let csrSigning: CSRSigningOptions;
  try {
    csrSigning = {
      files: signingFilesFromFlags(Object.fromEntries(SIGNING_FILE_FLAGS.map((name) => [name, text(values, name)]))),
      durationSeconds: durationMs === undefined ? undefined : Math.floor(durationMs / 1000),
    };
  } catch (err) {
    return usageError((err as Error).message, usage);
  }
  const rootCAFile = text(values, 'root-ca-file');
  let rootCA: string | undefined;
  if (rootCAFile !== undefined) {
    try {
      rootCA = await readFile(rootCAFile, 'utf8');
    } catch (err) {
      return usageError(`--root-ca-file ${rootCAFile}: ${(err as Error).message}`, usage);
    }
    if (!rootCA.trim()) return usageError(`--root-ca-file ${rootCAFile} is empty`, usage);
  }
  const list = text(values, 'controllers');
  const controllers =
    list === undefined
      ? [...KUBE_CONTROLLER_MANAGER_CONTROLLERS]
      : list
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean);
  return runStandalone({
    command: 'controller-manager',
    component: 'kube-controller-manager',
    kubeconfig,
    controllers,
    nodeMonitorGracePeriodMs: graceMs,
    useServiceAccountCredentials: flag(values, 'use-service-account-credentials') ?? false,
    csrSigning,
    rootCA,
    leaderElection: leaseOf('kube-controller-manager', flag(values, 'leader-elect') ?? true),
    serving,
    log: loggerOf('kube-controller-manager', text(values, 'log-level')),
  });
}

/** `gardener-local scheduler ...`; resolves to the exit code. */
export async function schedulerCommand(args: string[], usage: string): Promise<number> {
  const values = parseFlags(args, usage, { ...SERVING_OPTIONS, config: { type: 'string' } });
  if (!values) return 2;
  const serving = servingOf(values, 10259, usage);
  if (!serving) return 2;
  const log = loggerOf('kube-scheduler', text(values, 'log-level'));
  const leaderElect = flag(values, 'leader-elect');
  let kubeconfig = text(values, 'kubeconfig');
  let leaderElection = leaseOf('kube-scheduler', leaderElect ?? true);
  let schedulerNames: string[] | undefined;
  const configFile = text(values, 'config');
  if (configFile) {
    let settings;
    try {
      settings = parseKubeSchedulerConfiguration(await readFile(configFile, 'utf8'), configFile);
    } catch (err) {
      process.stderr.write(`gardener-local scheduler: ${(err as Error).message}\n`);
      return 1;
    }
    if (settings.ignored.length)
      log.info({ fields: settings.ignored }, 'Configuration fields not supported by the local scheduler, ignored');
    kubeconfig = settings.config.clientConnection.kubeconfig || kubeconfig;
    schedulerNames = settings.schedulerNames;
    // An explicit --leader-elect/--no-leader-elect wins over the file.
    const le = settings.config.leaderElection;
    leaderElection = {
      ...le,
      leaderElect: leaderElect ?? le.leaderElect,
      leaseDuration: le.leaseDuration ?? leaderElection.leaseDuration,
      renewDeadline: le.renewDeadline ?? leaderElection.renewDeadline,
      retryPeriod: le.retryPeriod ?? leaderElection.retryPeriod,
    };
  }
  if (!kubeconfig) return usageError('a kubeconfig is required: --kubeconfig or clientConnection.kubeconfig', usage);
  return runStandalone({
    command: 'scheduler',
    component: 'kube-scheduler',
    kubeconfig,
    controllers: ['scheduler'],
    schedulerNames,
    leaderElection,
    serving,
    log,
  });
}

/**
 * `gardener-local proxy ...` (kube-proxy's stand-in); resolves to the exit code. It serves /healthz and /livez on the
 * healthz address when that is free (machines of one host share its ports: one of them answers there).
 */
export async function proxyCommand(args: string[], usage: string): Promise<number> {
  const values = parseFlags(args, usage, {
    config: { type: 'string' },
    kubeconfig: { type: 'string' },
    master: { type: 'string' },
    'state-file': { type: 'string' },
    'healthz-bind-address': { type: 'string' },
    'log-level': { type: 'string' },
  });
  if (!values) return 2;
  const log = loggerOf('kube-proxy', text(values, 'log-level'));
  let settings: KubeProxySettings = { ignored: [] };
  const configFile = text(values, 'config');
  if (configFile) {
    try {
      settings = parseKubeProxyConfiguration(await readFile(containerPath(configFile), 'utf8'), configFile);
    } catch (err) {
      process.stderr.write(`gardener-local proxy: ${(err as Error).message}\n`);
      return 1;
    }
    if (settings.ignored.length)
      log.info({ fields: settings.ignored }, 'Configuration fields not supported by the local proxy, ignored');
  }
  const kubeconfig = text(values, 'kubeconfig') ?? settings.kubeconfig;
  if (!kubeconfig) return usageError('a kubeconfig is required: --kubeconfig or clientConnection.kubeconfig', usage);
  const stateFile = text(values, 'state-file');
  if (!stateFile) return usageError('--state-file is required', usage);
  const healthz = text(values, 'healthz-bind-address') ?? settings.healthzBindAddress ?? '0.0.0.0:10256';
  const [bindAddress, port] = splitHostPort(healthz);
  if (port === undefined) return usageError(`--healthz-bind-address must be HOST:PORT; got ${healthz}`, usage);

  let proxy: ServiceProxy;
  try {
    const kubeConfig = loadKubeConfig(resolve(containerPath(kubeconfig)));
    const master = text(values, 'master');
    if (master) for (const cluster of kubeConfig.clusters) (cluster as { server: string }).server = master;
    proxy = new ServiceProxy({
      kubeConfig,
      stateFile: resolve(containerPath(stateFile)),
      publishLoadBalancers: false,
      dnsRecords: false,
      logger: log,
    });
    await proxy.start();
  } catch (err) {
    log.debug({ err }, 'Not started');
    process.stderr.write(`gardener-local proxy: ${(err as Error).message}\n`);
    return 1;
  }
  // Healthy once every Service and EndpointSlice has been read: a proxy that cannot read them forwards nothing.
  const state = {
    started: true,
    get failed() {
      return !proxy.synced();
    },
  };
  const server = await serveHealth({ port, bindAddress }, state).catch((err: Error) => {
    log.warn({ err: err.message, address: healthz }, 'Health endpoint not served: its address is taken');
    return undefined;
  });
  log.info({ stateFile }, 'Started');
  await new Promise<void>((done) => {
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  await proxy.stop();
  server?.close();
  server?.closeAllConnections();
  log.info('Stopped');
  return 0;
}

function splitHostPort(address: string): [string, number | undefined] {
  const at = address.lastIndexOf(':');
  const port = Number(address.slice(at + 1));
  if (at < 0 || !Number.isInteger(port) || port < 0 || port > 65535) return [address, undefined];
  return [address.slice(0, at).replace(/^\[|\]$/g, '') || '0.0.0.0', port];
}

interface Serving {
  port: number;
  bindAddress: string;
  tls?: { certFile: string; keyFile: string };
}

interface StandaloneOptions {
  /** The gardener-local command, for messages. */
  command: string;
  /** The upstream component it stands in for. */
  component: string;
  kubeconfig: string;
  controllers: string[];
  nodeMonitorGracePeriodMs?: number;
  useServiceAccountCredentials?: boolean;
  csrSigning?: CSRSigningOptions;
  /** The CA bundle the root-ca-cert-publisher publishes (--root-ca-file's content). */
  rootCA?: string;
  schedulerNames?: string[];
  leaderElection: LeaderElectionConfiguration;
  serving: Serving;
  log: Logger;
}

// Health endpoint, leader election, controllers; until SIGTERM/SIGINT (exit 0), or lost leadership or a failed start
// (exit 1).
async function runStandalone(o: StandaloneOptions): Promise<number> {
  const { log } = o;
  const state = { started: false, failed: false };
  let server: Server;
  let kubeConfig;
  try {
    kubeConfig = loadKubeConfig(resolve(o.kubeconfig));
    server = await serveHealth(o.serving, state);
  } catch (err) {
    log.debug({ err }, 'Not started');
    process.stderr.write(`gardener-local ${o.command}: ${(err as Error).message}\n`);
    return 1;
  }
  const { port } = server.address() as AddressInfo;
  const scheme = o.serving.tls ? 'https' : 'http';
  process.stdout.write(`${o.component} (local) serving /healthz on ${scheme}://${o.serving.bindAddress}:${port}\n`);

  const shutdown = new AbortController();
  const stop = () => shutdown.abort();
  const stopped = new Promise<void>((done) => shutdown.signal.addEventListener('abort', () => done(), { once: true }));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  let elector: LeaderElector | undefined;
  // Campaigning ends on shutdown; once leading, only after the controllers have stopped (the Lease is released last).
  const campaign = new AbortController();
  shutdown.signal.addEventListener(
    'abort',
    () => {
      if (!elector?.isLeader) campaign.abort();
    },
    { once: true },
  );
  let manager: Awaited<ReturnType<typeof startControllerManager>> | undefined;
  try {
    elector = leaderElectorFromConfig(o.leaderElection, {
      // Its own client: it still releases the Lease after the manager has closed its clients.
      client: await ApiClient.create(kubeConfig),
      log,
    });
    await elector?.run(campaign.signal, {
      // kube's components exit when they lose their Lease; the kubelet restarts them.
      onLost: () => {
        state.failed = true;
        log.error('Leadership lost');
        stop();
      },
    });
    if (!shutdown.signal.aborted) {
      manager = await startControllerManager({
        kubeConfig,
        controllers: o.controllers,
        nodeMonitorGracePeriodMs: o.nodeMonitorGracePeriodMs,
        useServiceAccountCredentials: o.useServiceAccountCredentials,
        csrSigning: o.csrSigning,
        rootCA: o.rootCA,
        schedulerNames: o.schedulerNames,
        logger: log,
      });
      state.started = true;
      log.info({ controllers: o.controllers, leaderElection: !!elector }, 'Started');
      await stopped;
    }
  } catch (err) {
    log.debug({ err }, 'Failed');
    process.stderr.write(`gardener-local ${o.command}: ${(err as Error).message}\n`);
    state.failed = true;
  } finally {
    await manager?.stop();
    campaign.abort();
    await elector?.done();
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
  log.info('Stopped');
  return state.failed ? 1 : 0;
}

// /healthz and /livez answer ok while the process works (also while it waits for leadership); /readyz once the
// controllers run. kube serves these without authentication (--authorization-always-allow-paths).
async function serveHealth(serving: Serving, state: { started: boolean; failed: boolean }): Promise<Server> {
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const ok = path === '/readyz' ? state.started && !state.failed : !state.failed;
    if (!['/healthz', '/livez', '/readyz'].includes(path) || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(ok ? 200 : 500, { 'content-type': 'text/plain; charset=utf-8' }).end(ok ? 'ok' : 'failed');
  };
  const server = serving.tls
    ? createHttpsServer(
        { cert: await readFile(serving.tls.certFile), key: await readFile(serving.tls.keyFile) },
        handler,
      )
    : createHttpServer(handler);
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(serving.port, serving.bindAddress, () => done());
  });
  return server;
}

type Values = { [name: string]: string | boolean | undefined };

function parseFlags(
  args: string[],
  usage: string,
  options: Record<string, { type: 'string' | 'boolean' }>,
): Values | undefined {
  try {
    return parseArgs({ args, options, strict: true, allowNegative: true }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage}`);
    return undefined;
  }
}

/** A string flag's value (parseArgs types every value as string | boolean). */
function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A boolean flag's value: --name, --no-name, or undefined when not given. */
function flag(values: Values, name: string): boolean | undefined {
  const value = values[name];
  return typeof value === 'boolean' ? value : undefined;
}

function servingOf(values: Values, defaultPort: number, usage: string): Serving | undefined {
  const port = Number(text(values, 'secure-port') ?? defaultPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    usageError(`--secure-port must be a port number; got ${JSON.stringify(text(values, 'secure-port'))}`, usage);
    return undefined;
  }
  const certFile = text(values, 'tls-cert-file');
  const keyFile = text(values, 'tls-private-key-file');
  if (!certFile !== !keyFile) {
    usageError('--tls-cert-file and --tls-private-key-file go together', usage);
    return undefined;
  }
  return {
    port,
    bindAddress: text(values, 'bind-address') || '0.0.0.0',
    tls: certFile && keyFile ? { certFile, keyFile } : undefined,
  };
}

function loggerOf(name: string, level: string | undefined): Logger {
  return createLogger({ name, level: (level ?? 'info') as 'debug' | 'info' | 'error' });
}

function usageError(message: string, usage: string): number {
  process.stderr.write(`${message}\n${usage}`);
  return 2;
}
