// defaultSeed: settings Gardener switches on unless told otherwise, and the IP family.
import type { Seed } from '../core/v1beta1/seed.js';
import { setDefault, setDefaults } from './util.js';

export function defaultSeed(input: Seed): Seed {
  const seed = structuredClone(input);
  const spec = seed.spec;
  if (spec.networks) setDefault(spec.networks, 'ipFamilies', () => ['IPv4' as const]);
  const settings = setDefault(spec, 'settings', () => ({}));
  setDefault(settings, 'excessCapacityReservation', () => ({}));
  setDefault(settings.excessCapacityReservation!, 'enabled', () => true);
  setDefault(settings, 'scheduling', () => ({ visible: true }));
  setDefault(settings, 'verticalPodAutoscaler', () => ({ enabled: true }));
  setDefault(settings, 'topologyAwareRouting', () => ({ enabled: false }));
  const dwd = setDefault(settings, 'dependencyWatchdog', () => ({}));
  setDefaults(dwd, { weeder: { enabled: true }, prober: { enabled: true } });
  return seed;
}
