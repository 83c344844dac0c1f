// provider-local's Extension of type `local-ext-shoot` (Gardener's): a ServiceAccount `local-ext-shoot` in the shoot's
// `kube-system` (no token automounted), delivered through the ManagedResource `local-ext-shoot`; it exists to test
// extension lifecycles (reconciled after the kube-apiserver, Gardener's default lifecycle). Gardener's e2e-only
// `test-force-delete` NetworkPolicies are not made.
import type { KubernetesObject, Reader } from '@gardener-ts/controller-runtime';
import { ShootObjectsActuator } from '../shoot-objects.js';

/** The Extension type (also the name of its ManagedResource and of the ServiceAccount). */
export const LocalExtShootType = 'local-ext-shoot';

/** The objects `local-ext-shoot` puts into the shoot. */
export function localExtShootObjects(): KubernetesObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {
        name: LocalExtShootType,
        namespace: 'kube-system',
        labels: { 'app.kubernetes.io/name': LocalExtShootType },
      },
      automountServiceAccountToken: false,
    } as KubernetesObject,
  ];
}

/** The actuator of `local-ext-shoot`. */
export function localExtShootActuator(options: { apiReader?: Reader; pollMs?: number } = {}): ShootObjectsActuator {
  return new ShootObjectsActuator({ ...options, name: LocalExtShootType, objects: localExtShootObjects });
}
