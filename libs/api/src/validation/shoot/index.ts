// validateShoot: the rules Gardener's API server applies to Shoots, with Gardener's field paths and messages.
import type { Shoot } from '../../core/v1beta1/shoot.js';
import { type FieldError, FieldPath, forbidden, invalid, notSupported, required } from '../field.js';
import {
  validateExtensions,
  validateNamedResources,
  validateStringEnum,
  validateTolerations,
  validateUnique,
} from '../common.js';
import {
  dns1123SubdomainErrors,
  validateDNS1123Label,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from '../names.js';
import { validateKubernetes } from './kubernetes.js';
import { validateNetworking } from './networking.js';
import { validateShootOperations } from './operation.js';
import { validateHibernationSchedules, validateMaintenanceTimeWindow } from './schedule.js';
import { validateShootUpdate } from './update.js';
import { validateWorkers, validateWorkerVersionSkew } from './workers.js';

const spec = FieldPath.root('spec');
const purposes = ['evaluation', 'testing', 'development', 'production', 'infrastructure'];

/** Validates a Shoot; with `old`, also the rules of an update. Returns no errors for a valid object. */
export function validateShoot(shoot: Shoot, old?: Shoot): FieldError[] {
  const errors: FieldError[] = [];
  errors.push(...validateObjectMeta(shoot.metadata, { namespaced: true, name: validateShootName }));
  // On update the API server has put the stored status back before validating (the strategy's PrepareForUpdate).
  errors.push(...validateShootOperations(old ? { ...shoot, status: old.status } : shoot));
  if (!shoot.spec) return [...errors, required(spec)];
  errors.push(...validateShootSpec(shoot));
  if (old) {
    errors.push(...validateObjectMetaUpdate(shoot.metadata, old.metadata));
    errors.push(...validateShootUpdate(shoot, old));
  }
  return errors;
}

function validateShootName(name: string, path: FieldPath): FieldError[] {
  const errors = validateDNS1123Label(name, path);
  if (name.includes('--')) errors.push(invalid(path, name, 'name may not contain two consecutive hyphens'));
  return errors;
}

function validateShootSpec(shoot: Shoot): FieldError[] {
  const s = shoot.spec;
  const errors: FieldError[] = [];
  const workers = s.provider?.workers ?? [];
  const workerless = workers.length === 0;

  if (!s.cloudProfileName && !s.cloudProfile?.name) {
    errors.push(required(spec.child('cloudProfile', 'name'), 'must specify a cloud profile'));
  }
  if (s.cloudProfile?.kind !== undefined) {
    errors.push(
      ...validateStringEnum(s.cloudProfile.kind, spec.child('cloudProfile', 'kind'), [
        'CloudProfile',
        'NamespacedCloudProfile',
      ]),
    );
  }
  if (
    s.cloudProfileName &&
    s.cloudProfile?.name &&
    s.cloudProfile.kind !== 'NamespacedCloudProfile' &&
    s.cloudProfile.name !== s.cloudProfileName
  ) {
    errors.push(invalid(spec.child('cloudProfile', 'name'), s.cloudProfile.name, 'must match spec.cloudProfileName'));
  }
  if (!s.region) errors.push(required(spec.child('region'), 'must specify a region'));
  if (!s.provider?.type) errors.push(required(spec.child('provider', 'type'), 'must specify a provider type'));

  if (s.secretBindingName !== undefined && s.credentialsBindingName !== undefined) {
    errors.push(forbidden(spec.child('secretBindingName'), 'is incompatible with credentialsBindingName'));
  }
  if (workerless) {
    for (const name of ['secretBindingName', 'credentialsBindingName'] as const) {
      if (s[name] !== undefined) errors.push(forbidden(spec.child(name), 'is incompatible with workerless Shoot'));
    }
    if (s.addons)
      errors.push(forbidden(spec.child('addons'), 'addons cannot be enabled for workerless Shoot clusters'));
    if (s.systemComponents)
      errors.push(
        forbidden(spec.child('systemComponents'), 'this field is not supported for workerless Shoot clusters'),
      );
    // Provider settings that only make sense with workers (Gardener's validateProvider).
    for (const name of ['infrastructureConfig', 'controlPlaneConfig', 'workersSettings'] as const)
      if (s.provider?.[name] !== undefined && s.provider[name] !== null)
        errors.push(
          forbidden(spec.child('provider', name), 'this field should not be set for workerless Shoot clusters'),
        );
  } else if (!s.secretBindingName && !s.credentialsBindingName) {
    errors.push(required(spec.child('credentialsBindingName'), 'must be set when the Shoot has workers'));
  }

  if (s.purpose !== undefined) {
    errors.push(...validateStringEnum(s.purpose, spec.child('purpose'), purposes));
    if (s.purpose === 'infrastructure' && shoot.metadata?.namespace !== 'garden') {
      errors.push(
        notSupported(
          spec.child('purpose'),
          s.purpose,
          purposes.filter((p) => p !== 'infrastructure'),
        ),
      );
    }
  }

  const addons = s.addons;
  if (addons?.nginxIngress?.externalTrafficPolicy !== undefined) {
    errors.push(
      ...validateStringEnum(
        addons.nginxIngress.externalTrafficPolicy,
        spec.child('addons', 'nginxIngress', 'externalTrafficPolicy'),
        ['Cluster', 'Local'],
      ),
    );
  }
  if (addons?.kubernetesDashboard?.authenticationMode !== undefined) {
    errors.push(
      ...validateStringEnum(
        addons.kubernetesDashboard.authenticationMode,
        spec.child('addons', 'kubernetesDashboard', 'authenticationMode'),
        ['token'],
      ),
    );
  }

  if (s.dns?.domain !== undefined) {
    errors.push(
      ...dns1123SubdomainErrors(s.dns.domain).map((msg) => invalid(spec.child('dns', 'domain'), s.dns?.domain, msg)),
    );
  }
  const primaries = (s.dns?.providers ?? []).filter((p) => p.primary);
  if (primaries.length > 1)
    errors.push(forbidden(spec.child('dns', 'providers'), 'multiple primary DNS providers are not supported'));

  errors.push(...validateExtensions(s.extensions, spec.child('extensions')));
  errors.push(...validateNamedResources(s.resources, spec.child('resources')));
  errors.push(...validateTolerations(s.tolerations, spec.child('tolerations')));
  errors.push(...validateUnique(s.accessRestrictions, spec.child('accessRestrictions'), (a) => a.name, 'name'));
  errors.push(...validateHibernationSchedules(s.hibernation?.schedules, spec.child('hibernation', 'schedules')));
  if (s.maintenance?.timeWindow)
    errors.push(...validateMaintenanceTimeWindow(s.maintenance.timeWindow, spec.child('maintenance', 'timeWindow')));

  if (s.kubernetes) errors.push(...validateKubernetes(s.kubernetes, workerless));
  else errors.push(required(spec.child('kubernetes')));
  errors.push(...validateNetworking(s.networking, workerless));
  errors.push(...validateWorkers(workers, spec.child('provider', 'workers')));
  errors.push(...validateWorkerVersionSkew(workers, s.kubernetes?.version, spec.child('provider', 'workers')));

  if (s.controlPlane?.highAvailability) {
    errors.push(
      ...validateStringEnum(
        s.controlPlane.highAvailability.failureTolerance?.type,
        spec.child('controlPlane', 'highAvailability', 'failureTolerance', 'type'),
        ['node', 'zone'],
      ),
    );
  }
  if (s.systemComponents?.coreDNS?.autoscaling) {
    errors.push(
      ...validateStringEnum(
        s.systemComponents.coreDNS.autoscaling.mode,
        spec.child('systemComponents', 'coreDNS', 'autoscaling', 'mode'),
        ['horizontal', 'cluster-proportional'],
      ),
    );
  }
  return errors;
}
