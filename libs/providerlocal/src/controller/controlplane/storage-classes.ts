// What provider-local's ControlPlane puts into the shoot (pure), as Gardener's provider-local does through its generic
// control plane actuator: the `default` StorageClass (annotated as the cluster's default) of the local-path
// provisioner, in the ManagedResource `extension-controlplane-storageclasses` of the shoot namespace. The
// ManagedResource has no class, so the shoot's gardener-resource-manager applies it into the shoot, and no `origin`
// label (that marks gardenlet's own); its objects get `shoot.gardener.cloud/no-cleanup` as Gardener's do.
// Gardener's shoot chart (`extension-controlplane-shoot`) would also run the local-path-provisioner Deployment; its
// image has no local program, so that chart is left out and volumes of this class stay Pending.
import { stringify } from 'yaml';
import type { KubernetesObject, Secret } from '@gardener-ts/controller-runtime';

/** The ManagedResource (and its Secret) carrying the shoot's StorageClasses (Gardener's name). */
export const StorageClassesManagedResourceName = 'extension-controlplane-storageclasses';
/** The provisioner of the local-path StorageClass (rancher's local-path-provisioner). */
export const LocalPathProvisioner = 'rancher.io/local-path';
/** Label the shoot's resource manager puts on every object of the ManagedResource: shoot cleanup leaves them alone. */
export const ShootNoCleanupLabel = 'shoot.gardener.cloud/no-cleanup';
/** Why the ControlPlane leaves the provisioner out (for events, logs and docs). */
export const ProvisionerNotDeployed =
  'The local-path-provisioner is not deployed into the shoot: its image has no local program, so volumes of ' +
  'StorageClass "default" stay Pending';

/** A ManagedResource as provider-local writes it. */
export interface ManagedResourceObject extends KubernetesObject {
  spec: {
    secretRefs: { name: string }[];
    injectLabels?: Record<string, string>;
    keepObjects?: boolean;
    forceOverwriteAnnotations?: boolean;
    class?: string;
  };
}

/** The shoot's default StorageClass (Gardener's provider-local `shoot-storageclasses` chart). */
export function defaultStorageClass(): KubernetesObject & Record<string, unknown> {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name: 'default',
      annotations: { 'storageclass.kubernetes.io/is-default-class': 'true', defaultVolumeType: 'local' },
    },
    provisioner: LocalPathProvisioner,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

/** The Secret and the ManagedResource that deliver the StorageClasses into the shoot of `namespace`. */
export function storageClassesManagedResource(namespace: string): {
  secret: Secret;
  managedResource: ManagedResourceObject;
} {
  const name = StorageClassesManagedResourceName;
  return {
    secret: {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: { name, namespace },
      data: { 'storageclasses.yaml': Buffer.from(stringify(defaultStorageClass())).toString('base64') },
    },
    managedResource: {
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: { name, namespace },
      spec: {
        secretRefs: [{ name }],
        injectLabels: { [ShootNoCleanupLabel]: 'true' },
        keepObjects: false,
        forceOverwriteAnnotations: true,
      },
    },
  };
}
