// Metric families are created once per prom-client Registry: a second registration of a name would throw.
import type { Registry } from 'prom-client';

/** Memoizes `create(registry)` per registry, so every queue or controller sharing a registry shares its families. */
export function perRegistry<T>(create: (registry: Registry) => T): (registry: Registry) => T {
  const byRegistry = new WeakMap<Registry, T>();
  return (registry) => {
    let families = byRegistry.get(registry);
    if (!families) {
      families = create(registry);
      byRegistry.set(registry, families);
    }
    return families;
  };
}
