// Wiring of the ManagedSeed controller (Gardener pkg/gardenlet/controller/managedseed/add.go): the ManagedSeeds of the
// garden whose shoot this seed is responsible for, on creation, a new generation, the start of their deletion and a
// `renew-kubeconfig` request; and the Seeds the ManagedSeeds register (same name, in `garden`), when they appear, go,
// or their `GardenletReady` changes, so `SeedRegistered` follows the new gardenlet and the deletion goes on once the
// Seed is gone. The shoots are read from the garden cache. ManagedSeed events are enqueued through a raw source that
// spreads them over `syncJitterPeriod` (jitter.ts, Gardener's EnqueueWithJitterDelay).
import { Annotations, GardenNamespace, Operations, SeedConditionType } from '@gardener-ts/api';
import {
  controllerFor,
  type Condition,
  type Controller,
  type Manager,
  type ObjectEvent,
  type Request,
  type Store,
} from '@gardener-ts/controller-runtime';
import type { GardenletChartRenderer, KubeconfigCluster } from '../../charts/gardenlet-chart.js';
import { jitteredManagedSeedSource, type JitterConfig } from './jitter.js';
import { responsibleSeedName } from './conditions.js';
import { ManagedSeedKind, SeedKind, ShootKind, type ManagedSeed, type Seed, type Shoot } from './kinds.js';
import { ManagedSeedReconciler } from './reconciler.js';
import { seedShootConnector, type ShootConnector } from './shoot-client.js';
import type { Values } from './values.js';

/** The controller's name. */
export const ControllerName = 'managedseed';

/** Whether the ManagedSeed's shoot (from `shoots`) is one this seed is responsible for (Gardener's filterManagedSeed). */
export function managedSeedOfSeed(ms: ManagedSeed, shoots: Pick<Store<Shoot>, 'get'>, seedName: string): boolean {
  const shootName = ms.spec?.shoot?.name;
  if (!shootName) return false;
  const shoot = shoots.get(`${ms.metadata?.namespace}/${shootName}`);
  return shoot !== undefined && responsibleSeedName(shoot) === seedName;
}

const renewRequested = (ms: ManagedSeed) =>
  ms.metadata?.annotations?.[Annotations.GardenerOperation] === Operations.OperationRenewKubeconfig;

/**
 * Which ManagedSeed events need a reconcile (pure): creation and deletion, a new generation (Gardener's
 * GenerationChangedPredicate), the start of the deletion (a CRD-served object gets no new generation for it) and a
 * new `renew-kubeconfig` request.
 */
export function managedSeedChanged(event: ObjectEvent<ManagedSeed>): boolean {
  if (event.type !== 'update') return true;
  const { object: now, oldObject: old } = event;
  if (now.metadata?.generation !== old.metadata?.generation) return true;
  if (Boolean(now.metadata?.deletionTimestamp) && !old.metadata?.deletionTimestamp) return true;
  return renewRequested(now) && !renewRequested(old);
}

const gardenletReady = (seed: Seed) =>
  (seed.status?.conditions as Condition[] | undefined)?.find((c) => c.type === SeedConditionType.GardenletReady)
    ?.status;

/** Which Seed events concern its ManagedSeed (pure): creation, deletion, the start of the deletion, GardenletReady. */
export function seedChanged(event: ObjectEvent<Seed>): boolean {
  if (event.type !== 'update') return true;
  const { object: now, oldObject: old } = event;
  if (Boolean(now.metadata?.deletionTimestamp) !== Boolean(old.metadata?.deletionTimestamp)) return true;
  return gardenletReady(now) !== gardenletReady(old);
}

/** The ManagedSeed of a Seed (Gardener's MapSeedToManagedSeed): `garden/<seed name>`, when it exists and is ours. */
export function managedSeedOf(
  seed: Seed,
  managedSeeds: Pick<Store<ManagedSeed>, 'get'>,
  shoots: Pick<Store<Shoot>, 'get'>,
  seedName: string,
): Request[] {
  const name = seed.metadata?.name ?? '';
  const ms = managedSeeds.get(`${GardenNamespace}/${name}`);
  return ms && managedSeedOfSeed(ms, shoots, seedName) ? [{ namespace: GardenNamespace, name }] : [];
}

/** What the controller needs beyond the manager. */
export interface ManagedSeedControllerDeps {
  seedName: string;
  gardenCluster: string;
  seedCluster: string;
  concurrentSyncs: number;
  syncPeriodMs: number;
  waitSyncPeriodMs: number;
  /** `syncJitterPeriod` and `jitterUpdates`; without them, every event is enqueued at once. */
  jitter?: JitterConfig;
  /** Uniform in [0, 1) for the jitter; `Math.random` by default. */
  random?: () => number;
  /** This gardenlet's configuration, the parent of the gardenlets it deploys. */
  parentConfig: Values;
  chart: GardenletChartRenderer;
  /** The garden as a new gardenlet reaches it (server and CA); without it, bootstrapping fails with a clear error. */
  garden?: KubeconfigCluster;
  /** How the shoots are reached; default: their access kubeconfigs in the seed. */
  shootConnector?: ShootConnector;
}

/** Adds the ManagedSeed controller. */
export function addManagedSeedController(mgr: Manager, deps: ManagedSeedControllerDeps): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  const seed = mgr.cluster(deps.seedCluster);
  const shoots = garden.cache.informerFor(ShootKind).store;
  const managedSeedInformer = garden.cache.informerFor(ManagedSeedKind);
  const managedSeeds = managedSeedInformer.store;
  const requestToken = async (namespace: string, name: string): Promise<string> => {
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}/token`;
    const response = await garden.api.transport.request<{ status?: { token?: string } }>({
      method: 'POST',
      path,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    });
    if (!response.status?.token) throw new Error(`no token was issued for ServiceAccount ${namespace}/${name}`);
    return response.status.token;
  };
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .watchesRawSource(
      jitteredManagedSeedSource(managedSeedInformer, {
        predicates: [(e) => managedSeedOfSeed(e.object, shoots, deps.seedName), managedSeedChanged],
        config: deps.jitter ?? { syncJitterPeriodMs: 0, jitterUpdates: false },
        ...(deps.random ? { random: deps.random } : {}),
      }),
    )
    .watches(SeedKind, (s) => managedSeedOf(s, managedSeeds, shoots, deps.seedName), { predicates: [seedChanged] })
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new ManagedSeedReconciler({
        garden: garden.api,
        seed: seed.api,
        shootConnector: deps.shootConnector ?? seedShootConnector(seed.api),
        chart: deps.chart,
        requestServiceAccountToken: requestToken,
        ...(deps.garden ? { gardenCluster: deps.garden } : {}),
        parentConfig: deps.parentConfig,
        seedName: deps.seedName,
        waitSyncPeriodMs: deps.waitSyncPeriodMs,
        syncPeriodMs: deps.syncPeriodMs,
      }),
    );
}
