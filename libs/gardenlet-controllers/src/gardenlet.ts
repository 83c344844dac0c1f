// The gardenlet's start-up (Gardener cmd/gardenlet + pkg/gardenlet/bootstrap): seed client, garden connection (TLS
// bootstrap when needed), Seed registration from seedConfig, then one manager with the garden and seed clusters,
// leader election in the seed, the controllers of controller/add.ts and the certificate rotation.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { parseDuration, type GardenletConfiguration } from '@gardener-ts/component-config';
import {
  ApiClient,
  isNotFound,
  Kinds,
  leaderElectorFromConfig,
  Manager,
  VERSION,
  type ComponentContext,
} from '@gardener-ts/controller-runtime';
import { credentialsOf, MessagingClient, Publisher } from '@gardener-ts/messaging';
import { gardenConnection, requestedValiditySeconds, sleep } from './bootstrap/bootstrap.js';
import { CertificateRotation } from './bootstrap/certificate-rotation.js';
import { gardenletChartRenderer } from './charts/gardenlet-chart.js';
import { HelmRenderer } from './charts/helm.js';
import { addControllers } from './controller/add.js';
import { genericGardenClusterOf } from './controller/controllerinstallation/garden-access.js';
import { HealthManager } from './controller/lease/health.js';
import { ClusterSeedSystem } from './controller/seed/seed-system.js';
import { registerSeed } from './registration/seed-registration.js';
import { progressMessage, shootEventObject } from './shoot/progress.js';

/** The cluster names of the gardenlet's manager. */
export const GARDEN = 'garden';
export const SEED = 'seed';

/** Files the gardenlet deploys from. */
export interface GardenletAssets {
  /** The helm binary (`helm template`). */
  helmBinary: string;
  /** The gardener-ts charts (`deploy/charts`). */
  chartsDir: string;
  /** Directories with the seed CRDs (Gardener's vendored CRDs, `deploy/gardener/crds`). */
  crdDirs: string[];
}

export interface GardenletOptions {
  assets: GardenletAssets;
  /** Image of the seed's gardener-resource-manager; the chart's default when absent. */
  resourceManagerImage?: { repository?: string; tag?: string };
  /** How often the kubeconfig Secret is checked for a renewal request (default 30 s). */
  rotationCheckIntervalMs?: number;
  /** How often a pending CSR is read (default 1 s). */
  csrPollMs?: number;
  /** Called after the garden certificate was rotated; default: the component fails and restarts (as Gardener). */
  onCertificateRotated?: () => void;
}

/** Probes the seed API server's /healthz (its body is plain `ok`, not JSON). */
export async function probeHealthz(api: ApiClient): Promise<void> {
  try {
    await api.transport.request({ method: 'GET', path: '/healthz', accept: 'text/plain' });
  } catch (err) {
    if (err instanceof SyntaxError) return; // 2xx with a non-JSON body: healthy
    throw err;
  }
}

/** The garden's cluster identity (`kube-system/cluster-identity`, key `cluster-identity`), if it has one. */
async function readClusterIdentity(garden: ApiClient): Promise<string | undefined> {
  try {
    const cm = await garden.get(Kinds.ConfigMap, { namespace: 'kube-system', name: 'cluster-identity' });
    return cm.data?.['cluster-identity'];
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw new Error('reading the garden cluster identity (kube-system/cluster-identity) failed', { cause: err });
  }
}

/** Applies the seed CRDs and waits (up to a minute) until they are established. */
async function deploySeedCRDs(system: ClusterSeedSystem, signal: AbortSignal): Promise<void> {
  const crds = await system.crds();
  await system.apply(crds, signal);
  const names = crds.map((c) => c.metadata!.name!);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await system.checkEstablished(names);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(250, signal);
    }
  }
}

