// Referenced resources (Gardener's "Referenced Resources" of Shoots): a Shoot lists Secrets and ConfigMaps of its
// project in `spec.resources`; gardenlet copies them into the shoot namespace of the seed under the name
// `ref-<name>`, where extensions read them. The copies here are pure; `getReferencedObject` is what extensions call.
import { Kinds, isNotFound, type ConfigMap, type Reader, type Secret } from '@gardener-ts/controller-runtime';
import type { Shoot } from '@gardener-ts/api';
import type { NamedResourceReference } from '../controller/generic/kinds.js';

/** The prefix of copied referenced resources in the shoot namespace. */
export const ReferencedResourcesPrefix = 'ref-';

/** The name of the copy of the referenced object `name` in the shoot namespace. */
export function referencedObjectName(name: string): string {
  return `${ReferencedResourcesPrefix}${name}`;
}

/** The entry `name` of a Shoot's `spec.resources`, if any. */
export function referencedResource(shoot: Pick<Shoot, 'spec'>, name: string): NamedResourceReference | undefined {
  return (shoot.spec.resources as NamedResourceReference[] | undefined)?.find((r) => r.name === name);
}

/** The kinds gardenlet copies. */
export type ReferencedObject = Secret | ConfigMap;

/**
 * Reads the copy of the resource a Shoot references as `name` (its `spec.resources[].name`) from the shoot
 * namespace. Throws, naming the resource, when the Shoot does not reference it, it is neither a Secret nor a
 * ConfigMap, or the copy is not there (yet).
 */
export async function getReferencedObject(
  reader: Pick<Reader, 'get'>,
  namespace: string,
  shoot: Pick<Shoot, 'spec' | 'metadata'>,
  name: string,
): Promise<ReferencedObject> {
  const ref = referencedResource(shoot, name);
  if (!ref)
    throw new Error(
      `Shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name} has no spec.resources entry named ${JSON.stringify(name)}`,
    );
  const kind =
    ref.resourceRef.kind === 'Secret'
      ? Kinds.Secret
      : ref.resourceRef.kind === 'ConfigMap'
        ? Kinds.ConfigMap
        : undefined;
  if (!kind)
    throw new Error(
      `spec.resources[${JSON.stringify(name)}] references a ${ref.resourceRef.kind}; only Secrets and ConfigMaps are copied`,
    );
  const copy = referencedObjectName(ref.resourceRef.name);
  try {
    return await reader.get<ReferencedObject>(kind, { namespace, name: copy });
  } catch (err) {
    if (isNotFound(err))
      throw new Error(
        `${ref.resourceRef.kind} ${namespace}/${copy} (spec.resources[${JSON.stringify(name)}]) has not been copied into the shoot namespace`,
        { cause: err },
      );
    throw err;
  }
}

/**
 * The copies gardenlet writes into `namespace` for the objects a Shoot references (pure): same kind, type and data,
 * named `ref-<name>`, without the source's metadata. Objects the Shoot does not reference are left out.
 */
export function referencedObjectCopies(
  shoot: Pick<Shoot, 'spec'>,
  sources: readonly ReferencedObject[],
  namespace: string,
): ReferencedObject[] {
  const wanted = new Set(
    ((shoot.spec.resources as NamedResourceReference[] | undefined) ?? []).map(
      (r) => `${r.resourceRef.kind}/${r.resourceRef.name}`,
    ),
  );
  return sources
    .filter((o) => wanted.has(`${o.kind}/${o.metadata?.name}`))
    .map((o) => {
      const metadata = { name: referencedObjectName(o.metadata?.name ?? ''), namespace };
      if (o.kind === 'Secret') {
        const s = o as Secret;
        return {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata,
          ...(s.type ? { type: s.type } : {}),
          ...(s.data ? { data: { ...s.data } } : {}),
        } satisfies Secret;
      }
      const c = o as ConfigMap;
      return {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata,
        ...(c.data ? { data: { ...c.data } } : {}),
        ...(c.binaryData ? { binaryData: { ...c.binaryData } } : {}),
      } satisfies ConfigMap;
    });
}
