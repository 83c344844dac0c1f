// The rules Gardener's Shoot validation applies to credentials rotation operations (pkg/apis/core/validation/shoot.go:
// `validateShootOperation` and `validateShootOperationContext`): which `rotate-*` operation may be requested in which
// rotation phase, not while the shoot is (being) hibernated, not while an encryption configuration change rolls out,
// not while worker pools wait for in-place updates; and the pool list of `rotate-rollout-workers=`. Pure: a Shoot and
// the operation in, field errors out. The gardenlet's rotation bookkeeping re-exports these.
import type { Shoot } from '../../core/v1beta1/shoot.js';
import { Annotations, Operations } from '../../constants/index.js';
import { type FieldError, FieldPath, duplicate, forbidden, invalid, required } from '../field.js';

type ShootRotationStatus = NonNullable<NonNullable<NonNullable<Shoot['status']>['credentials']>['rotation']>;
/** The phase of a two-phase rotation (`Preparing`, `PreparingWithoutWorkersRollout`, …, `Completed`). */
export type ShootRotationPhase = NonNullable<ShootRotationStatus['certificateAuthorities']>['phase'];
/** The credentials rotated in phases. */
export type PhasedCredentialKind = 'certificateAuthorities' | 'serviceAccountKey' | 'etcdEncryptionKey';

/** The operation annotation values that touch `status.credentials.rotation` (the rollout prefix aside). */
export const RotationOperations: readonly string[] = [
  Operations.OperationRotateCredentialsStart,
  Operations.OperationRotateCredentialsStartWithoutWorkersRollout,
  Operations.OperationRotateCredentialsComplete,
  Operations.OperationRotateCAStart,
  Operations.OperationRotateCAStartWithoutWorkersRollout,
  Operations.OperationRotateCAComplete,
  Operations.OperationRotateServiceAccountKeyStart,
  Operations.OperationRotateServiceAccountKeyStartWithoutWorkersRollout,
  Operations.OperationRotateServiceAccountKeyComplete,
  Operations.OperationRotateETCDEncryptionKey,
  Operations.OperationRotateETCDEncryptionKeyStart,
  Operations.OperationRotateETCDEncryptionKeyComplete,
  Operations.OperationRotateObservabilityCredentials,
  Operations.OperationRotateSSHKeypair,
];

/** Gardener's `forbiddenShootOperationsWhenHibernated` (plus the single-operation ETCD encryption key rotation). */
const forbiddenWhenHibernated: ReadonlySet<string> = new Set([
  Operations.OperationRotateCredentialsStart,
  Operations.OperationRotateCredentialsStartWithoutWorkersRollout,
  Operations.OperationRotateCredentialsComplete,
  Operations.OperationRotateETCDEncryptionKey,
  Operations.OperationRotateETCDEncryptionKeyStart,
  Operations.OperationRotateETCDEncryptionKeyComplete,
  Operations.OperationRotateServiceAccountKeyStart,
  Operations.OperationRotateServiceAccountKeyStartWithoutWorkersRollout,
  Operations.OperationRotateServiceAccountKeyComplete,
]);

/** Gardener's `forbiddenShootOperationsWhenEncryptionChangeIsRollingOut` (plus the single-operation rotation). */
const forbiddenWhileEncryptionChangeRollsOut: ReadonlySet<string> = new Set([
  Operations.OperationRotateCredentialsStart,
  Operations.OperationRotateETCDEncryptionKey,
  Operations.OperationRotateETCDEncryptionKeyStart,
]);

/** True for `rotate-rollout-workers=<pool>[,<pool>]`. */
export function isRolloutWorkersOperation(operation: string | undefined): operation is string {
  return operation?.startsWith(Operations.OperationRotateRolloutWorkersPrefix) === true;
}

/** The worker pools named by a `rotate-rollout-workers=` operation (empty for any other operation). */
export function rolloutWorkersPools(operation: string | undefined): string[] {
  if (!isRolloutWorkersOperation(operation)) return [];
  return operation.slice(Operations.OperationRotateRolloutWorkersPrefix.length).split(',');
}

/** The phase of a phased rotation, undefined when it never ran (Gardener's `GetShoot…RotationPhase`). */
export function rotationPhase(shoot: Shoot, kind: PhasedCredentialKind): ShootRotationPhase | undefined {
  return shoot.status?.credentials?.rotation?.[kind]?.phase;
}

