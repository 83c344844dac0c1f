// Group/version/kind: how a caller names a kind. A `Kind<T>` also carries the TypeScript type of its objects.
import type { KubernetesObject, PartialObjectMetadata } from './types.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** A GVK tagged with the object type it stands for, so `client.get(ConfigMap, key)` returns a typed object. */
export interface Kind<T extends KubernetesObject = KubernetesObject> extends GroupVersionKind {
  /** Type-only marker; never set at run time. */
  readonly __object?: T;
  /** Read only metadata (`PartialObjectMetadata`): cheaper to transfer and to cache. */
  readonly metadataOnly?: boolean;
}

/** The object type a `Kind` stands for. */
export type ObjectOf<K> = K extends Kind<infer T> ? T : never;

/** Declares a kind from its apiVersion (`v1`, `apps/v1`, `example.com/v1alpha1`) and kind name. */
export function kind<T extends KubernetesObject = KubernetesObject>(apiVersion: string, kindName: string): Kind<T> {
  const { group, version } = parseApiVersion(apiVersion);
  if (!kindName) throw new Error(`kind name missing for apiVersion ${JSON.stringify(apiVersion)}`);
  return { group, version, kind: kindName };
}

/** A Kind from a definition that names its group/version/kind under `info`, like @gardener-ts/api's kinds: `kindFrom<Shoot>(ShootKind)`. */
export function kindFrom<T extends KubernetesObject = KubernetesObject>(definition: {
  info: GroupVersionKind;
}): Kind<T> {
  const { group, version, kind: kindName } = definition.info;
  return { group, version, kind: kindName };
}

/** The same kind read as metadata only: `PartialObjectMetadata` objects from the API and from caches. */
export function metadataOnly(of: GroupVersionKind): Kind<PartialObjectMetadata> {
  return { group: of.group, version: of.version, kind: of.kind, metadataOnly: true };
}

export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (!apiVersion || parts.length > 2 || parts.some((p) => p === '')) {
    throw new Error(`invalid apiVersion ${JSON.stringify(apiVersion)}: want "version" or "group/version"`);
  }
  return parts.length === 1 ? { group: '', version: parts[0] } : { group: parts[0], version: parts[1] };
}

export function apiVersionOf(gvk: GroupVersionKind): string {
  return gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
}

/** The GVK an object declares in its apiVersion and kind; throws if either is missing. */
export function gvkOf(obj: KubernetesObject): GroupVersionKind {
  if (!obj.apiVersion || !obj.kind) {
    throw new Error(`object ${describe(obj)} has no apiVersion/kind; set both so the client knows where it belongs`);
  }
  return { ...parseApiVersion(obj.apiVersion), kind: obj.kind };
}

export function gvkString(gvk: GroupVersionKind): string {
  return `${apiVersionOf(gvk)}, Kind=${gvk.kind}`;
}

export function sameGroupKind(a: { group: string; kind: string }, b: { group: string; kind: string }): boolean {
  return a.group === b.group && a.kind === b.kind;
}

/** `namespace/name` (or `name`) for messages and logs. */
export function describe(obj: KubernetesObject): string {
  const m = obj.metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name ?? m.generateName ?? ''}` : (m.name ?? m.generateName ?? '<unnamed>');
}
