// The Kubernetes versions of a Shoot's worker pools, as Gardener checks them: against the CloudProfile in the
// ShootValidator (plugin/pkg/shoot/validator: a pool's `kubernetes.version` must be offered by the profile, and the
// kubelet version of a pool must satisfy its machine image version's `kubeletVersionConstraint`) and against the
// control plane in the Shoot's strategy validation (pkg/apis/core/validation: not newer than the control plane, at most
// two — from Kubernetes 1.28 on three — minor versions behind it).
import semver from 'semver';
import {
  FieldPath,
  forbidden,
  invalid,
  notSupported,
  type corev1beta1,
  type FieldError,
  type Shoot,
} from '@gardener-ts/api';

type ExpirableVersion = corev1beta1.ExpirableVersion;
type MachineImages = corev1beta1.CloudProfileSpec['machineImages'];
type Worker = NonNullable<Shoot['spec']['provider']['workers']>[number];

/**
 * A Masterminds/semver constraint (Gardener's syntax: `>= 1.26, < 1.30`, `~> 1.27`, `=> 1.26`, `||` alternatives)
 * as an npm semver range; `undefined` when it is not one.
 */
export function kubeletVersionRange(constraint: string): string | undefined {
  const range = constraint.replace(/,/g, ' ').replace(/=>/g, '>=').replace(/=</g, '<=').replace(/~>/g, '~');
  return semver.validRange(range) ?? undefined;
}

/**
 * Whether `version` satisfies the machine image version's `kubeletVersionConstraint`; `undefined` when the version
 * or the constraint cannot be parsed (the validations of the Shoot and the CloudProfile report those).
 */
export function satisfiesKubeletVersionConstraint(version: string, constraint: string): boolean | undefined {
  const range = kubeletVersionRange(constraint);
  const parsed = semver.parse(version, { loose: true });
  if (range === undefined || !parsed) return undefined;
  return semver.satisfies(parsed, range);
}

/** The kubelet version of a worker pool: its own `kubernetes.version`, else the control plane's. */
export const kubeletVersionOf = (shoot: Shoot, worker: Worker): string | undefined =>
  worker.kubernetes?.version ?? shoot.spec.kubernetes.version;

/**
 * The pool's machine image version must accept the pool's kubelet version (`kubeletVersionConstraint` of the
 * profile's image version), checked on every change of the Shoot as in Gardener, so a control plane upgrade beyond
 * what a pool's image supports is refused too.
 */
export function validateKubeletVersionConstraint(
  shoot: Shoot,
  worker: Worker,
  machineImages: MachineImages,
  path: FieldPath,
): FieldError[] {
  const image = worker.machine.image;
  if (!image?.name || !image.version) return [];
  const constraint = machineImages
    .find((m) => m.name === image.name)
    ?.versions.find((v) => v.version === image.version)?.kubeletVersionConstraint;
  const kubeletVersion = kubeletVersionOf(shoot, worker);
  if (!constraint || !kubeletVersion) return [];
  if (satisfiesKubeletVersionConstraint(kubeletVersion, constraint) !== false) return [];
  return [
    invalid(
      path.child('machine', 'image'),
      image,
      `machine image '${image.name}@${image.version}' does not support kubelet version '${kubeletVersion}', supported kubelet versions by this machine image version: '${constraint}'`,
    ),
  ];
}

const isExpired = (v: ExpirableVersion, now: Date) =>
  v.expirationDate !== undefined && new Date(v.expirationDate) <= now;

/**
 * A worker pool's own `kubernetes.version` must be one of the profile's versions when it changes (against the pool's
 * previous version, else the Shoot's previous one). Expired versions are refused for new Shoots and new pools only: an
 * existing pool may move to an expired version (maintenance force-updates do). The supported values list preview
 * versions with a ` (preview)` suffix, as Gardener's message does.
 */
export function validateWorkerKubernetesVersion(
  worker: Worker,
  oldWorker: Worker | undefined,
  old: Shoot | undefined,
  versions: readonly ExpirableVersion[] | undefined,
  path: FieldPath,
  now = new Date(),
): FieldError[] {
  const version = worker.kubernetes?.version;
  if (!version) return [];
  const oldVersion = oldWorker?.kubernetes?.version ?? old?.spec.kubernetes.version;
  if (version === oldVersion) return [];
  const newPool = old === undefined || oldWorker === undefined;
  const valid: string[] = [];
  for (const v of versions ?? []) {
    if (newPool && isExpired(v, now)) continue;
    if (v.version === version) return [];
    valid.push(v.classification === 'preview' ? `${v.version} (preview)` : v.version);
  }
  return [notSupported(path.child('kubernetes', 'version'), version, valid)];
}

/**
 * Gardener's strategy validation of worker pool versions against the control plane: a pool's `kubernetes.version`
 * must not be newer than `spec.kubernetes.version` and at most two minor versions behind it (three from control plane
 * 1.28 on, the Kubernetes version skew policy).
 */
export function validateWorkerVersionSkew(shoot: Shoot): FieldError[] {
  const controlPlane = semver.parse(shoot.spec.kubernetes?.version ?? '', { loose: true });
  if (!controlPlane) return [];
  const errors: FieldError[] = [];
  const workers = shoot.spec.provider?.workers;
  (Array.isArray(workers) ? workers : []).forEach((worker, i) => {
    const version = worker?.kubernetes?.version;
    if (!version) return;
    const path = FieldPath.root('spec', 'provider', 'workers').index(i).child('kubernetes', 'version');
    const pool = semver.parse(version, { loose: true });
    if (!pool) return; // a `major.minor` version is defaulted by ShootMutator; anything else the schema reports
    if (semver.gt(pool, controlPlane))
      errors.push(forbidden(path, 'worker group kubernetes version must not be higher than control plane version'));
    const maxSkew = semver.gte(controlPlane, '1.28.0') ? 3 : 2;
    const firstViolating = `${pool.major}.${pool.minor + maxSkew + 1}.0`;
    if (semver.gte(controlPlane, firstViolating))
      errors.push(
        forbidden(
          path,
          `worker group kubernetes version must be at most ${maxSkew === 3 ? 'three' : 'two'} minor versions behind control plane version`,
        ),
      );
  });
  return errors;
}