/** Gardener's `IsShootInHibernation`: hibernation is enabled, or the shoot is still hibernated (waking up). */
export function shootInHibernation(shoot: Shoot): boolean {
  return shoot.spec?.hibernation?.enabled === true || shoot.status?.hibernated === true;
}

/** Gardener's `isShootReadyForRotationStart`: created or restored successfully, or reconciled since. */
export function shootReadyForRotationStart(shoot: Shoot): boolean {
  const last = shoot.status?.lastOperation;
  if (last === undefined) return false;
  if ((last.type === 'Create' || last.type === 'Restore') && last.state === 'Succeeded') return true;
  return last.type === 'Reconcile';
}

/** True while `spec.kubernetes.kubeAPIServer.encryptionConfig.resources` differ from `status.encryptedResources`. */
function encryptionChangeRollingOut(shoot: Shoot): boolean {
  const wanted = [...new Set(shoot.spec?.kubernetes?.kubeAPIServer?.encryptionConfig?.resources ?? [])].sort();
  const encrypted = shoot.status?.encryptedResources ?? [];
  return wanted.length !== encrypted.length || wanted.some((r, i) => r !== encrypted[i]);
}

/** Gardener's `validatePendingWorkerUpdates`: no start while worker pools wait for in-place updates. */
function pendingWorkerUpdates(shoot: Shoot, path: FieldPath, what: string): FieldError[] {
  const pending = shoot.status?.inPlaceUpdates?.pendingWorkerUpdates;
  const errors: FieldError[] = [];
  for (const kind of ['autoInPlaceUpdate', 'manualInPlaceUpdate'] as const) {
    if ((pending?.[kind]?.length ?? 0) > 0) {
      errors.push(
        forbidden(path, `cannot start ${what} if status.inPlaceUpdates.pendingWorkerUpdates.${kind} is not empty`),
      );
    }
  }
  return errors;
}

/** How a rotation start or completion names its credentials in Gardener's messages. */
interface Target {
  what: string;
  kinds: PhasedCredentialKind[];
  /** Whether pending in-place worker updates forbid the start. */
  pendingUpdates: boolean;
}

const all: PhasedCredentialKind[] = ['certificateAuthorities', 'serviceAccountKey', 'etcdEncryptionKey'];
const allCredentials: Target = { what: 'rotation of all credentials', kinds: all, pendingUpdates: true };
const ca: Target = { what: 'CA rotation', kinds: ['certificateAuthorities'], pendingUpdates: true };
const serviceAccountKey: Target = {
  what: 'service account key rotation',
  kinds: ['serviceAccountKey'],
  pendingUpdates: true,
};
const etcdEncryptionKey: Target = {
  what: 'ETCD encryption key rotation',
  kinds: ['etcdEncryptionKey'],
  pendingUpdates: false,
};

const O = Operations;
const starts: Record<string, Target> = {
  [O.OperationRotateCredentialsStart]: allCredentials,
  [O.OperationRotateCredentialsStartWithoutWorkersRollout]: allCredentials,
  [O.OperationRotateCAStart]: ca,
  [O.OperationRotateCAStartWithoutWorkersRollout]: ca,
  [O.OperationRotateServiceAccountKeyStart]: serviceAccountKey,
  [O.OperationRotateServiceAccountKeyStartWithoutWorkersRollout]: serviceAccountKey,
  [O.OperationRotateETCDEncryptionKeyStart]: etcdEncryptionKey,
  [O.OperationRotateETCDEncryptionKey]: etcdEncryptionKey,
};
const completions: Record<string, Target> = {
  [O.OperationRotateCredentialsComplete]: allCredentials,
  [O.OperationRotateCAComplete]: ca,
  [O.OperationRotateServiceAccountKeyComplete]: serviceAccountKey,
  [O.OperationRotateETCDEncryptionKeyComplete]: etcdEncryptionKey,
};

