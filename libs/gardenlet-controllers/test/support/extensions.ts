// The extension side of the shoot flow tests: Gardener's extension CRDs and an extension's answer to an operation
// annotation, as the SDK's generic reconciler gives it (lastOperation Succeeded, the annotation removed at the end).
import type { ApiClient, KubernetesObject } from '@gardener-ts/controller-runtime';
import { gardenerAsset, type CrdSource } from '@gardener-ts/testing';
import { etcdCRD } from '../../src/controller/etcd/crd.js';

/** Gardener's CRD of the `extensions.gardener.cloud` kind with this plural. */
export const extensionCRD = (plural: string): string =>
  gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${plural}.yaml`);

/** The seed CRDs the shoot flows deploy to: the extension kinds named, ManagedResources and druid's Etcd. */
export function shootFlowSeedCRDs(extensionPlurals: string[]): CrdSource[] {
  return [
    ...extensionPlurals.map(extensionCRD),
    gardenerAsset('crds', '10-crd-resources.gardener.cloud_managedresources.yaml'),
    etcdCRD(),
  ];
}

/** How an extension ends a `migrate` or `restore` operation. */
export interface OperationAnswer {
  type: 'Migrate' | 'Restore';
  /** `lastOperation.lastUpdateTime`; now when left out. */
  lastUpdateTime?: string;
  /** Sets `status.observedGeneration` to the object's generation. */
  observeGeneration?: boolean;
  /** Removes the finalizers with the annotation (a migrated object is forgotten, nothing is deleted for real). */
  releaseFinalizers?: boolean;
}

/** Answers the operation of `obj`: lastOperation `<type> Succeeded`, then the operation annotation removed. */
export async function answerOperation(
  client: ApiClient,
  obj: KubernetesObject,
  answer: OperationAnswer,
): Promise<void> {
  const status = (obj as { status?: Record<string, unknown> }).status;
  const updated = await client.updateStatus({
    ...obj,
    status: {
      ...status,
      ...(answer.observeGeneration ? { observedGeneration: obj.metadata?.generation } : {}),
      lastOperation: {
        type: answer.type,
        state: 'Succeeded',
        progress: 100,
        description: `Successfully ${answer.type === 'Migrate' ? 'migrated' : 'restored'}`,
        lastUpdateTime: answer.lastUpdateTime ?? new Date().toISOString(),
      },
    },
  } as KubernetesObject);
  const annotations = { ...updated.metadata?.annotations };
  delete annotations['gardener.cloud/operation'];
  await client.update({
    ...updated,
    metadata: { ...updated.metadata, annotations, ...(answer.releaseFinalizers ? { finalizers: [] } : {}) },
  });
}
