// `spec.deletePersistentVolumeClaims` (Gardener's cleaner.go): before a managed StatefulSet is deleted, the
// PersistentVolumeClaims created from its volumeClaimTemplates are deleted too. The StatefulSet controller labels those
// PVCs with the template's labels overlaid by the StatefulSet's selector labels, so the selector's matchLabels find them.
import { kind as kindOf, type Client } from '@gardener-ts/controller-runtime';
import { groupOf } from './equivalences.js';

type Obj = Record<string, any>;

export const PersistentVolumeClaimKind = kindOf('v1', 'PersistentVolumeClaim');

const isStatefulSet = (obj: Obj) =>
  obj.kind === 'StatefulSet' && ['apps', 'extensions'].includes(groupOf(obj.apiVersion));

/**
 * Deletes the PVCs of `obj` (the live object) when it is a StatefulSet with volumeClaimTemplates. Like Gardener, only
 * `selector.matchLabels` is used (matchExpressions are not), and nothing is waited for.
 */
export async function deleteStatefulSetPVCs(api: Client, obj: Obj): Promise<void> {
  if (!isStatefulSet(obj) || !(obj.spec?.volumeClaimTemplates as unknown[] | undefined)?.length) return;
  const namespace = obj.metadata?.namespace as string;
  const labelSelector: Record<string, string> = { ...obj.spec?.selector?.matchLabels };
  const errMsg = 'failed cleaning up PersistentVolumeClaims of StatefulSet';
  let pvcs;
  try {
    pvcs = await api.list(PersistentVolumeClaimKind, { namespace, labelSelector });
  } catch (err) {
    throw new Error(
      `${errMsg}: could not list PVCs of StatefulSet: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (pvcs.items.length === 0) return;
  try {
    await api.deleteAllOf(PersistentVolumeClaimKind, { namespace, labelSelector });
  } catch (err) {
    throw new Error(`${errMsg}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
