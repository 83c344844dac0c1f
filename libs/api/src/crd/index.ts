import { generatedCRDs } from './generate.js';
import { gardenerCRDs } from './gardener.js';
import type { CustomResourceDefinition } from './types.js';

export * from './types.js';
export { crdFor, crdFileName, generatedCRDs, renderCRD } from './generate.js';
export { gardenerCRDs, crdsDirectory, readCRDFile } from './gardener.js';
export { toStructural } from './structural.js';

/** Every CRD: the generated ones for core/security/seedmanagement/operations and Gardener's own for the other groups. */
export function allCRDs(): CustomResourceDefinition[] {
  return [...generatedCRDs(), ...gardenerCRDs()];
}
