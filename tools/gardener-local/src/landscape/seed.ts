// Another seed for the local landscape, as Gardener's local setup adds one (`make gardenlet-kind2-up`): its own
// cluster beside the landscape's runtime cluster (a second kind cluster there; here a `gardener-local cluster` under
// the same data dir, with its own pod addresses), a gardenlet from its chart that bootstraps against the landscape's
// garden and registers the Seed, and provider-local installed on it by Gardener itself (its registration's policy is
// Always). The landscape must be running (`gardener-local up`). Shoots can then be scheduled to it or migrated to it.
import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { clusterDown, clusterLayout, clusterUp } from '@gardener-ts/local-cluster';
import type { Checklist } from './checklist.js';
import { deployGardenlet } from './gardenlet.js';
import { helmWith, kubectlWith, localServiceUrl, waitForPodsStartedAndReady } from './kube.js';
import { waitForInstallation } from './provider-local.js';

export interface SeedOptions {
  /** The gardener-ts workspace: charts and the vendored kubectl/helm. */
  workspace: string;
  /** The landscape's directory (`gardener-local up --data-dir`); the seed's cluster goes beside it. */
  landscapeRoot: string;
  /** The Seed's name, also its cluster's. */
  name: string;
  checklist: Checklist;
  /** Where a failed step says to look. */
  logFile: string;
  /** How to start the seed cluster's supervisor in the background (`gardener-local cluster run NAME ...`). */
  supervisorCommand: string[];
}

/** Seed names the landscape uses itself. */
const RESERVED = new Set(['local', 'landscape']);

/** Refuses a name that is not a DNS label or that the landscape uses; undefined when it is fine. */
export function seedNameError(name: string, landscapeRoot: string): string | undefined {
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name))
    return `seed name ${JSON.stringify(name)} must be a DNS label (lower case letters, digits and '-')`;
  if (RESERVED.has(name) || name === basename(landscapeRoot))
    return `seed name ${JSON.stringify(name)} is taken by the landscape itself; choose another, e.g. local2`;
  return undefined;
}

/** Brings up seed `name` beside the running landscape, one checklist step each; resolves to its kubeconfig. */
export async function setUpSeed(options: SeedOptions): Promise<string> {
  const { workspace, checklist, logFile, name } = options;
  const clusters = dirname(options.landscapeRoot);
  const landscape = clusterLayout(clusters, basename(options.landscapeRoot));
  if (!existsSync(landscape.kubeconfig))
    throw new Error(`no landscape in ${options.landscapeRoot}: start it first with \`gardener-local up\` (npm start)`);
  const garden = kubectlWith(workspace, landscape.kubeconfig);
  await garden(['get', '--raw', '/readyz']).catch((err: Error) => {
    throw new Error(`the landscape in ${options.landscapeRoot} does not answer (${err.message}); is it running?`);
  });
  const layout = clusterLayout(clusters, name);
  const seed = kubectlWith(workspace, layout.kubeconfig);
  const since = Date.now() - 1_000;

  await checklist.step(
    `cluster ${name} (API server, controller manager, kubelet, service proxy)`,
    async () => {
      const result = await clusterUp({
        dataDir: clusters,
        name,
        supervisorCommand: options.supervisorCommand,
        timeoutMs: 120_000,
      });
      return `${result.alreadyRunning ? 'already running' : 'started'} (pid ${result.pid}), kubeconfig ${layout.kubeconfig}`;
    },
    layout.log,
  );

  await checklist.step(
    `gardenlet for seed ${name} (chart deploy/charts/gardenlet, TLS bootstrap with a bootstrap token)`,
    async () =>
      deployGardenlet({
        workspace,
        garden,
        gardenKubeconfig: landscape.kubeconfig,
        seed,
        helm: helmWith(workspace, options.landscapeRoot),
        seedName: name,
        stateDir: layout.root,
        // The seed cluster's Pods reach the landscape's NATS through the landscape's service proxy on this machine.
        natsServers: await localServiceUrl(landscape.services, 'garden', 'nats', 'nats'),
        since,
        values: [`config.seedConfig.spec.ingress.domain=ingress.${name}.seed.local.gardener.cloud`],
      }),
    logFile,
  );

  await checklist.step(
    `provider-local on seed ${name} (its ControllerInstallation, created by the controller-manager)`,
    () =>
      waitForInstallation({
        kubectl: garden,
        seed: name,
        waitForPods: (namespace, selector) => waitForPodsStartedAndReady(seed, namespace, selector, since),
      }),
    logFile,
  );
  return layout.kubeconfig;
}

/** Stops seed `name`'s cluster and every process of it; its Seed stays registered (GardenletReady turns Unknown). */
export async function stopSeed(landscapeRoot: string, name: string): Promise<boolean> {
  return (await clusterDown(dirname(landscapeRoot), name)).wasRunning;
}
