// Shoot credentials rotation (issue #19's "rotations").
//
// README: this folder holds Gardener's shoot credentials rotation bookkeeping: what an operation annotation
// (`rotate-credentials-start`, `rotate-ca-complete`, `rotate-etcd-encryption-key`, `rotate-rollout-workers=…`, …)
// does to `status.credentials.rotation` when a flow starts (`rotationStatusAtStart`) and when it succeeds
// (`rotationStatusAtSuccess`), which rotation operation admission allows in which phase (`rotationOperationErrors`,
// from libs/api's Shoot validation, re-exported),
// and how the phases become the secrets manager's rotation times and keep-old/drop-old options
// (`secretsRotationConfig`, `withRotationOptions`). `patch.ts` turns the statuses into the Shoot status patches the
// shoot controller writes at the flow's start (after which it removes the rotation's operation annotation) and at
// its success; the flow's "Initializing secrets management" generates the secrets with the rotation options, and the
// secrets no longer needed are cleaned up after a successful flow.
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
  splitOperations,
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
  sshKeypairConfig,
  type SecretsRotationConfig,
  type SecretsRotationPhase,
  withRotationOptions,
} from './secrets.js';
export {
  completingAfterSuccess,
  isRotationOperation,
  mergePatchFor,
  operationAnnotation,
  rotationCompletionPending,
  rotationStartStatus,
  rotationSuccessStatus,
} from './patch.js';
