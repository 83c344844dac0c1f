// Shoot credentials rotation bookkeeping (part of issue #19's missing "rotations").
//
// README: this folder holds the pure core of Gardener's shoot credentials rotation: what an operation annotation
// (`rotate-credentials-start`, `rotate-ca-complete`, `rotate-etcd-encryption-key`, `rotate-rollout-workers=…`, …)
// does to `status.credentials.rotation` when a flow starts (`rotationStatusAtStart`) and when it succeeds
// (`rotationStatusAtSuccess`), which rotation operation admission allows in which phase (`rotationOperationErrors`),
// and how the phases become the secrets manager's rotation times and keep-old/drop-old options
// (`secretsRotationConfig`). It is NOT wired yet: the gardenlet's shoot flow neither writes these statuses nor hands
// the rotation config to its secrets manager, the operation annotation is not removed at the start, and the package
// index does not export it. A later change connects it to the flow's status writer and secrets steps.
export {
  PhasedCredentialKinds,
  RotationOperations,
  isRolloutWorkersOperation,
  rolloutWorkersPools,
  rotationOperationErrors,
  rotationPhase,
  rotationStatusAtStart,
  rotationStatusAtSuccess,
  rotationTime,
  shootEnablesSSHAccess,
  type CredentialKind,
  type PendingWorkersRollout,
  type PhasedCredentialKind,
  type PhasedRotation,
  type RotationPhase,
  type ShootCredentialsRotation,
  type TimedCredentialKind,
} from './status.js';
export {
  DefaultCAConfigNames,
  RotatedSecretNames,
  secretsRotationConfig,
  secretsRotationPhase,
  type SecretsRotationConfig,
  type SecretsRotationPhase,
} from './secrets.js';
