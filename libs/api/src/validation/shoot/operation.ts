// The operation annotations of a Shoot as Gardener's Shoot validation checks them (pkg/apis/core/validation/shoot.go
// `validateShootOperation`): `gardener.cloud/operation` and `maintenance.gardener.cloud/operation` (the operations the
// next maintenance adds to the former), each possibly several operations joined with `;`. Every operation must be one
// the annotation supports, must not be forbidden while the shoot is hibernated or an encryption change rolls out, and
// must fit the rotation status (rotation.ts); the two annotations must differ, and a start (completion) of all
// credentials in one excludes a start (completion) of a single credential in the other. Pure.
import type { Shoot } from '../../core/v1beta1/shoot.js';
import { Annotations, Operations } from '../../constants/index.js';
import { type FieldError, FieldPath, forbidden, notSupported } from '../field.js';
import { isRolloutWorkersOperation, validateShootRotationOperation } from './rotation.js';

/** The separator of several operations in one operation annotation (Gardener's `GardenerOperationsSeparator`). */
export const OperationsSeparator = ';';

/** The operations of an operation annotation's value: split at `;`, trimmed, empty parts dropped. */
export function splitOperations(value: string | undefined): string[] {
  return (value ?? '')
    .split(OperationsSeparator)
    .map((op) => op.trim())
    .filter((op) => op !== '');
}

const O = Operations;

/**
 * The operations `maintenance.gardener.cloud/operation` may hold (Gardener's `availableShootMaintenanceOperations`):
 * `reconcile` and the credentials rotations; not `maintain`, `retry` or `restore`. `rotate-rollout-workers=<pools>` is
 * accepted besides.
 */
export const ShootMaintenanceOperations: readonly string[] = [
  O.OperationReconcile,
  O.OperationRotateCAStart,
  O.OperationRotateCAStartWithoutWorkersRollout,
  O.OperationRotateCAComplete,
  O.OperationRotateObservabilityCredentials,
  O.OperationRotateSSHKeypair,
  O.OperationRotateCredentialsStart,
  O.OperationRotateCredentialsStartWithoutWorkersRollout,
  O.OperationRotateCredentialsComplete,
  O.OperationRotateETCDEncryptionKey,
  O.OperationRotateETCDEncryptionKeyStart,
  O.OperationRotateETCDEncryptionKeyComplete,
  O.OperationRotateServiceAccountKeyStart,
  O.OperationRotateServiceAccountKeyStartWithoutWorkersRollout,
  O.OperationRotateServiceAccountKeyComplete,
];

const allCredentialsStart = new Set([
  O.OperationRotateCredentialsStart,
  O.OperationRotateCredentialsStartWithoutWorkersRollout,
]);
const singleStarts = new Set([
  O.OperationRotateCAStart,
  O.OperationRotateCAStartWithoutWorkersRollout,
  O.OperationRotateServiceAccountKeyStart,
  O.OperationRotateServiceAccountKeyStartWithoutWorkersRollout,
  O.OperationRotateETCDEncryptionKeyStart,
]);
const singleCompletions = new Set([
  O.OperationRotateCAComplete,
  O.OperationRotateServiceAccountKeyComplete,
  O.OperationRotateETCDEncryptionKeyComplete,
]);

/** Whether a rotation of all credentials (`all`) and a rotation of one credential (`single`) exclude each other. */
function conflicting(all: string, single: string): boolean {
  if (allCredentialsStart.has(all)) return singleStarts.has(single);
  if (all === O.OperationRotateCredentialsComplete) return singleCompletions.has(single);
  return false;
}

/** One annotation's operations checked on their own: supported, and allowed in the shoot's state. */
function validateAnnotation(
  shoot: Shoot,
  operations: readonly string[],
  supported: readonly string[],
  path: FieldPath,
  withContext: boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const op of operations) {
    if (!supported.includes(op) && !isRolloutWorkersOperation(op)) errors.push(notSupported(path, op, supported));
    if (!shoot.spec) continue;
    const rotationErrors = validateShootRotationOperation(shoot, op, path);
    // In deletion the maintenance annotation's context (rotation phases, pools) no longer matters, as in Gardener.
    errors.push(...(withContext ? rotationErrors : rotationErrors.filter(isStateError)));
  }
  return errors;
}

// The errors about the shoot's state (hibernation, encryption change) rather than the rotation's context.
function isStateError(e: FieldError): boolean {
  return (
    e.detail === 'operation is not permitted when shoot is hibernated or is waking up' ||
    e.detail ===
      'operation is not permitted because a previous encryption configuration change is currently being rolled out'
  );
}

/**
 * The errors of a Shoot's `gardener.cloud/operation` and `maintenance.gardener.cloud/operation` annotations (empty
 * when both are valid or absent). Each annotation may join several operations with `;`.
 */
export function validateShootOperations(shoot: Shoot): FieldError[] {
  const annotations = shoot.metadata?.annotations ?? {};
  const operation = annotations[Annotations.GardenerOperation] ?? '';
  const maintenanceOperation = annotations[Annotations.MaintenanceOperation] ?? '';
  if (operation === '' && maintenanceOperation === '') return [];
  const base = FieldPath.root('metadata', 'annotations');
  const opPath = base.key(Annotations.GardenerOperation);
  const maintPath = base.key(Annotations.MaintenanceOperation);
  const errors: FieldError[] = [];
  if (operation === maintenanceOperation) {
    errors.push(forbidden(base, `annotations ${opPath.toString()} and ${maintPath.toString()} must not be equal`));
  }
  const ops = splitOperations(operation);
  const maintOps = splitOperations(maintenanceOperation);
  errors.push(...validateAnnotation(shoot, ops, O.ShootAllowedOperations, opPath, true));
  errors.push(
    ...validateAnnotation(shoot, maintOps, ShootMaintenanceOperations, maintPath, !shoot.metadata?.deletionTimestamp),
  );
  for (const op of ops) {
    for (const maintOp of maintOps) {
      if (conflicting(maintOp, op) || conflicting(op, maintOp)) {
        errors.push(forbidden(opPath, `operation '${op}' is not permitted when maintenance operation is '${maintOp}'`));
      }
    }
  }
  return errors;
}
