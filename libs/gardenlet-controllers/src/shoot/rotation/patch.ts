// The Shoot status patches of the credentials rotation around a reconcile flow (Gardener's shoot reconciler: the
// rotation mutations of `updateShootStatusOperationStart`, after which the `gardener.cloud/operation` annotation of a
// rotation is removed, and the phase advances of `patchShootStatusOperationSuccess`). Pure: the Shoot, the operation
// annotation the flow was started with and the time in, a merge patch of `status` out. The patch writes the new
// rotation status exactly: fields the core drops (e.g. `lastInitiationFinishedTime` of a new rotation) become `null`.
import { Annotations, type Shoot } from '@gardener-ts/api';
import {
  PhasedCredentialKinds,
  RotationOperations,
  isRolloutWorkersOperation,
  rotationPhase,
  rotationStatusAtStart,
  rotationStatusAtSuccess,
  splitOperations,
  type ShootCredentialsRotation,
} from './status.js';

/** The `gardener.cloud/operation` annotation of a Shoot (undefined without one). */
export function operationAnnotation(shoot: Shoot): string | undefined {
  return shoot.metadata?.annotations?.[Annotations.GardenerOperation];
}

/**
 * True for the operations the shoot flow consumes at its start: the rotation operations and
 * `rotate-rollout-workers=…`, also among several operations joined with `;` (as the maintenance writes
 * `reconcile;rotate-ssh-keypair`). Their annotation is removed once the start status is written (as Gardener does).
 */
export function isRotationOperation(operation: string | undefined): operation is string {
  return splitOperations(operation).some((op) => RotationOperations.includes(op) || isRolloutWorkersOperation(op));
}

/**
 * True when a rotation is Completing outside a flow: the single-operation ETCD encryption key rotation
 * (`rotate-etcd-encryption-key`) leaves its flow Completing, and the next flow completes it (or a completing flow
 * failed). Such a shoot is reconciled at once, not after its sync period.
 */
export function rotationCompletionPending(shoot: Shoot): boolean {
  return PhasedCredentialKinds.some((kind) => rotationPhase(shoot, kind) === 'Completing');
}

/** True when the rotation status leaves a rotation Completing once the flow of `shoot` succeeded. */
export function completingAfterSuccess(shoot: Shoot, operation: string | undefined, now: Date): boolean {
  const next = rotationStatusAtSuccess(shoot, operation, now);
  return PhasedCredentialKinds.some((kind) => next?.[kind]?.phase === 'Completing');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON merge patch (RFC 7386) turning `from` into `to`: vanished keys become `null`, objects are diffed key by
 * key, anything else (arrays too) is replaced. Undefined when nothing changes. `to` must hold no `null` values.
 */
export function mergePatchFor(from: unknown, to: unknown): unknown {
  if (!isObject(from) || !isObject(to)) return JSON.stringify(from) === JSON.stringify(to) ? undefined : to;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const inner = key in from ? mergePatchFor(from[key], value) : value;
    if (inner !== undefined) patch[key] = inner;
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}

function rotationPatch(
  shoot: Shoot,
  next: ShootCredentialsRotation | undefined,
): { credentials?: { rotation: unknown } } {
  if (next === undefined) return {};
  const patch = mergePatchFor(shoot.status?.credentials?.rotation ?? {}, next);
  return patch === undefined ? {} : { credentials: { rotation: patch } };
}

/**
 * The `status` patch of the rotation when a reconcile flow starts with `operation` (the Shoot's operation annotation
 * when the flow was started): empty when the rotation status does not change.
 */
export function rotationStartStatus(
  shoot: Shoot,
  operation: string | undefined,
  now: Date,
): { credentials?: { rotation: unknown } } {
  return rotationPatch(shoot, rotationStatusAtStart(shoot, operation, now));
}

/**
 * The `status` patch of the rotation when the reconcile flow succeeded; `shoot` is the Shoot the flow ran with (its
 * rotation status already the start's), `operation` the annotation it was started with.
 */
export function rotationSuccessStatus(
  shoot: Shoot,
  operation: string | undefined,
  now: Date,
): { credentials?: { rotation: unknown } } {
  return rotationPatch(shoot, rotationStatusAtSuccess(shoot, operation, now));
}
