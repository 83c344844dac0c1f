// What kube-controller-manager's root-ca-cert-publisher keeps in a namespace: ConfigMap `kube-root-ca.crt` whose data
// is exactly `{ ca.crt: <the --root-ca-file bundle> }` and which carries the `kubernetes.io/description` annotation.
// Given the ConfigMap there is (or none), says what to write: nothing, a new one, or the existing one with its data
// replaced (other keys dropped, as kube does) and the annotation added when it is missing or empty. Pure.
import type { ConfigMap } from '@gardener-ts/controller-runtime';
import { ROOT_CA_CONFIGMAP, ROOT_CA_CONFIGMAP_DESCRIPTION } from '@gardener-ts/local-apiserver';

/** The ConfigMap's name (kube's RootCACertConfigMapName) and its description: the same as the substrate API server's. */
export { ROOT_CA_CONFIGMAP, ROOT_CA_CONFIGMAP_DESCRIPTION as DESCRIPTION };
/** The key of the CA bundle in the ConfigMap's data. */
export const ROOT_CA_KEY = 'ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';

export type PublishPlan =
  /** The ConfigMap is as it should be. */
  | { kind: 'none' }
  /** There is none: create this one. */
  | { kind: 'create'; configMap: ConfigMap }
  /** It differs: write this one (the existing object, resourceVersion kept, with data and annotation set). */
  | { kind: 'update'; configMap: ConfigMap };

/** What to write into `namespace` so that its root CA ConfigMap holds `rootCA`, given the one there is (if any). */
export function planRootCAConfigMap(namespace: string, rootCA: string, existing: ConfigMap | undefined): PublishPlan {
  const data = { [ROOT_CA_KEY]: rootCA };
  if (!existing)
    return {
      kind: 'create',
      configMap: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: ROOT_CA_CONFIGMAP,
          namespace,
          annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_CONFIGMAP_DESCRIPTION },
        },
        data,
      },
    };
  const annotations = existing.metadata?.annotations ?? {};
  if (sameData(existing.data, data) && annotations[DESCRIPTION_ANNOTATION]) return { kind: 'none' };
  return {
    kind: 'update',
    configMap: {
      ...existing,
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        ...existing.metadata,
        annotations: {
          ...annotations,
          [DESCRIPTION_ANNOTATION]: annotations[DESCRIPTION_ANNOTATION] || ROOT_CA_CONFIGMAP_DESCRIPTION,
        },
      },
      data,
    },
  };
}

/** Whether a Namespace still takes new content: not being deleted (kube's publisher skips non-Active updates). */
export function namespaceActive(namespace: {
  metadata?: { deletionTimestamp?: unknown };
  status?: { phase?: unknown };
}): boolean {
  return !namespace.metadata?.deletionTimestamp && namespace.status?.phase !== 'Terminating';
}

function sameData(actual: Record<string, string> | undefined, wanted: Record<string, string>): boolean {
  const keys = Object.keys(actual ?? {});
  return keys.length === Object.keys(wanted).length && keys.every((k) => actual![k] === wanted[k]);
}
