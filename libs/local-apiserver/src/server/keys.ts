// Storage keys, kube-style: /registry/<group|core>/<resource>/<namespace>/<name>. All versions of a resource share them,
// and so does a resource stored as another (events.k8s.io events are core events in storage).
import type { ResourceDefinition } from '../registry/types.js';

export function storageKey(def: ResourceDefinition, namespace: string, name: string): string {
  return def.namespaced ? `${collectionPrefix(def, namespace)}${name}` : `${collectionPrefix(def)}${name}`;
}

/** The prefix of a collection; without a namespace, every namespace's objects. */
export function collectionPrefix(def: ResourceDefinition, namespace?: string): string {
  const { group, resource } = def.storage ?? def;
  const base = `/registry/${group || 'core'}/${resource}/`;
  return def.namespaced && namespace ? `${base}${namespace}/` : base;
}

export function apiVersionOf(def: { group: string; version: string }): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** The apiVersion objects of this resource are stored in (`v1` for events.k8s.io events, `autoscaling/v2` for HPAs). */
export function storageApiVersion(def: Pick<ResourceDefinition, 'group' | 'storageVersion' | 'storage'>): string {
  return apiVersionOf({ group: def.storage?.group ?? def.group, version: def.storageVersion });
}

/** Opaque `continue` tokens: the list revision and the last key returned. */
export function encodeContinue(revision: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 1, rv: revision, start: lastKey })).toString('base64url');
}

export function decodeContinue(token: string): { rv: number; start: string } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v: number;
      rv: number;
      start: string;
    };
    return parsed.v === 1 && typeof parsed.start === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
