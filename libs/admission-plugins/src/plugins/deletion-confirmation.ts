// DeletionConfirmation (gardener-apiserver plugin/pkg/global/deletionconfirmation): Projects, Shoots and
// ShootStates are deleted only when annotated `confirmation.gardener.cloud/deletion=true` beforehand; a Shoot carrying
// `shoot.gardener.cloud/ignore=true` cannot be deleted at all. A DELETECOLLECTION (no name) passes only when every
// object it would delete is confirmed.
import { Annotations } from '@gardener-ts/api';
import { allow, CORE, forbidden, isKind, type AdmissionAttributes, type KubeObject } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

/** `shoot.gardener.cloud/ignore`: the gardenlet leaves such a Shoot alone. */
export const ShootIgnore = 'shoot.gardener.cloud/ignore';

const KINDS = ['Shoot', 'Project', 'ShootState'];

const isTrue = (value: string | undefined) =>
  value !== undefined && ['true', 't', '1', 'TRUE', 'True', 'T'].includes(value);

/** Why `object` may not be deleted, or undefined when its deletion is confirmed. */
export function deletionRefusal(kind: string, object: KubeObject): string | undefined {
  const annotations = object.metadata?.annotations ?? {};
  if (kind === 'Shoot' && isTrue(annotations[ShootIgnore]))
    return `cannot delete shoot if ${ShootIgnore} annotation is set`;
  if (!isTrue(annotations[Annotations.ConfirmationDeletion]))
    return `must have a "${Annotations.ConfirmationDeletion}" annotation to delete`;
  return undefined;
}

/** The DeletionConfirmation admission plugin. */
export const DeletionConfirmation: AdmissionPlugin = {
  name: 'DeletionConfirmation',
  handles: (a) => a.operation === 'DELETE' && !a.subresource && KINDS.some((k) => isKind(a, CORE, k)),
  async validate(a: AdmissionAttributes, listers) {
    const apiVersion = `${a.kind.group}/${a.kind.version}`;
    if (!a.name) {
      const objects = await listers.list(apiVersion, a.kind.kind, a.namespace);
      const refusals = objects.map((o) => deletionRefusal(a.kind.kind, o)).filter((r): r is string => r !== undefined);
      return refusals.length > 0 ? forbidden(a, [...new Set(refusals)].join(', ')) : allow();
    }
    // The webhook gets the stored object; a lister read covers callers that do not send it.
    const object = a.oldObject ?? (await listers.get(apiVersion, a.kind.kind, a.name, a.namespace));
    if (!object) return allow(); // the API server answers 404 itself
    const refusal = deletionRefusal(a.kind.kind, object);
    return refusal ? forbidden(a, refusal) : allow();
  },
};
