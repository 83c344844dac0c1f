// provider-local's Extension of type `local-ext-shoot-after-worker` (Gardener's): a Deployment
// `local-ext-shoot-after-worker` (one replica) in the shoot's `kube-system`, delivered through the ManagedResource of
// that name and reconciled after the workers (its registration's `lifecycle.reconcile: AfterWorker`): the reconcile
// succeeds only once the ManagedResource is healthy, i.e. the Deployment is ready on a Node (not while hibernation is
// enabled). The container is Gardener's: its mirrored alpine image running `/bin/sh -c 'sleep 3600'` (the local
// substrate's image map runs shell images as the host's `sh` and `sleep`).
import type { KubernetesObject, Reader } from '@gardener-ts/controller-runtime';
import { ShootObjectsActuator } from '../shoot-objects.js';

/** The Extension type (also the name of its ManagedResource and of the Deployment). */
export const LocalExtShootAfterWorkerType = 'local-ext-shoot-after-worker';

/** The image of the Deployment, Gardener's mirror of alpine (a shell image of the local substrate's image map). */
export const LocalExtShootAfterWorkerImage = 'europe-docker.pkg.dev/gardener-project/releases/3rd/alpine:3.19.1';

/** The objects `local-ext-shoot-after-worker` puts into the shoot. */
export function localExtShootAfterWorkerObjects(): KubernetesObject[] {
  const labels = { 'app.kubernetes.io/name': LocalExtShootAfterWorkerType };
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: LocalExtShootAfterWorkerType, namespace: 'kube-system', labels },
      spec: {
        replicas: 1,
        revisionHistoryLimit: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [
              {
                name: LocalExtShootAfterWorkerType,
                image: LocalExtShootAfterWorkerImage,
                command: ['/bin/sh', '-c', 'sleep 3600'],
              },
            ],
            terminationGracePeriodSeconds: 0,
          },
        },
      },
    } as KubernetesObject,
  ];
}

/** The actuator of `local-ext-shoot-after-worker`: waits until the Deployment is ready. */
export function localExtShootAfterWorkerActuator(
  options: { apiReader?: Reader; pollMs?: number } = {},
): ShootObjectsActuator {
  return new ShootObjectsActuator({
    ...options,
    name: LocalExtShootAfterWorkerType,
    objects: localExtShootAfterWorkerObjects,
    waitUntilHealthy: true,
  });
}
