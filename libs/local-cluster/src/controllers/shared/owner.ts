// Controller ownerReferences: who controls an object, and adopting or releasing objects by label selector
// (kube's ControllerRefManager).
import {
  apiVersionOf,
  ignoreNotFound,
  type Client,
  type GroupVersionKind,
  type Kind,
  type KubernetesObject,
  type LabelMatcher,
  type OwnerReference,
} from '@gardener-ts/controller-runtime';

export function controllerOf(obj: KubernetesObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

export function controllerRef(owner: KubernetesObject, kind: GroupVersionKind): OwnerReference {
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    name: owner.metadata!.name!,
    uid: owner.metadata!.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export interface ClaimOptions<T extends KubernetesObject> {
  client: Client;
  /** The kind of the claimed objects. */
  kind: Kind<T>;
  owner: KubernetesObject;
  ownerKind: GroupVersionKind;
  selector: LabelMatcher;
  /** Re-reads the owner live before adopting: an owner that is gone or being deleted adopts nothing. */
  ownerIsCurrent: () => Promise<boolean>;
}

/**
 * The objects the owner controls after adopting orphans that match its selector and releasing those it controls
 * that no longer match. Objects controlled by someone else are never touched.
 */
export async function claimObjects<T extends KubernetesObject>(objects: T[], o: ClaimOptions<T>): Promise<T[]> {
  const uid = o.owner.metadata?.uid;
  const ownerDeleting = !!o.owner.metadata?.deletionTimestamp;
  const claimed: T[] = [];
  let mayAdopt: boolean | undefined;
  for (const obj of objects) {
    const ref = controllerOf(obj);
    const matches = o.selector(obj.metadata?.labels);
    if (ref) {
      if (ref.uid !== uid) continue;
      if (matches) claimed.push(obj);
      else if (!ownerDeleting)
        await setOwnerReferences(
          o,
          obj,
          (obj.metadata?.ownerReferences ?? []).filter((r) => r.uid !== uid),
        );
      continue;
    }
    if (!matches || ownerDeleting || obj.metadata?.deletionTimestamp) continue;
    mayAdopt ??= await o.ownerIsCurrent();
    if (!mayAdopt) continue;
    const adopted = await setOwnerReferences(o, obj, [
      ...(obj.metadata?.ownerReferences ?? []),
      controllerRef(o.owner, o.ownerKind),
    ]);
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

/** Replaces the ownerReferences if the object is unchanged since it was read (a Conflict otherwise, retried by the queue). */
async function setOwnerReferences<T extends KubernetesObject>(
  o: ClaimOptions<T>,
  obj: T,
  ownerReferences: OwnerReference[],
): Promise<T | undefined> {
  const key = { namespace: obj.metadata?.namespace, name: obj.metadata!.name! };
  const patch = {
    metadata: { ownerReferences, uid: obj.metadata?.uid, resourceVersion: obj.metadata?.resourceVersion },
  };
  return o.client.patch(o.kind, key, { type: 'merge', patch }).catch(ignoreNotFound);
}
