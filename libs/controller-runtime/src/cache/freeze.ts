// Cached objects are shared by every reader, so they are frozen once when they enter the cache.
//
// Why freeze rather than copy: a copy per read costs a full clone on every get/list (10,000 Secrets listed is
// 10,000 clones), while freezing costs one walk per change. And a reader that mutates a cached object by mistake
// gets a TypeError at the faulty line (ES modules are strict mode), in tests and production alike, instead of
// silently corrupting what every other controller sees. Callers that want to change an object copy it first
// (`structuredClone(obj)`), as with controller-runtime's `DeepCopy`.

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
