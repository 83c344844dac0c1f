// The bookkeeping of a shoot's credentials rotations in `status.credentials.rotation` (Gardener's shoot reconciler:
// the `startRotation…`/`completeRotation…` mutations when an operation starts, the phase advances when the flow
// succeeded). Pure: a Shoot, the operation and the time in, the new rotation status out; the input is never mutated.
import {
  Operations,
  isRolloutWorkersOperation,
  rolloutWorkersPools,
  type PhasedCredentialKind,
  type Shoot,
} from '@gardener-ts/api';
import { hibernationEnabled, isWorkerless } from '../../component/values.js';

// Admission's rules on which rotation operation may be requested in which phase live in libs/api (Gardener's Shoot
// validation); the bookkeeping here shares them.
export {
  RotationOperations,
  isRolloutWorkersOperation,
  rolloutWorkersPools,
  rotationOperationErrors,
  rotationPhase,
  type PhasedCredentialKind,
} from '@gardener-ts/api';

type ShootStatus = NonNullable<Shoot['status']>;

/** `status.credentials.rotation` of a Shoot. */
export type ShootCredentialsRotation = NonNullable<NonNullable<ShootStatus['credentials']>['rotation']>;
/** The status of a two-phase rotation (certificate authorities and service account key also list pending rollouts). */
export type PhasedRotation = NonNullable<ShootCredentialsRotation['certificateAuthorities']>;
/** A rotation's phase (`Preparing`, `PreparingWithoutWorkersRollout`, `WaitingForWorkersRollout`, `Prepared`, …). */
export type RotationPhase = PhasedRotation['phase'];
/** A worker pool still to be rolled out after a rotation started without workers rollout. */
export type PendingWorkersRollout = NonNullable<PhasedRotation['pendingWorkersRollouts']>[number];

/** The credentials rotated in one go: only initiation and completion times are recorded. */
export type TimedCredentialKind = 'kubeconfig' | 'sshKeypair' | 'observability';
export type CredentialKind = PhasedCredentialKind | TimedCredentialKind;

export const PhasedCredentialKinds: readonly PhasedCredentialKind[] = [
  'certificateAuthorities',
  'serviceAccountKey',
  'etcdEncryptionKey',
];

