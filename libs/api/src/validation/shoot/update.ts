// Rules that compare a Shoot with its previous version.
import type { Shoot } from '../../core/v1beta1/shoot.js';
import { type FieldError, FieldPath, forbidden, immutable } from '../field.js';
import { compareVersions, parseVersion } from '../formats.js';

const spec = FieldPath.root('spec');

/** Fields that keep their value once set. */
function immutableOnceSet(errors: FieldError[], path: FieldPath, value: unknown, old: unknown): void {
  if (old !== undefined && JSON.stringify(value) !== JSON.stringify(old)) errors.push(immutable(path, value));
}

export function validateShootUpdate(shoot: Shoot, old: Shoot): FieldError[] {
  const errors: FieldError[] = [];
  const s = shoot.spec;
  const o = old.spec;

  if (old.metadata?.deletionTimestamp && JSON.stringify(s) !== JSON.stringify(o)) {
    errors.push(forbidden(spec, 'cannot update shoot spec if deletion timestamp is set. Requested changes: spec'));
    return errors;
  }

  immutableOnceSet(errors, spec.child('region'), s.region, o.region);
  immutableOnceSet(errors, spec.child('provider', 'type'), s.provider.type, o.provider.type);
  immutableOnceSet(errors, spec.child('networking', 'type'), s.networking?.type, o.networking?.type);
  immutableOnceSet(errors, spec.child('networking', 'pods'), s.networking?.pods, o.networking?.pods);
  immutableOnceSet(errors, spec.child('networking', 'services'), s.networking?.services, o.networking?.services);
  immutableOnceSet(errors, spec.child('dns', 'domain'), s.dns?.domain, o.dns?.domain);
  immutableOnceSet(errors, spec.child('exposureClassName'), s.exposureClassName, o.exposureClassName);
  immutableOnceSet(errors, spec.child('schedulerName'), s.schedulerName, o.schedulerName);
  immutableOnceSet(
    errors,
    spec.child('kubernetes', 'kubeControllerManager', 'nodeCIDRMaskSize'),
    s.kubernetes.kubeControllerManager?.nodeCIDRMaskSize,
    o.kubernetes.kubeControllerManager?.nodeCIDRMaskSize,
  );
  immutableOnceSet(
    errors,
    spec.child('secretBindingName'),
    s.secretBindingName,
    o.secretBindingName !== undefined && s.credentialsBindingName === undefined ? o.secretBindingName : undefined,
  );
  immutableOnceSet(errors, spec.child('credentialsBindingName'), s.credentialsBindingName, o.credentialsBindingName);

  // Dual-stack migration IPv4 -> [IPv4, IPv6] is the only change of IP families Gardener allows.
  const oldFamilies = o.networking?.ipFamilies ?? ['IPv4'];
  const families = s.networking?.ipFamilies ?? ['IPv4'];
  const migratesToDualStack = oldFamilies.length === 1 && oldFamilies[0] === 'IPv4' && families.join() === 'IPv4,IPv6';
  if (o.networking && families.join() !== oldFamilies.join() && !migratesToDualStack) {
    errors.push(immutable(spec.child('networking', 'ipFamilies'), s.networking?.ipFamilies));
  }

  // The seed cannot be removed once set; a change of seed is the shoots/binding subresource's (control plane
  // migration), which admission's ShootValidator decides (who may bind, what else may change, both seeds' backup).
  if (o.seedName !== undefined && s.seedName === undefined) {
    errors.push(forbidden(spec.child('seedName'), 'spec.seedName cannot be set to nil'));
  }

  const version = parseVersion(s.kubernetes.version ?? '');
  const oldVersion = parseVersion(o.kubernetes.version ?? '');
  if (version && oldVersion) {
    const path = spec.child('kubernetes', 'version');
    if (compareVersions(version, oldVersion) < 0) {
      errors.push(forbidden(path, 'kubernetes version downgrade is not supported'));
    } else if (version.major === oldVersion.major && version.minor > oldVersion.minor + 1) {
      errors.push(forbidden(path, 'kubernetes version upgrade cannot skip a minor version'));
    }
  }

  // Worker pools cannot change machine architecture or move between workerful and workerless.
  const oldWorkers = new Map((o.provider.workers ?? []).map((w) => [w.name, w]));
  (s.provider.workers ?? []).forEach((worker, i) => {
    const previous = oldWorkers.get(worker.name);
    if (!previous) return;
    const p = spec.child('provider', 'workers').index(i);
    immutableOnceSet(
      errors,
      p.child('machine', 'architecture'),
      worker.machine.architecture,
      previous.machine.architecture,
    );
    immutableOnceSet(
      errors,
      p.child('updateStrategy'),
      inPlace(worker.updateStrategy),
      inPlace(previous.updateStrategy),
    );
  });
  const workerless = (s.provider.workers ?? []).length === 0;
  const wasWorkerless = (o.provider.workers ?? []).length === 0;
  if (workerless !== wasWorkerless) {
    errors.push(
      forbidden(spec.child('provider', 'workers'), 'cannot switch between a Shoot with workers and a workerless Shoot'),
    );
  }
  return errors;
}

/** Switching between rolling and in-place update strategies is not allowed (within the same family it is). */
const inPlace = (strategy: string | undefined) =>
  strategy === undefined ? undefined : strategy === 'AutoRollingUpdate' ? 'rolling' : 'in-place';
