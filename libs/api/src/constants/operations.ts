// Values of the `gardener.cloud/operation` annotation and the LastOperation vocabulary of status fields.

export const OperationReconcile = 'reconcile';
export const OperationRetry = 'retry';
export const OperationMaintain = 'maintain';
export const OperationMigrate = 'migrate';
export const OperationRestore = 'restore';
export const OperationWaitForState = 'wait-for-state';
export const OperationKeepalive = 'keepalive';
export const OperationRenewKubeconfig = 'renew-kubeconfig';
export const OperationRenewGardenAccessSecrets = 'renew-garden-access-secrets';
export const OperationRenewWorkloadIdentityTokens = 'renew-workload-identity-tokens';
export const OperationRotateCredentialsStart = 'rotate-credentials-start';
export const OperationRotateCredentialsStartWithoutWorkersRollout = 'rotate-credentials-start-without-workers-rollout';
export const OperationRotateCredentialsComplete = 'rotate-credentials-complete';
export const OperationRotateCAStart = 'rotate-ca-start';
export const OperationRotateCAStartWithoutWorkersRollout = 'rotate-ca-start-without-workers-rollout';
export const OperationRotateCAComplete = 'rotate-ca-complete';
export const OperationRotateServiceAccountKeyStart = 'rotate-serviceaccount-key-start';
export const OperationRotateServiceAccountKeyStartWithoutWorkersRollout =
  'rotate-serviceaccount-key-start-without-workers-rollout';
export const OperationRotateServiceAccountKeyComplete = 'rotate-serviceaccount-key-complete';
export const OperationRotateETCDEncryptionKey = 'rotate-etcd-encryption-key';
export const OperationRotateETCDEncryptionKeyStart = 'rotate-etcd-encryption-key-start';
export const OperationRotateETCDEncryptionKeyComplete = 'rotate-etcd-encryption-key-complete';
export const OperationRotateObservabilityCredentials = 'rotate-observability-credentials';
export const OperationRotateSSHKeypair = 'rotate-ssh-keypair';
/** Prefix of `rotate-rollout-workers=<pool>[,<pool>]`, which rolls out the named pools during a rotation. */
export const OperationRotateRolloutWorkersPrefix = 'rotate-rollout-workers=';

/** Operation annotation values a user may set on a Shoot (the rest are rejected by validation). */
export const ShootAllowedOperations: readonly string[] = [
  OperationReconcile,
  OperationRetry,
  OperationMaintain,
  OperationRestore,
  OperationRotateCredentialsStart,
  OperationRotateCredentialsStartWithoutWorkersRollout,
  OperationRotateCredentialsComplete,
  OperationRotateCAStart,
  OperationRotateCAStartWithoutWorkersRollout,
  OperationRotateCAComplete,
  OperationRotateServiceAccountKeyStart,
  OperationRotateServiceAccountKeyStartWithoutWorkersRollout,
  OperationRotateServiceAccountKeyComplete,
  OperationRotateETCDEncryptionKey,
  OperationRotateETCDEncryptionKeyStart,
  OperationRotateETCDEncryptionKeyComplete,
  OperationRotateObservabilityCredentials,
  OperationRotateSSHKeypair,
];

export const LastOperationType = {
  Create: 'Create',
  Reconcile: 'Reconcile',
  Delete: 'Delete',
  Migrate: 'Migrate',
  Restore: 'Restore',
  LiveMigrate: 'LiveMigrate',
} as const;
export type LastOperationType = (typeof LastOperationType)[keyof typeof LastOperationType];

export const LastOperationState = {
  Processing: 'Processing',
  Succeeded: 'Succeeded',
  Error: 'Error',
  Failed: 'Failed',
  Pending: 'Pending',
  Aborted: 'Aborted',
} as const;
export type LastOperationState = (typeof LastOperationState)[keyof typeof LastOperationState];
