// A local cluster's default storage, as kind installs it: the StorageClass `standard` of the local-path provisioner
// (default class, WaitForFirstConsumer, reclaim policy Delete), whose volumes are directories under the cluster's data
// dir (`<data dir>/<cluster>/volumes`) and so survive Pods and cluster restarts.
import { join } from 'node:path';
import { ApiClient, isAlreadyExists } from '@gardener-ts/controller-runtime';
import type { KubeConfig } from '@kubernetes/client-node';
import { StorageClassKind } from '../controllers/shared/kinds.js';
import { standardStorageClass } from '../controllers/persistentvolume/local-path.js';
import type { ClusterLayout } from './layout.js';

/** Where the cluster's PersistentVolumes live. */
export const volumesDir = (layout: ClusterLayout) => join(layout.root, 'volumes');

/**
 * Creates StorageClass `standard` when the cluster has no StorageClass at all (its first start, or one whose classes
 * were all removed); a cluster with classes of its own keeps them as they are.
 */
export async function installDefaultStorageClass(kubeConfig: KubeConfig): Promise<void> {
  const api = await ApiClient.create(kubeConfig);
  try {
    if ((await api.list(StorageClassKind)).items.length) return;
    await api.create(standardStorageClass()).catch((err: unknown) => {
      if (!isAlreadyExists(err)) throw err;
    });
  } catch (err) {
    throw new Error('installing the default StorageClass "standard"', { cause: err });
  } finally {
    api.close();
  }
}
