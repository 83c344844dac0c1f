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

  // spec.seedName is not checked here, as in Gardener: the ShootValidator admission plugin refuses its removal and
  // decides a change of seed (the shoots/binding subresource: who may bind, what else may change, both seeds' backup).

  errors.push(
    ...validateKubernetesVersionUpdate(
      s.kubernetes.version,
      o.kubernetes.version,
      false,
      spec.child('kubernetes', 'version'),
    ),
  );
  // Worker pools' own versions (else the control plane's) must not go down either; rolling pools may skip minor
  // versions, in-place pools may not. A new pool is compared with itself (Gardener's ValidateShootSpecUpdate).
  (s.provider.workers ?? []).forEach((worker, i) => {
    const previous = (o.provider.workers ?? []).find((w) => w.name === worker.name) ?? worker;
    errors.push(
      ...validateKubernetesVersionUpdate(
        worker.kubernetes?.version ?? s.kubernetes.version,
        previous.kubernetes?.version ?? o.kubernetes.version,
        inPlace(worker.updateStrategy) !== 'in-place',
        spec.child('provider', 'workers').index(i).child('kubernetes', 'version'),
      ),
    );
  });

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

/** Gardener's ValidateKubernetesVersionUpdate: no downgrade, and no skipped minor version unless allowed. */
function validateKubernetesVersionUpdate(
  newVersion: string | undefined,
  oldVersion: string | undefined,
  skipMinorVersionAllowed: boolean,
  path: FieldPath,
): FieldError[] {
  const version = parseVersion(newVersion ?? '');
  const old = parseVersion(oldVersion ?? '');
  if (!version || !old) return [];
  if (compareVersions(version, old) < 0) return [forbidden(path, 'kubernetes version downgrade is not supported')];
  if (!skipMinorVersionAllowed && version.major === old.major && version.minor > old.minor + 1)
    return [forbidden(path, 'kubernetes version upgrade cannot skip a minor version')];
  return [];
}
