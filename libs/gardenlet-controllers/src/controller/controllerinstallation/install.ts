// What the ControllerInstallation main reconciler deploys (Gardener pkg/gardenlet/controller/controllerinstallation):
// namespace `extension-<installation>`, the chart values extended with Gardener's `gardener.*` block, and the rendered
// chart as a ManagedResource (class `seed`) in the seed's garden namespace labelled `controllerinstallation-name`.
// Pure builders.
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { GARDEN_NAMESPACE } from '../../constants.js';

/** Label on the ManagedResource naming its ControllerInstallation. */
export const CONTROLLER_INSTALLATION_LABEL = 'controllerinstallation-name';
/** The finalizer of the gardenlet on ControllerInstallations. */
export const CONTROLLER_INSTALLATION_FINALIZER = 'core.gardener.cloud/controllerinstallation';
/** Annotation on a ControllerRegistration choosing the pod security level of the extension namespace. */
export const POD_SECURITY_ENFORCE_ANNOTATION = 'security.gardener.cloud/pod-security-enforce';

/** The seed namespace of an installation's extension. */
export const extensionNamespace = (installation: string) => `extension-${installation}`;

/** The namespace, labelled for the extension and its pod security level (default `baseline`). */
export function extensionNamespaceObject(installation: string, registration: KubernetesObject): KubernetesObject {
  const level = registration.metadata?.annotations?.[POD_SECURITY_ENFORCE_ANNOTATION] ?? 'baseline';
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: extensionNamespace(installation),
      labels: {
        'gardener.cloud/role': 'extension',
        'controllerregistration.core.gardener.cloud/name': registration.metadata!.name!,
        'pod-security.kubernetes.io/enforce': level,
        'pod-security.kubernetes.io/enforce-version': 'latest',
      },
    },
  };
}

/** The seed as the chart values see it. */
export interface SeedInfo {
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  spec: unknown;
  clusterIdentity?: string;
}

/** Deep merge of plain objects (`b` wins; arrays and scalars are replaced). */
function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = isPlain(prev) && isPlain(v) ? merge(prev, v) : v;
  }
  return out;
}
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The chart values: the ControllerDeployment's `helm.values` extended with Gardener's `gardener` block
 * (`gardener.garden.genericKubeconfigSecretName` only for a ControllerDeployment with `injectGardenKubeconfig`).
 */
export function chartValues(
  deploymentValues: unknown,
  gardener: {
    version: string;
    gardenClusterIdentity?: string;
    genericKubeconfigSecretName?: string;
    featureGates: Record<string, boolean>;
    seed: SeedInfo;
  },
): Record<string, unknown> {
  const base = isPlain(deploymentValues) ? deploymentValues : {};
  const { seed } = gardener;
  return merge(base, {
    gardener: {
      version: gardener.version,
      garden: {
        clusterIdentity: gardener.gardenClusterIdentity ?? '',
        ...(gardener.genericKubeconfigSecretName
          ? { genericKubeconfigSecretName: gardener.genericKubeconfigSecretName }
          : {}),
      },
      gardenlet: { featureGates: gardener.featureGates },
      seed: {
        name: seed.name,
        clusterIdentity: seed.clusterIdentity ?? '',
        annotations: seed.annotations ?? {},
        labels: seed.labels ?? {},
        spec: seed.spec,
      },
    },
  });
}

/**
 * The Secret data key of the `index`th rendered object: index, kind, namespace and name, with every character a Secret
 * key may not hold (`:` of `gardener.cloud:...` ClusterRoles, say) replaced by `_`, as Gardener's registry does.
 */
export function managedResourceDataKey(index: number, object: KubernetesObject): string {
  const key = `${String(index).padStart(3, '0')}_${object.kind?.toLowerCase()}_${object.metadata?.namespace ?? ''}_${object.metadata?.name ?? ''}.json`;
  return key.replace(/[^-._a-zA-Z0-9]/g, '_');
}

/** The data of a ManagedResource's Secret: one key per object (see {@link managedResourceDataKey}), JSON. */
export function managedResourceSecretData(objects: readonly KubernetesObject[]): Record<string, string> {
  const data: Record<string, string> = {};
  objects.forEach((o, i) => {
    data[managedResourceDataKey(i, o)] = Buffer.from(JSON.stringify(o)).toString('base64');
  });
  return data;
}

/** The ManagedResource and its Secret carrying the rendered objects (one key per object). */
export function installationManagedResource(
  installation: string,
  objects: readonly KubernetesObject[],
): { secret: KubernetesObject; managedResource: KubernetesObject } {
  const secretName = `managedresource-${installation}`;
  const data = managedResourceSecretData(objects);
  const labels = { [CONTROLLER_INSTALLATION_LABEL]: installation };
  return {
    secret: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secretName, namespace: GARDEN_NAMESPACE, labels },
      type: 'Opaque',
      data,
    } as KubernetesObject,
    managedResource: {
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: { name: installation, namespace: GARDEN_NAMESPACE, labels },
      spec: { class: 'seed', secretRefs: [{ name: secretName }], keepObjects: false },
    } as KubernetesObject,
  };
}