/** Gardener's `validateShootOperationContext`: what the operation needs of the rotation status and the workers. */
function operationContext(shoot: Shoot, operation: string, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const start = starts[operation];
  if (start) {
    if (!shootReadyForRotationStart(shoot)) {
      errors.push(
        forbidden(
          path,
          `cannot start ${start.what} if shoot was not yet created successfully or is not ready for reconciliation`,
        ),
      );
    }
    for (const kind of start.kinds) {
      const phase = rotationPhase(shoot, kind);
      if (phase !== undefined && phase !== 'Completed') {
        errors.push(
          forbidden(
            path,
            `cannot start ${start.what} if .status.credentials.rotation.${kind}.phase is not 'Completed'`,
          ),
        );
      }
    }
    if (start.pendingUpdates) errors.push(...pendingWorkerUpdates(shoot, path, start.what));
  }
  const completion = completions[operation];
  if (completion) {
    for (const kind of completion.kinds) {
      if (rotationPhase(shoot, kind) !== 'Prepared') {
        errors.push(
          forbidden(
            path,
            `cannot complete ${completion.what} if .status.credentials.rotation.${kind}.phase is not 'Prepared'`,
          ),
        );
      }
    }
  }
  if (isRolloutWorkersOperation(operation)) {
    if (
      rotationPhase(shoot, 'certificateAuthorities') !== 'WaitingForWorkersRollout' &&
      rotationPhase(shoot, 'serviceAccountKey') !== 'WaitingForWorkersRollout'
    ) {
      errors.push(
        forbidden(
          path,
          'either .status.credentials.rotation.certificateAuthorities.phase or ' +
            ".status.credentials.rotation.serviceAccountKey.phase must be in 'WaitingForWorkersRollout' in order to " +
            'trigger workers rollout',
        ),
      );
    }
    const pools = rolloutWorkersPools(operation);
    if (pools.includes('')) {
      errors.push(
        required(
          path,
          `must provide at least one pool name via ${O.OperationRotateRolloutWorkersPrefix}<poolName1>[,<poolName2>,...]`,
        ),
      );
    }
    const workers = new Set((shoot.spec?.provider?.workers ?? []).map((w) => w.name));
    const seen = new Set<string>();
    for (const pool of pools) {
      if (seen.has(pool)) errors.push(duplicate(path, `pool name ${pool} was specified multiple times`));
      seen.add(pool);
      if (!workers.has(pool)) {
        errors.push(invalid(path, pool, `worker pool name ${pool} does not exist in .spec.provider.workers[]`));
      }
    }
  }
  return errors;
}

/**
 * The errors of the `gardener.cloud/operation` annotation's rotation rules on a Shoot (empty when the operation may be
 * requested now, and for operations that are no rotation): rotations of the control plane's credentials are forbidden
 * while the shoot is hibernated or waking up, a start of the ETCD encryption key rotation while an encryption
 * configuration change rolls out; a start needs a shoot that was created successfully, a rotation that never ran or
 * is Completed and (CA and service account key) no pending in-place worker updates; a completion needs the rotation
 * Prepared; `rotate-rollout-workers=` needs a rotation waiting for workers rollout and existing, distinct pools.
 * `path` is the annotation's field path (default `metadata.annotations[gardener.cloud/operation]`).
 */
export function validateShootRotationOperation(
  shoot: Shoot,
  operation: string | undefined,
  path: FieldPath = FieldPath.root('metadata', 'annotations').key(Annotations.GardenerOperation),
): FieldError[] {
  if (operation === undefined || operation === '') return [];
  const rolloutWorkers = isRolloutWorkersOperation(operation);
  if (!RotationOperations.includes(operation) && !rolloutWorkers) return [];
  const errors: FieldError[] = [];
  if (shootInHibernation(shoot) && (forbiddenWhenHibernated.has(operation) || rolloutWorkers)) {
    errors.push(forbidden(path, 'operation is not permitted when shoot is hibernated or is waking up'));
  }
  if (forbiddenWhileEncryptionChangeRollsOut.has(operation) && encryptionChangeRollingOut(shoot)) {
    errors.push(
      forbidden(
        path,
        'operation is not permitted because a previous encryption configuration change is currently being rolled out',
      ),
    );
  }
  errors.push(...operationContext(shoot, operation, path));
  return errors;
}

/**
 * Why `operation` may not be requested on the Shoot now, as the details of {@link validateShootRotationOperation}'s
 * errors (empty when it may).
 */
export function rotationOperationErrors(shoot: Shoot, operation: string | undefined): string[] {
  return validateShootRotationOperation(shoot, operation).map((e) => e.detail ?? String(e.badValue));
}