/** Starts the gardenlet; the returned function stops it. */
export async function startGardenlet(
  ctx: ComponentContext<GardenletConfiguration>,
  options: GardenletOptions,
): Promise<() => Promise<void>> {
  const { config, log } = ctx;
  if (!config.seedConfig) {
    log.warn(
      'No seedConfig in the configuration: there is no seed to register (seedSelector is not supported), nothing to reconcile',
    );
    return async () => undefined;
  }
  const seedName = config.seedConfig.metadata.name;
  const seedKubeconfig = config.seedClientConnection.kubeconfig;
  const seedApi = await ApiClient.create(seedKubeconfig, { log: log.child({ cluster: SEED }) });

  const garden = await gardenConnection({
    connection: config.gardenClientConnection,
    seed: seedApi,
    seedName,
    validitySeconds: requestedValiditySeconds(config.gardenClientConnection, parseDuration),
    pollMs: options.csrPollMs,
    signal: ctx.signal,
    log,
  });
  log.info({ source: garden.source, seed: seedName }, 'Garden connection established');

  const gardenApi = await ApiClient.create(garden.kubeConfig);
  let gardenClusterIdentity: string | undefined;
  try {
    await registerSeed(gardenApi, config.seedConfig, { signal: ctx.signal });
    gardenClusterIdentity = await readClusterIdentity(gardenApi);
  } finally {
    gardenApi.close();
  }
  log.info({ seed: seedName }, 'Seed registered');

  const seedConfig = config.controllers.seed;
  const health = new HealthManager(seedConfig.leaseResyncSeconds * seedConfig.leaseResyncMissThreshold * 1000);
  ctx.health.add('seed-lease', () => health.get());

  const le = config.leaderElection;
  const leaderElection = {
    ...le,
    leaseDuration: le.leaseDuration ?? '15s',
    renewDeadline: le.renewDeadline ?? '10s',
    retryPeriod: le.retryPeriod ?? '2s',
  };
  // Its own client: the manager closes its clients when it stops, the elector still releases the Lease then.
  const elector = leaderElectorFromConfig(leaderElection, {
    client: await ApiClient.create(seedKubeconfig),
    log,
    metrics: ctx.metrics,
  });
  const mgr = await Manager.forComponent(ctx, {
    clusters: {
      [GARDEN]: {
        kubeConfig: garden.kubeConfig,
        rateLimit: { qps: config.gardenClientConnection.qps, burst: config.gardenClientConnection.burst },
      },
      [SEED]: {
        kubeConfig: seedKubeconfig,
        rateLimit: { qps: config.seedClientConnection.qps, burst: config.seedClientConnection.burst },
      },
    },
    leaderElection: elector?.run,
  });

  const helm = new HelmRenderer({ helmBinary: options.assets.helmBinary, chartsDir: options.assets.chartsDir });
  const seedSystem = new ClusterSeedSystem({
    seed: mgr.cluster(SEED).api,
    crdDirs: options.assets.crdDirs,
    helm,
    resourceManagerImage: options.resourceManagerImage,
  });
  // Controllers watch seed kinds (ManagedResources, extension resources): their CRDs must exist before the caches
  // start. The seed reconciler keeps them up to date afterwards.
  await deploySeedCRDs(seedSystem, ctx.signal);
  log.info('Seed CRDs deployed');
  const host = hostname();
  const messaging = config.nats
    ? new MessagingClient({
        servers: config.nats.servers,
        name: 'gardenlet',
        credentials: credentialsOf(config.nats),
        logger: log,
        registry: ctx.metrics,
      }).start()
    : undefined;
  const publisher = messaging ? new Publisher(messaging, { source: 'gardenlet', seed: seedName }) : undefined;
  const controllers = addControllers(mgr, {
    config,
    seedName,
    gardenCluster: GARDEN,
    seedCluster: SEED,
    seedHealthz: () => probeHealthz(mgr.cluster(SEED).api),
    health,
    seedSystem,
    gardener: { id: createHash('sha256').update(`${host}/${VERSION}`).digest('hex'), name: host, version: VERSION },
    renderArchive: (archive, release, namespace, values) => helm.renderArchive(archive, release, namespace, values),
    gardenletChart: gardenletChartRenderer(helm, options.assets.chartsDir),
    ...(gardenClusterIdentity ? { gardenClusterIdentity } : {}),
    genericGardenCluster: genericGardenClusterOf(garden.kubeConfig, config.gardenClientConnection),
    ...(publisher
      ? {
          shootProgress: ({ shoot, operation, flow, event }) => {
            const message = progressMessage(operation, flow, event);
            if (message) publisher.operationProgress(shootEventObject(shoot), message);
          },
        }
      : {}),
  });

  // The heartbeat is judged from the moment this gardenlet leads (its lease reconciler runs only then).
  mgr.add({ needLeaderElection: true, start: () => health.start(), stop: async () => undefined });

  const secretRef = config.gardenClientConnection.kubeconfigSecret;
  if (garden.kubeconfig && secretRef) {
    const validity = config.gardenClientConnection.kubeconfigValidity;
    mgr.add(
      new CertificateRotation({
        seedName,
        seed: mgr.cluster(SEED).api,
        secretRef,
        jitter: { min: validity.autoRotationJitterPercentageMin, max: validity.autoRotationJitterPercentageMax },
        validitySeconds: requestedValiditySeconds(config.gardenClientConnection, parseDuration),
        checkIntervalMs: options.rotationCheckIntervalMs,
        log: log.child({ component: 'certificate-rotation' }),
        onRotated:
          options.onCertificateRotated ??
          (() => ctx.fail?.(new Error('garden client certificate rotated; restarting to use it'))),
      }),
    );
  }

  await mgr.start();
  log.info({ seed: seedName, controllers }, 'gardenlet started');
  return async () => {
    await mgr.stop();
    await messaging?.close();
    await helm.close();
    seedApi.close();
  };
}
