// Helpers every backend shares: how objects are copied in (as JSON), sealed (resourceVersion set, deep-frozen) and
// how key prefixes become ranges. Copying through JSON in every backend keeps them identical: what a memory store
// hands back is exactly what would have come back from a file or from etcd (undefined members dropped, and so on).
import { StorageError, type KubeObject, type StoredObject } from './types.js';

/** The JSON a store keeps for an object: the object without `metadata.resourceVersion`. Never changes `object`. */
export function encodeObject(object: KubeObject): string {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    throw new TypeError(
      `a stored object must be a JSON object, got ${Array.isArray(object) ? 'an array' : typeof object}`,
    );
  }
  const metadata = object.metadata;
  if (isPlainObject(metadata) && 'resourceVersion' in metadata) {
    const { resourceVersion: _ignored, ...rest } = metadata;
    return JSON.stringify({ ...object, metadata: rest });
  }
  return JSON.stringify(object);
}

/** Takes ownership of a freshly parsed object: sets `metadata.resourceVersion` and deep-freezes it. */
export function sealObject(object: KubeObject, revision: number): KubeObject {
  if (!isPlainObject(object.metadata)) object.metadata = {};
  object.metadata.resourceVersion = String(revision);
  return deepFreeze(object);
}

export function decodeObject(json: string, revision: number): KubeObject {
  return sealObject(JSON.parse(json) as KubeObject, revision);
}

/** A frozen object at another revision; shares every frozen member but the top level and `metadata`. */
export function atRevision(object: KubeObject, revision: number): KubeObject {
  return deepFreeze({ ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } });
}

export function storedObject(key: string, object: KubeObject, revision: number): StoredObject {
  return Object.freeze({ key, object, revision });
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/**
 * The smallest string greater than every string that starts with `prefix` (undefined: there is none). Strings
 * compare by UTF-16 code units, which for the ASCII keys of Kubernetes is the byte order etcd uses.
 */
export function prefixEnd(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const code = prefix.charCodeAt(i);
    if (code < 0xffff) return prefix.slice(0, i) + String.fromCharCode(code + 1);
  }
  return undefined;
}

export const storageErrors = {
  notFound: (key: string) => new StorageError('NotFound', `${key} not found`),
  alreadyExists: (key: string) => new StorageError('AlreadyExists', `${key} already exists`),
  conflict: (key: string, expected: number, actual: number) =>
    new StorageError('Conflict', `${key} is at revision ${actual}, not the expected ${expected}`),
  gone: (after: number, oldest: number) =>
    new StorageError('Gone', `revision ${after} is older than the oldest kept (${oldest}); list again`),
  tooLarge: (wanted: number, current: number) =>
    new StorageError('TooLarge', `revision ${wanted} is newer than the store's (${current})`, current),
  closed: (kind: string) => new StorageError('Unavailable', `the ${kind} store is not open`),
};

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isPlainObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
