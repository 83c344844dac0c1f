// The components a local cluster runs besides its API server and service proxy: the controller manager (workload
// controllers, scheduler, volume binding and the local-path provisioner of the default StorageClass it installs) and
// one kubelet per node of the cluster.
import { join } from 'node:path';
import { CONTROLLER_NAMES, startControllerManager } from '../controllers/controller-manager.js';
import { startKubelet, type Kubelet } from '../kubelet/kubelet.js';
import { nodeKubeConfig } from './node-credentials.js';
import { installDefaultStorageClass, volumesDir } from './storage.js';
import type { ComponentStarter } from './supervisor.js';

export interface DefaultComponentOptions {
  /** An image map file whose entries win over the built-in map. */
  imageMapFile?: string;
  /** The gardener-ts workspace the built-in image map runs apps from; default cwd. */
  workspace?: string;
  /**
   * Kubelets get their serving certificates through kubelet-serving CSRs (serverTLSBootstrap), approved by the
   * controller manager's csrapproving-kubelet-serving controller; default true. `cluster up` waits (up to
   * `servingCertTimeoutMs`, default 60 s) until every kubelet serves its issued certificate.
   */
  serverTLSBootstrap?: boolean;
  servingCertTimeoutMs?: number;
}

export function defaultComponents(options: DefaultComponentOptions = {}): ComponentStarter[] {
  return [
    async ({ kubeConfig, logger, layout }) => {
      await installDefaultStorageClass(kubeConfig);
      // Every controller, the opt-in kubelet-serving CSR approver included (Gardener's resource-manager does that job in shoots).
      const controllers = options.serverTLSBootstrap === false ? undefined : [...CONTROLLER_NAMES];
      const manager = await startControllerManager({
        kubeConfig,
        controllers,
        localVolumesDir: volumesDir(layout),
        logger: logger.child({ component: 'controller-manager' }),
      });
      return { name: 'controller-manager', stop: () => manager.stop() };
    },
    async ({ layout, nodes, apiServer, logger }) => {
      const bootstrap = options.serverTLSBootstrap !== false;
      const kubelets: Kubelet[] = [];
      const stop = () => Promise.all(kubelets.map((k) => k.stop())).then(() => undefined);
      try {
        // Each kubelet authenticates as its node (system:node:<name>), authorized by the API server's Node authorizer
        // and the identity its serving CSR is checked against. One after the other: each registers its Node, and a
        // failure stops those already started.
        for (const node of nodes) {
          kubelets.push(
            await startKubelet({
              kubeconfig: await nodeKubeConfig(apiServer, node.name),
              serverTLSBootstrap: bootstrap,
              nodeName: node.name,
              nodeLabels: node.labels,
              dataDir: node.dataDir,
              imageMap: options.imageMapFile,
              workspace: options.workspace,
              port: 0,
              podCIDR: node.podCIDR,
              servicesFile: layout.services,
              // Only the API server (it holds a certificate of the cluster CA) may read logs or exec.
              clientCaFile: join(layout.apiserver, 'pki', 'ca.crt'),
              logger: logger.child({ component: 'kubelet' }),
            }),
          );
        }
        if (bootstrap) await servingCertificates(kubelets, options.servingCertTimeoutMs ?? 60_000);
      } catch (err) {
        await stop();
        throw err;
      }
      return { name: nodes.length === 1 ? 'kubelet' : `kubelets (${nodes.length})`, stop };
    },
  ];
}

// The API server verifies kubelet certificates against the cluster CA: the cluster is ready once every kubelet serves
// the certificate it was issued.
async function servingCertificates(kubelets: Kubelet[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = kubelets.filter((k) => !k.servingCertificate()).map((k) => k.nodeName);
    if (!waiting.length) return;
    if (Date.now() > deadline)
      throw new Error(
        `kubelets ${waiting.join(', ')} have no serving certificate after ${timeoutMs} ms (kubelet-serving CSR not approved or issued?)`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
