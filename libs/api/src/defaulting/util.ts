// Small helpers for defaulting: set a field only when it is unset, on plain objects.

/** Sets `object[key]` to `value()` when it is undefined, and returns the (possibly new) value. */
export function setDefault<T extends object, K extends keyof T>(
  object: T,
  key: K,
  value: () => NonNullable<T[K]>,
): NonNullable<T[K]> {
  if (object[key] === undefined || object[key] === null) object[key] = value();
  return object[key] as NonNullable<T[K]>;
}

/** Applies defaults field by field from a table of constant values. */
export function setDefaults<T extends object>(object: T, defaults: Partial<T>): T {
  for (const [key, value] of Object.entries(defaults) as [keyof T, T[keyof T]][]) {
    if (object[key] === undefined || object[key] === null) object[key] = structuredClone(value);
  }
  return object;
}
