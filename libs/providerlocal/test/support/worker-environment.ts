// The local API server as provider-local's Worker tests need it: Gardener's extension and machine CRDs, the namespace
// `shoot--local--local` with its Cluster (the example Shoot, Seed and CloudProfile) and the pool's user-data Secret,
// provider-local's Worker and machine controllers running, and a loop that plays the seed's kubelet.
import { readFileSync } from 'node:fs';
import { parseManifests } from '@gardener-ts/api';
import { ApiClient, Kinds, Manager, kind } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { clusterObject } from '@gardener-ts/extensions/testing';
import { gardenerAsset, startTestEnvironment, type TestEnvironment } from '@gardener-ts/testing';
import { addWorkerController } from '../../src/controller/worker/add.js';
import { addMachineControllers } from '../../src/machine/add.js';

/** The shoot's control plane namespace on the seed. */
export const namespace = 'shoot--local--local';

/** The extension Worker kind. */
export const WorkerKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Worker');

const crd = (name: string) => gardenerAsset('crds', `10-crd-${name}.yaml`);

/** The first object of one of Gardener's example manifests. */
export const example = (...path: string[]) =>
  parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0] as Record<string, any>;

/** A running Worker environment; `stop` ends the kubelet loop, the manager and the API server. */
export interface WorkerEnvironment {
  env: TestEnvironment;
  client: ApiClient;
  mgr: Manager;
  stop(): Promise<void>;
}

/** Plays the kubelet of the seed until `stopped()`: machine Pods become Running and ready. */
async function kubelet(client: ApiClient, stopped: () => boolean): Promise<void> {
  while (!stopped()) {
    for (const pod of (await client.list(Kinds.Pod, { namespace }).catch(() => ({ items: [] }))).items) {
      if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Running') continue;
      await client
        .patch(
          Kinds.Pod,
          { namespace, name: pod.metadata!.name! },
          {
            type: 'merge',
            patch: {
              status: { phase: 'Running', podIP: '127.0.0.1', conditions: [{ type: 'Ready', status: 'True' }] },
            },
          },
          { subresource: 'status' },
        )
        .catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts the API server, creates the namespace, its Cluster (with `shoot`, the example Shoot by default) and the
 * user-data Secret, and runs the Worker and machine controllers with a 100 ms poll.
 */
export async function startWorkerEnvironment(opts: { shoot?: Record<string, any> } = {}): Promise<WorkerEnvironment> {
  const env = await startTestEnvironment({
    crds: [
      crd('extensions.gardener.cloud_clusters'),
      crd('extensions.gardener.cloud_workers'),
      ...['machineclasses', 'machinedeployments', 'machinesets', 'machines'].map((p) =>
        crd(`machine.sapcloud.io_${p}`),
      ),
    ],
  });
  let client: ApiClient | undefined;
  let mgr: Manager | undefined;
  let stopped = false;
  const stop = async () => {
    stopped = true;
    await mgr?.stop();
    client?.close();
    await env.stop();
  };
  try {
    client = await ApiClient.create(env.kubeconfigPath);
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await client.create(
      clusterObject(namespace, {
        shoot: opts.shoot ?? example('local', 'shoot.yaml'),
        seed: example('50-seed.yaml'),
        cloudProfile: example('local', 'cloudprofile.yaml'),
      }),
    );
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'worker-local-user-data', namespace },
      stringData: { userData: '#cloud-config\nruncmd: []\n' },
    });
    mgr = await Manager.create({
      clusters: { seed: { kubeConfig: env.kubeconfigPath } },
      gracefulShutdownTimeoutMs: 0,
    });
    addMachineControllers(mgr);
    addWorkerController(mgr, { pollMs: 100 });
    await mgr.start();
  } catch (err) {
    await stop();
    throw err;
  }
  void kubelet(client, () => stopped);
  return { env, client, mgr, stop };
}
