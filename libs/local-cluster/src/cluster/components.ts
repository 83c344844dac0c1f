// The components a local cluster runs besides its API server and service proxy: the controller manager (workload
// controllers and scheduler) and the kubelet of the cluster's one node.
import { join } from 'node:path';
import { startControllerManager } from '../controllers/controller-manager.js';
import { startKubelet } from '../kubelet/kubelet.js';
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
    async ({ kubeConfig, layout, settings, logger }) => {
      const kubelet = await startKubelet({
        kubeconfig: kubeConfig,
        nodeName: settings.nodeName,
        dataDir: layout.kubelet,
        imageMap: options.imageMapFile,
        workspace: options.workspace,
        port: 0,
        podCIDR: settings.podCIDR,
        servicesFile: layout.services,
        // Only the API server (it holds a certificate of the cluster CA) may read logs or exec.
        clientCaFile: join(layout.apiserver, 'pki', 'ca.crt'),
        logger: logger.child({ component: 'kubelet' }),
      });
      return { name: 'kubelet', stop: () => kubelet.stop() };
    },
  ];
}
