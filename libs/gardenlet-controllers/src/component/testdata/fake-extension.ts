// The extension's part in tests of the gardenlet's extension steps, against a real API server: take the reconcile
// request (remove the operation annotation, add a finalizer, report the last operation Succeeded at the current
// generation) as the SDK's generic reconciler does, and release the finalizer when the object is being deleted.
import { kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';

const Finalizer = 'extensions.gardener.cloud/test';

/** A fake extension over `client` for extension resources of one apiVersion/kind. */
export function fakeExtension(client: Pick<Client, 'get' | 'update' | 'updateStatus'>) {
  const get = (ref: { apiVersion?: string; kind: string; name: string; namespace?: string }) =>
    client.get(kind(ref.apiVersion ?? 'extensions.gardener.cloud/v1alpha1', ref.kind), {
      name: ref.name,
      namespace: ref.namespace,
    });
  return {
    finalizer: Finalizer,
    /** Handles the object's reconcile request (adding the extension's finalizer unless `finalizer` is false). */
    async handle(
      ref: { apiVersion?: string; kind: string; name: string; namespace?: string },
      { finalizer = true }: { finalizer?: boolean } = {},
    ): Promise<void> {
      const current = await get(ref);
      const annotations = { ...current.metadata!.annotations };
      delete annotations['gardener.cloud/operation'];
      const updated = await client.update({
        ...current,
        metadata: { ...current.metadata, annotations, ...(finalizer ? { finalizers: [Finalizer] } : {}) },
      });
      await client.updateStatus({
        ...updated,
        status: {
          observedGeneration: updated.metadata!.generation,
          lastOperation: {
            type: 'Create',
            state: 'Succeeded',
            progress: 100,
            description: 'done',
            // After the request's timestamp, also when the clock moves in whole seconds.
            lastUpdateTime: new Date(Date.now() + 1000).toISOString(),
          },
        },
      } as KubernetesObject);
    },
    /** Releases the object's finalizer (the extension's part of a deletion). */
    async release(ref: { apiVersion?: string; kind: string; name: string; namespace?: string }): Promise<void> {
      const current = await get(ref);
      await client.update({ ...current, metadata: { ...current.metadata, finalizers: [] } });
    },
  };
}
