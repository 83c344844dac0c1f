// The gardener-controller-manager process behind apps/controller-manager: the garden client and cache, leader
// election, and every enabled controller of the registry (`controller/add.ts`).
import { GardenNamespace } from '@gardener-ts/api';
import type { ControllerManagerConfiguration } from '@gardener-ts/component-config';
import {
  ApiClient,
  Kinds,
  leaderElectorFromConfig,
  Manager,
  type ComponentContext,
} from '@gardener-ts/controller-runtime';
import { addControllers, controllerRegistry, type ControllerEntry } from './controller/add.js';
import { SeedLeaseNamespace } from './controller/seedlifecycle/lifecycle.js';

/** The name of the garden cluster in the manager. */
export const GardenCluster = 'garden';

export interface StartControllerManagerOptions {
  /** The controllers to choose from (the full registry by default). */
  registry?: readonly ControllerEntry[];
}

/** Starts the controller-manager; resolves once the caches have synced. The returned function stops it. */
export async function startControllerManager(
  ctx: Pick<ComponentContext<ControllerManagerConfiguration>, 'config' | 'log' | 'metrics' | 'ready' | 'signal'> &
    Partial<Pick<ComponentContext<ControllerManagerConfiguration>, 'fail'>>,
  options: StartControllerManagerOptions = {},
): Promise<() => Promise<void>> {
  const { config, log } = ctx;
  const kubeConfig = config.gardenClientConnection.kubeconfig;
  const le = config.leaderElection;
  const leaderElection = {
    ...le,
    leaseDuration: le.leaseDuration ?? '15s',
    renewDeadline: le.renewDeadline ?? '10s',
    retryPeriod: le.retryPeriod ?? '2s',
  };
  const elector = leaderElectorFromConfig(leaderElection, {
    // Its own client: the manager closes its clients when it stops, the elector still releases the Lease then.
    client: await ApiClient.create(kubeConfig),
    log,
    metrics: ctx.metrics,
  });
  const mgr = await Manager.forComponent(ctx, {
    clusters: {
      [GardenCluster]: {
        kubeConfig,
        rateLimit: { qps: config.gardenClientConnection.qps, burst: config.gardenClientConnection.burst },
        cache: {
          scopes: [
            // Seed heartbeats only, and the garden's own Secrets (internal and default domains).
            { kind: Kinds.Lease, scope: { namespace: SeedLeaseNamespace } },
            { kind: Kinds.Secret, scope: { namespace: GardenNamespace } },
          ],
        },
      },
    },
    leaderElection: elector?.run,
  });
  const added = addControllers(
    mgr,
    { cluster: GardenCluster, controllers: config.controllers },
    options.registry ?? controllerRegistry,
  );
  await mgr.start();
  log.info({ controllers: added, leaderElection: !!elector }, 'Controllers started');
  return () => mgr.stop();
}