/** Kubernetes' `metav1.Time` text: RFC 3339 in seconds. */
export const rotationTime = (now: Date): string => now.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** True when the workers accept SSH (Gardener's `ShootEnablesSSHAccess`): workers, and SSH access not disabled. */
export function shootEnablesSSHAccess(shoot: Shoot): boolean {
  return !isWorkerless(shoot) && shoot.spec.provider.workersSettings?.sshAccess?.enabled !== false;
}

function manualInPlaceUpdatesPending(shoot: Shoot): boolean {
  return (shoot.status?.inPlaceUpdates?.pendingWorkerUpdates?.manualInPlaceUpdate?.length ?? 0) > 0;
}

/** A phased rotation being mutated: its fields, the phase possibly not set yet (a rotation that never ran). */
type Draft = Omit<PhasedRotation, 'phase'> & { phase?: RotationPhase };

function mutate(rotation: ShootCredentialsRotation, kind: PhasedCredentialKind, fn: (draft: Draft) => void): void {
  const draft: Draft = { ...(rotation[kind] ?? {}) };
  fn(draft);
  // Every mutation sets a phase, so the draft is a complete rotation status again.
  (rotation as Record<PhasedCredentialKind, Draft>)[kind] = draft;
}

function startPhased(rotation: ShootCredentialsRotation, kind: PhasedCredentialKind, now: string): void {
  mutate(rotation, kind, (r) => {
    r.phase = 'Preparing';
    r.lastInitiationTime = now;
    delete r.lastInitiationFinishedTime;
    delete r.lastCompletionTriggeredTime;
  });
}

/**
 * A start that leaves the worker pools alone: every current pool becomes a pending rollout carrying the previous
 * initiation time (the pools still run with the credentials of that rotation), the new initiation time is `now`.
 */
function startPhasedWithoutWorkersRollout(
  shoot: Shoot,
  rotation: ShootCredentialsRotation,
  kind: 'certificateAuthorities' | 'serviceAccountKey',
  now: string,
): void {
  mutate(rotation, kind, (r) => {
    const previous = r.lastInitiationTime;
    const pending: PendingWorkersRollout[] = (shoot.spec.provider.workers ?? []).map((w) =>
      previous === undefined ? { name: w.name } : { name: w.name, lastInitiationTime: previous },
    );
    if (pending.length > 0) r.pendingWorkersRollouts = pending;
    else delete r.pendingWorkersRollouts;
    r.phase = 'PreparingWithoutWorkersRollout';
    r.lastInitiationTime = now;
    delete r.lastInitiationFinishedTime;
    delete r.lastCompletionTriggeredTime;
  });
}

function completePhased(rotation: ShootCredentialsRotation, kind: PhasedCredentialKind, now: string): void {
  mutate(rotation, kind, (r) => {
    r.phase = 'Completing';
    r.lastCompletionTriggeredTime = now;
  });
}

/**
 * The single-operation ETCD encryption key rotation (`rotate-etcd-encryption-key`): it starts Preparing with the
 * initiation already marked finished, which is how the success of its flow knows to go on to Completing by itself.
 */
function startETCDEncryptionKeySingleOperation(rotation: ShootCredentialsRotation, now: string): void {
  mutate(rotation, 'etcdEncryptionKey', (r) => {
    r.phase = 'Preparing';
    r.lastInitiationTime = now;
    r.lastInitiationFinishedTime = now;
    delete r.lastCompletionTriggeredTime;
  });
}

function startTimed(rotation: ShootCredentialsRotation, kind: 'sshKeypair' | 'observability', now: string): void {
  rotation[kind] = { ...(rotation[kind] ?? {}), lastInitiationTime: now };
}

/** Drops pools that no longer exist (all of them while hibernation is enabled) from the pending rollouts. */
function dropVanishedPools(shoot: Shoot, rotation: ShootCredentialsRotation): void {
  const pools = new Set(hibernationEnabled(shoot) ? [] : (shoot.spec.provider.workers ?? []).map((w) => w.name));
  for (const kind of ['certificateAuthorities', 'serviceAccountKey'] as const) {
    const r = rotation[kind];
    if (r?.pendingWorkersRollouts === undefined) continue;
    const kept = r.pendingWorkersRollouts.filter((p) => pools.has(p.name));
    rotation[kind] = { ...r, pendingWorkersRollouts: kept };
  }
}

/** The operations of an operation annotation's value (several may be joined with `;`, as the maintenance does). */
export function splitOperations(value: string | undefined): string[] {
  return (value ?? '')
    .split(';')
    .map((op) => op.trim())
    .filter((op) => op !== '');
}

/** The start (or completion, or rollout) one operation records in `rotation` (mutated). */
function applyOperation(
  shoot: Shoot,
  rotation: ShootCredentialsRotation,
  operation: string,
  t: string,
  ssh: boolean,
): void {
  const O = Operations;
  switch (operation) {
    case O.OperationRotateCredentialsStart:
    case O.OperationRotateCredentialsStartWithoutWorkersRollout:
      if (operation === O.OperationRotateCredentialsStart) {
        startPhased(rotation, 'certificateAuthorities', t);
        startPhased(rotation, 'serviceAccountKey', t);
      } else {
        startPhasedWithoutWorkersRollout(shoot, rotation, 'certificateAuthorities', t);
        startPhasedWithoutWorkersRollout(shoot, rotation, 'serviceAccountKey', t);
      }
      if (ssh) startTimed(rotation, 'sshKeypair', t);
      startTimed(rotation, 'observability', t);
      startPhased(rotation, 'etcdEncryptionKey', t);
      break;
    case O.OperationRotateCredentialsComplete:
      completePhased(rotation, 'certificateAuthorities', t);
      completePhased(rotation, 'serviceAccountKey', t);
      completePhased(rotation, 'etcdEncryptionKey', t);
      break;
    case O.OperationRotateCAStart:
      startPhased(rotation, 'certificateAuthorities', t);
      break;
    case O.OperationRotateCAStartWithoutWorkersRollout:
      startPhasedWithoutWorkersRollout(shoot, rotation, 'certificateAuthorities', t);
      break;
    case O.OperationRotateCAComplete:
      completePhased(rotation, 'certificateAuthorities', t);
      break;
    case O.OperationRotateServiceAccountKeyStart:
      startPhased(rotation, 'serviceAccountKey', t);
      break;
    case O.OperationRotateServiceAccountKeyStartWithoutWorkersRollout:
      startPhasedWithoutWorkersRollout(shoot, rotation, 'serviceAccountKey', t);
      break;
    case O.OperationRotateServiceAccountKeyComplete:
      completePhased(rotation, 'serviceAccountKey', t);
      break;
    case O.OperationRotateETCDEncryptionKey:
      startETCDEncryptionKeySingleOperation(rotation, t);
      break;
    case O.OperationRotateETCDEncryptionKeyStart:
      startPhased(rotation, 'etcdEncryptionKey', t);
      break;
    case O.OperationRotateETCDEncryptionKeyComplete:
      completePhased(rotation, 'etcdEncryptionKey', t);
      break;
    case O.OperationRotateObservabilityCredentials:
      startTimed(rotation, 'observability', t);
      break;
    case O.OperationRotateSSHKeypair:
      if (ssh) startTimed(rotation, 'sshKeypair', t);
      break;
  }

  if (isRolloutWorkersOperation(operation)) {
    const rolled = new Set(rolloutWorkersPools(operation));
    for (const kind of ['certificateAuthorities', 'serviceAccountKey'] as const) {
      const r = rotation[kind];
      if (r?.phase !== 'WaitingForWorkersRollout') continue;
      rotation[kind] = {
        ...r,
        pendingWorkersRollouts: (r.pendingWorkersRollouts ?? []).filter((p) => !rolled.has(p.name)),
      };
    }
  }
}

/**
 * `status.credentials.rotation` once the flow for `operation` (the `gardener.cloud/operation` annotation it was
 * started with; several operations joined with `;` are applied in order) begins: starts and completions are recorded, `rotate-rollout-workers=` removes the named pools from
 * the pending rollouts of rotations waiting for them, and pools that no longer exist are dropped. Operations that
 * are no rotation change nothing but the pending-rollout cleanup. Undefined when the Shoot has no rotation status
 * and gets none. Like Gardener's reconciler this does not check that the operation is allowed in the current phase
 * (admission does that, see {@link rotationOperationErrors}).
 */
export function rotationStatusAtStart(
  shoot: Shoot,
  operation: string | undefined,
  now: Date,
): ShootCredentialsRotation | undefined {
  const before = shoot.status?.credentials?.rotation;
  const rotation: ShootCredentialsRotation = structuredClone(before ?? {});
  const t = rotationTime(now);
  const ssh = shootEnablesSSHAccess(shoot);
  for (const op of splitOperations(operation)) applyOperation(shoot, rotation, op, t, ssh);

  dropVanishedPools(shoot, rotation);
  return before === undefined && Object.keys(rotation).length === 0 ? undefined : rotation;
}

function isAfter(a: string, b: string): boolean {
  return Date.parse(a) > Date.parse(b);
}

/** Phase advance of the CA and service account key rotations on success. */
function advanceWithWorkers(
  shoot: Shoot,
  rotation: ShootCredentialsRotation,
  kind: 'certificateAuthorities' | 'serviceAccountKey',
  now: string,
): void {
  const r = rotation[kind];
  if (r === undefined) return;
  const inPlacePending = manualInPlaceUpdatesPending(shoot);
  switch (r.phase) {
    case 'Preparing':
      if (!inPlacePending) rotation[kind] = { ...r, phase: 'Prepared', lastInitiationFinishedTime: now };
      break;
    case 'PreparingWithoutWorkersRollout':
      rotation[kind] = { ...r, phase: 'WaitingForWorkersRollout' };
      break;
    case 'WaitingForWorkersRollout':
      if ((r.pendingWorkersRollouts ?? []).length === 0 && !inPlacePending) {
        rotation[kind] = { ...r, phase: 'Prepared', lastInitiationFinishedTime: now };
      }
      break;
    case 'Completing':
      rotation[kind] = completed(r, now);
      break;
  }
}

function completed<R extends PhasedRotation | NonNullable<ShootCredentialsRotation['etcdEncryptionKey']>>(
  r: R,
  now: string,
): R {
  const next = { ...r, phase: 'Completed' as const, lastCompletionTime: now };
  delete next.lastInitiationFinishedTime;
  delete next.lastCompletionTriggeredTime;
  return next;
}

/**
 * `status.credentials.rotation` once the flow succeeded: Preparing becomes Prepared (the CA and service account key
 * only when no manual in-place updates are pending), PreparingWithoutWorkersRollout becomes WaitingForWorkersRollout,
 * which becomes Prepared once no pool is pending, Completing becomes Completed; the single-operation ETCD encryption
 * key rotation goes from Preparing straight on to Completing (a further flow completes it). SSH keypair and
 * observability rotations initiated after their last completion are completed now, and the SSH keypair rotation is
 * dropped when the Shoot has no SSH access. `operation` is the annotation the flow was started with (it is removed
 * from the Shoot at the start); it marks a single-operation ETCD encryption key rotation whose status predates this
 * bookkeeping.
 */
export function rotationStatusAtSuccess(
  shoot: Shoot,
  operation: string | undefined,
  now: Date,
): ShootCredentialsRotation | undefined {
  const before = shoot.status?.credentials?.rotation;
  if (before === undefined) return undefined;
  const rotation: ShootCredentialsRotation = structuredClone(before);
  const t = rotationTime(now);

  advanceWithWorkers(shoot, rotation, 'certificateAuthorities', t);
  advanceWithWorkers(shoot, rotation, 'serviceAccountKey', t);

  const etcd = rotation.etcdEncryptionKey;
  if (etcd?.phase === 'Preparing') {
    const singleOperation =
      splitOperations(operation).includes(Operations.OperationRotateETCDEncryptionKey) ||
      etcd.lastInitiationFinishedTime !== undefined;
    rotation.etcdEncryptionKey = singleOperation
      ? { ...etcd, phase: 'Completing', lastCompletionTriggeredTime: t }
      : { ...etcd, phase: 'Prepared', lastInitiationFinishedTime: t };
  } else if (etcd?.phase === 'Completing') {
    rotation.etcdEncryptionKey = completed(etcd, t);
  }

  for (const kind of ['sshKeypair', 'observability'] as const) {
    const r = rotation[kind];
    if (r?.lastInitiationTime === undefined) continue;
    if (r.lastCompletionTime === undefined || isAfter(r.lastInitiationTime, r.lastCompletionTime)) {
      rotation[kind] = { ...r, lastCompletionTime: t };
    }
  }

  if (!shootEnablesSSHAccess(shoot)) delete rotation.sshKeypair;
  return rotation;
}
