// The Kubernetes versions of a Shoot's worker pools, as Gardener checks them: against the CloudProfile in the
// ShootValidator (plugin/pkg/shoot/validator: a pool's `kubernetes.version` must be offered by the profile, and the
// kubelet version of a pool must satisfy its machine image version's `kubeletVersionConstraint`). The skew against the
// control plane is libs/api's Shoot validation (validateWorkerVersionSkew).
import {
  FieldPath,
  invalid,
  notSupported,
  satisfiesKubeletVersionConstraint,
  type corev1beta1,
  type FieldError,
  type Shoot,
} from '@gardener-ts/api';

// The kubelet constraint check lives in libs/api (the shoot maintenance filters machine images with it).
export { kubeletVersionRange, satisfiesKubeletVersionConstraint } from '@gardener-ts/api';

type ExpirableVersion = corev1beta1.ExpirableVersion;
type MachineImages = corev1beta1.CloudProfileSpec['machineImages'];
type Worker = NonNullable<Shoot['spec']['provider']['workers']>[number];

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
