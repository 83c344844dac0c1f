// validateGardenlet (Gardener's pkg/apis/seedmanagement/validation/gardenlet.go): a Gardenlet in the garden namespace,
// its operation annotation, deployment, OCI chart and GardenletConfiguration (bootstrapped with a token).
import type { Gardenlet } from '../seedmanagement/v1alpha1/gardenlet.js';
import { GardenNamespace } from '../constants/namespaces.js';
import { Annotations } from '../constants/index.js';
import { type FieldError, FieldPath, forbidden } from './field.js';
import { validateDNS1123Label, validateObjectMeta, validateObjectMetaUpdate } from './names.js';
import {
  gardenletOperations,
  operationPath,
  validateGardenletConfig,
  validateGardenletDeployment,
  validateOCIRepository,
  validateOperation,
  validateOperationUpdate,
} from './seedmanagement.js';

const spec = FieldPath.root('spec');

export function validateGardenlet(gardenlet: Gardenlet, old?: Gardenlet): FieldError[] {
  const errors: FieldError[] = [];
  if (old) {
    errors.push(...validateObjectMetaUpdate(gardenlet.metadata, old.metadata));
    errors.push(
      ...validateOperationUpdate(
        gardenlet.metadata?.annotations?.[Annotations.GardenerOperation],
        old.metadata?.annotations?.[Annotations.GardenerOperation],
        operationPath,
      ),
    );
  }
  errors.push(...validateObjectMeta(gardenlet.metadata, { namespaced: true, name: validateDNS1123Label }));
  if (gardenlet.metadata?.namespace !== GardenNamespace)
    errors.push(forbidden(FieldPath.root('metadata', 'namespace'), 'namespace must be garden'));
  errors.push(
    ...validateOperation(
      gardenlet.metadata?.annotations?.[Annotations.GardenerOperation],
      gardenletOperations,
      operationPath,
    ),
  );
  const s = gardenlet.spec;
  if (s) {
    errors.push(...validateGardenletDeployment(s.deployment ?? {}, spec.child('deployment')));
    errors.push(
      ...validateOCIRepository(
        s.deployment?.helm?.ociRepository ?? {},
        spec.child('deployment', 'helm', 'ociRepository'),
      ),
    );
    if (s.config != null)
      errors.push(...validateGardenletConfig(s.config, 'BootstrapToken', false, spec.child('config')));
  }
  return errors;
}
