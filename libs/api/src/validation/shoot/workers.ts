// spec.provider.workers of a Shoot: pool names, sizes, rolling update parameters, machine, volumes, taints.
import type { Worker } from '../../core/v1beta1/shoot.js';
import {
  type FieldError,
  FieldPath,
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  tooLong,
} from '../field.js';
import { validateNonNegative, validateQuantity, validateStringEnum, validateUnique } from '../common.js';
import { dns1123LabelErrors, qualifiedNameErrors, validateAnnotations, validateLabels } from '../names.js';
import { compareVersions, parseVersion } from '../formats.js';
import { validateKubeletConfig } from './kubelet.js';

const maxWorkerNameLength = 15;
const inPlaceStrategies = ['AutoInPlaceUpdate', 'ManualInPlaceUpdate'];

/** An int-or-string rolling update value: non-negative integer or percentage. Returns the numeric value (or percent). */
function validateIntOrPercent(
  value: number | string | undefined,
  path: FieldPath,
  errors: FieldError[],
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) errors.push(invalid(path, value, 'must be greater than or equal to 0'));
    return value;
  }
  const match = /^(\d+)%$/.exec(value);
  if (!match) {
    errors.push(
      invalid(
        path,
        value,
        "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%')",
      ),
    );
    return undefined;
  }
  const percent = Number(match[1]);
  if (percent > 100) errors.push(invalid(path, value, 'must not be greater than 100%'));
  return percent;
}

