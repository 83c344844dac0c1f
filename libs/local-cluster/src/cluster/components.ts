// The components a local cluster runs besides its API server and service proxy: the controller manager (workload
// controllers and scheduler) and one kubelet per node of the cluster.
import { join } from 'node:path';
import { startControllerManager } from '../controllers/controller-manager.js';
import { startKubelet, type Kubelet } from '../kubelet/kubelet.js';
import type { ComponentStarter } from './supervisor.js';

export interface DefaultComponentOptions {
  /** An image map file whose entries win over the built-in map. */
  imageMapFile?: string;
  /** The gardener-ts workspace the built-in image map runs apps from; default cwd. */
  workspace?: string;
}

export function defaultComponents(options: DefaultComponentOptions = {}): ComponentStarter[] {
  return [
    async ({ kubeConfig, logger }) => {
      const manager = await startControllerManager({ kubeConfig, logger: logger.child({ component: 'controller-manager' }) });
      return { name: 'controller-manager', stop: () => manager.stop() };
    },
    async ({ kubeConfig, layout, nodes, logger }) => {
      const kubelets: Kubelet[] = [];
      const stop = () => Promise.all(kubelets.map((k) => k.stop())).then(() => undefined);
      try {
        // One after the other: each registers its Node, and a failure stops those already started.
        for (const node of nodes) {
          kubelets.push(
            await startKubelet({
              kubeconfig: kubeConfig,
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
      } catch (err) {
        await stop();
        throw err;
      }
      return { name: nodes.length === 1 ? 'kubelet' : `kubelets (${nodes.length})`, stop };
    },
  ];
}
