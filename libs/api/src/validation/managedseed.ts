// validateManagedSeed: the Shoot it turns into a seed and how the gardenlet is deployed there.
import type { ManagedSeed } from '../seedmanagement/v1alpha1/gardenlet.js';
import { GardenNamespace } from '../constants/namespaces.js';
import { type FieldError, FieldPath, immutable, invalid, required } from './field.js';
import { validateNonNegative, validateStringEnum } from './common.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './names.js';

const spec = FieldPath.root('spec');

export function validateManagedSeed(managedSeed: ManagedSeed, old?: ManagedSeed): FieldError[] {
  const errors = validateObjectMeta(managedSeed.metadata, { namespaced: true });
  if (managedSeed.metadata?.namespace && managedSeed.metadata.namespace !== GardenNamespace) {
    errors.push(
      invalid(
        FieldPath.root('metadata', 'namespace'),
        managedSeed.metadata.namespace,
        `namespace must be ${GardenNamespace}`,
      ),
    );
  }
  const s = managedSeed.spec;
  if (!s) return [...errors, required(spec)];
  if (!s.shoot?.name) errors.push(required(spec.child('shoot', 'name'), 'shoot name is required'));
  const gardenlet = s.gardenlet;
  if (!gardenlet) errors.push(required(spec.child('gardenlet')));
  else {
    const p = spec.child('gardenlet');
    if (gardenlet.bootstrap !== undefined) {
      errors.push(
        ...validateStringEnum(gardenlet.bootstrap, p.child('bootstrap'), ['BootstrapToken', 'ServiceAccount', 'None']),
      );
    }
    const deployment = gardenlet.deployment;
    errors.push(...validateNonNegative(deployment?.replicaCount, p.child('deployment', 'replicaCount')));
    errors.push(
      ...validateNonNegative(deployment?.revisionHistoryLimit, p.child('deployment', 'revisionHistoryLimit')),
    );
    if (deployment?.image?.pullPolicy !== undefined) {
      errors.push(
        ...validateStringEnum(deployment.image.pullPolicy, p.child('deployment', 'image', 'pullPolicy'), [
          'Always',
          'Never',
          'IfNotPresent',
        ]),
      );
    }
    const config = gardenlet.config as { apiVersion?: string; kind?: string } | undefined;
    if (
      config !== undefined &&
      (config.apiVersion !== 'gardenlet.config.gardener.cloud/v1alpha1' || config.kind !== 'GardenletConfiguration')
    ) {
      errors.push(
        invalid(
          p.child('config'),
          `${config.apiVersion}/${config.kind}`,
          'must be a gardenlet.config.gardener.cloud/v1alpha1 GardenletConfiguration',
        ),
      );
    }
  }
  if (old) {
    errors.push(...validateObjectMetaUpdate(managedSeed.metadata, old.metadata));
    if (old.spec.shoot?.name !== undefined && s.shoot?.name !== old.spec.shoot.name)
      errors.push(immutable(spec.child('shoot', 'name'), s.shoot?.name));
    if (old.spec.gardenlet?.bootstrap !== undefined && s.gardenlet?.bootstrap !== old.spec.gardenlet.bootstrap) {
      errors.push(immutable(spec.child('gardenlet', 'bootstrap'), s.gardenlet?.bootstrap));
    }
  }
  return errors;
}
