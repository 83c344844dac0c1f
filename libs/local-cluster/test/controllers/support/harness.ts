// One test file's cluster: the in-process API server, the controller manager under test, a test kubelet and a client.
import { ApiClient, isNotFound, type Kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestCluster, type TestCluster } from '@gardener-ts/local-apiserver';
import { createLogger } from '@gardener-ts/logging';
import { kubectl, waitFor } from '@gardener-ts/test-support';
import {
  startControllerManager,
  type ControllerManager,
  type ControllerManagerOptions,
} from '../../../src/controllers/controller-manager.js';
import { PodKind } from '../../../src/controllers/shared/kinds.js';
import { TestKubelet } from './test-kubelet.js';

export interface Harness {
  cluster: TestCluster;
  kubeconfig: string;
  api: ApiClient;
  kubelet: TestKubelet;
  manager: ControllerManager;
  kubectl(args: string[], input?: object): Promise<string>;
  /** Polls `get` until `check` holds; the error names `what`. */
  eventually<T extends KubernetesObject>(
    what: string,
    kind: Kind<T>,
    key: { namespace?: string; name: string },
    check: (obj: T) => boolean,
    timeoutMs?: number,
  ): Promise<T>;
  /** Whether the Pod `namespace/name` exists (a deleting one counts). */
  podExists(name: string, namespace?: string): Promise<boolean>;
  stop(): Promise<void>;
}

export async function startHarness(
  controllers: string[],
  options: Partial<ControllerManagerOptions> = {},
): Promise<Harness> {
  const cluster = await startTestCluster();
  const kubeconfig = cluster.kubeconfigPath;
  const api = await ApiClient.create(kubeconfig);
  const kubelet = await TestKubelet.start(kubeconfig);
  const manager = await startControllerManager({
    kubeConfig: kubeconfig,
    controllers,
    logger: createLogger({ name: 'controller-manager-test', level: process.env.CM_TEST_LOG ? 'debug' : 'silent' }),
    ...options,
  });
  return {
    cluster,
    kubeconfig,
    api,
    kubelet,
    manager,
    kubectl: (args, input) => kubectl(kubeconfig, args, input ? { input: JSON.stringify(input) } : {}),
    eventually: (what, kind, key, check, timeoutMs = 20_000) =>
      waitFor(
        what,
        async () => {
          const obj = await api.get(kind, key);
          return check(obj) ? obj : undefined;
        },
        { timeoutMs },
      ),
    podExists: (name, namespace = 'default') =>
      api.get(PodKind, { namespace, name }).then(
        () => true,
        (err: unknown) => {
          if (isNotFound(err)) return false;
          throw err;
        },
      ),
    async stop() {
      await manager.stop();
      await kubelet.stop();
      api.close();
      await cluster.stop();
    },
  };
}
