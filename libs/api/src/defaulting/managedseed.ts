// defaultManagedSeed: bootstrap mode, config merging and gardenlet deployment size.
import type { ManagedSeed } from '../seedmanagement/v1alpha1/gardenlet.js';
import { setDefault, setDefaults } from './util.js';

export function defaultManagedSeed(input: ManagedSeed): ManagedSeed {
  const managedSeed = structuredClone(input);
  const gardenlet = managedSeed.spec.gardenlet;
  setDefaults(gardenlet, { bootstrap: 'BootstrapToken', mergeWithParent: true });
  setDefaults(
    setDefault(gardenlet, 'deployment', () => ({})),
    { replicaCount: 2, revisionHistoryLimit: 2 },
  );
  return managedSeed;
}