export function validateWorker(worker: Worker, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (!worker.name) errors.push(required(path.child('name'), 'field must not be empty'));
  else {
    errors.push(...dns1123LabelErrors(worker.name).map((msg) => invalid(path.child('name'), worker.name, msg)));
    if (worker.name.length > maxWorkerNameLength)
      errors.push(tooLong(path.child('name'), worker.name, maxWorkerNameLength));
  }

  if (!worker.machine?.type) errors.push(required(path.child('machine', 'type'), 'must specify a machine type'));
  if (worker.machine?.image && !worker.machine.image.name) {
    errors.push(required(path.child('machine', 'image', 'name'), 'must specify a machine image name'));
  }
  if (worker.machine?.architecture !== undefined) {
    errors.push(
      ...validateStringEnum(worker.machine.architecture, path.child('machine', 'architecture'), ['amd64', 'arm64']),
    );
  }

  errors.push(...validateNonNegative(worker.minimum, path.child('minimum')));
  errors.push(...validateNonNegative(worker.maximum, path.child('maximum')));
  if (worker.maximum < worker.minimum) {
    errors.push(forbidden(path.child('maximum'), 'maximum value must not be less than minimum value'));
  }
  const zones = worker.zones ?? [];
  if (worker.maximum > 0 && zones.length > 0 && worker.maximum < zones.length) {
    errors.push(forbidden(path.child('maximum'), 'maximum value must be >= number of zones when maximum value > 0'));
  }
  errors.push(...validateUnique(zones, path.child('zones'), (z) => z));

  const surge = validateIntOrPercent(worker.maxSurge, path.child('maxSurge'), errors);
  const unavailable = validateIntOrPercent(worker.maxUnavailable, path.child('maxUnavailable'), errors);
  if (surge === 0 && unavailable === 0) {
    errors.push(invalid(path.child('maxUnavailable'), worker.maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  if (worker.updateStrategy !== undefined) {
    errors.push(
      ...validateStringEnum(worker.updateStrategy, path.child('updateStrategy'), [
        'AutoRollingUpdate',
        ...inPlaceStrategies,
      ]),
    );
    if (inPlaceStrategies.includes(worker.updateStrategy) && surge !== undefined && surge > 0) {
      errors.push(forbidden(path.child('maxSurge'), 'maxSurge must be 0 for in-place updates'));
    }
  }

  if (worker.cri) errors.push(...validateStringEnum(worker.cri.name, path.child('cri', 'name'), ['containerd']));
  errors.push(
    ...validateUnique(worker.cri?.containerRuntimes, path.child('cri', 'containerRuntimes'), (c) => c.type, 'type'),
  );

  if (worker.volume) {
    if (!worker.volume.size) errors.push(required(path.child('volume', 'size'), 'must specify the volume size'));
    else errors.push(...validateQuantity(worker.volume.size, path.child('volume', 'size'), { positive: true }));
  }
  const dataVolumes = worker.dataVolumes ?? [];
  dataVolumes.forEach((volume, i) => {
    const p = path.child('dataVolumes').index(i);
    if (!volume.name) errors.push(required(p.child('name'), 'must specify a name'));
    else errors.push(...dns1123LabelErrors(volume.name).map((msg) => invalid(p.child('name'), volume.name, msg)));
    if (!volume.size) errors.push(required(p.child('size'), 'must specify the volume size'));
    else errors.push(...validateQuantity(volume.size, p.child('size'), { positive: true }));
  });
  errors.push(...validateUnique(dataVolumes, path.child('dataVolumes'), (v) => v.name, 'name'));
  if (worker.kubeletDataVolumeName !== undefined && !dataVolumes.some((v) => v.name === worker.kubeletDataVolumeName)) {
    errors.push(
      invalid(
        path.child('kubeletDataVolumeName'),
        worker.kubeletDataVolumeName,
        'KubeletDataVolumeName refers to unrecognized data volume',
      ),
    );
  }

  errors.push(...validateLabels(worker.labels, path.child('labels')));
  errors.push(...validateAnnotations(worker.annotations, path.child('annotations')));
  errors.push(...validateTaints(worker.taints, path.child('taints')));
  if (worker.kubernetes?.kubelet)
    errors.push(...validateKubeletConfig(worker.kubernetes.kubelet, path.child('kubernetes', 'kubelet')));
  if (worker.priority !== undefined) errors.push(...validateNonNegative(worker.priority, path.child('priority')));
  return errors;
}

function validateTaints(taints: Worker['taints'], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((taint, i) => {
    const p = path.index(i);
    if (!taint.key) errors.push(required(p.child('key')));
    else errors.push(...qualifiedNameErrors(taint.key).map((msg) => invalid(p.child('key'), taint.key, msg)));
    const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
    if (!taint.effect) errors.push(required(p.child('effect')));
    else if (!effects.includes(taint.effect)) errors.push(notSupported(p.child('effect'), taint.effect, effects));
    const id = `${taint.key}:${taint.effect}`;
    if (seen.has(id)) errors.push(duplicate(p, { key: taint.key, effect: taint.effect }));
    seen.add(id);
  });
  return errors;
}

/** Rules across pools: unique names, and somewhere to run system components. */
export function validateWorkers(workers: readonly Worker[], path: FieldPath): FieldError[] {
  const errors = workers.flatMap((worker, i) => validateWorker(worker, path.index(i)));
  errors.push(...validateUnique(workers, path, (w) => w.name, 'name'));
  const hostsSystemComponents = workers.some((w) => w.maximum > 0 && (w.systemComponents?.allow ?? true));
  if (workers.length > 0 && !hostsSystemComponents) {
    errors.push(
      forbidden(
        path,
        'at least one active (workers[i].maximum > 0) worker pool with systemComponents.allow=true needed',
      ),
    );
  }
  return errors;
}

/** A complete `major.minor.patch` version; a `major.minor` one is completed by admission (ShootMutator) first. */
const fullVersion = (text: string | undefined) =>
  text !== undefined && /^v?\d+\.\d+\.\d+/.test(text) ? parseVersion(text) : undefined;

/**
 * Gardener's worker pool versions against the control plane (validateWorkerGroupAndControlPlaneKubernetesVersion): a
 * pool's `kubernetes.version` must not be newer than `spec.kubernetes.version` and at most two minor versions behind
 * it (three from control plane 1.28 on, the Kubernetes version skew policy).
 */
export function validateWorkerVersionSkew(
  workers: readonly Worker[],
  controlPlaneVersion: string | undefined,
  path: FieldPath,
): FieldError[] {
  const controlPlane = fullVersion(controlPlaneVersion);
  if (!controlPlane) return [];
  const maxSkew = compareVersions(controlPlane, { major: 1, minor: 28, patch: 0 }) >= 0 ? 3 : 2;
  return workers.flatMap((worker, i) => {
    const pool = fullVersion(worker.kubernetes?.version);
    if (!pool) return [];
    const versionPath = path.index(i).child('kubernetes', 'version');
    const errors: FieldError[] = [];
    if (compareVersions(pool, controlPlane) > 0)
      errors.push(
        forbidden(versionPath, 'worker group kubernetes version must not be higher than control plane version'),
      );
    const behind = (controlPlane.major - pool.major) * 1000 + controlPlane.minor - pool.minor;
    if (behind > maxSkew)
      errors.push(
        forbidden(
          versionPath,
          `worker group kubernetes version must be at most ${maxSkew === 3 ? 'three' : 'two'} minor versions behind control plane version`,
        ),
      );
    return errors;
  });
}
