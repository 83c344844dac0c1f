// Well-defined error codes reported in `status.lastErrors[].codes` and by extensions.

export const ErrorCode = {
  InfraUnauthenticated: 'ERR_INFRA_UNAUTHENTICATED',
  InfraUnauthorized: 'ERR_INFRA_UNAUTHORIZED',
  InfraQuotaExceeded: 'ERR_INFRA_QUOTA_EXCEEDED',
  InfraRateLimitsExceeded: 'ERR_INFRA_RATE_LIMITS_EXCEEDED',
  InfraDependencies: 'ERR_INFRA_DEPENDENCIES',
  RetryableInfraDependencies: 'ERR_RETRYABLE_INFRA_DEPENDENCIES',
  InfraResourcesDepleted: 'ERR_INFRA_RESOURCES_DEPLETED',
  CleanupClusterResources: 'ERR_CLEANUP_CLUSTER_RESOURCES',
  ConfigurationProblem: 'ERR_CONFIGURATION_PROBLEM',
  RetryableConfigurationProblem: 'ERR_RETRYABLE_CONFIGURATION_PROBLEM',
  ProblematicWebhook: 'ERR_PROBLEMATIC_WEBHOOK',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Codes after which Gardener stops retrying an operation: a human has to fix something first. */
export const NonRetryableErrorCodes: readonly ErrorCode[] = [
  ErrorCode.InfraUnauthenticated,
  ErrorCode.InfraUnauthorized,
  ErrorCode.InfraQuotaExceeded,
  ErrorCode.InfraDependencies,
  ErrorCode.ConfigurationProblem,
  ErrorCode.ProblematicWebhook,
];

export function isRetryableErrorCode(code: string): boolean {
  return !(NonRetryableErrorCodes as readonly string[]).includes(code);
}
