// Error helpers for reconcilers: wrapping with `{ cause }`, errors that carry Gardener's error codes (`ERR_*`), and
// Gardener's DetermineErrorCodes (codes already in the chain plus the codes its message patterns recognise).
import { ErrorCode } from '@gardener-ts/api';

/**
 * Wraps `err` in a new Error whose message is `message: <err's message>` (like Go's `fmt.Errorf("%s: %w")`) and whose
 * `cause` is `err`, so the chain and any error codes in it survive.
 */
export function wrapError(err: unknown, message: string): Error {
  return new Error(`${message}: ${messageOf(err)}`, { cause: err });
}

/** An Error carrying Gardener error codes (`ERR_INFRA_UNAUTHORIZED`, ... from `ErrorCode` in `@gardener-ts/api`). */
export class CodedError extends Error {
  override readonly name = 'CodedError';
  /** The codes, deduplicated and sorted. */
  readonly codes: string[];

  constructor(message: string, codes: readonly string[], options?: { cause?: unknown }) {
    super(message, options);
    this.codes = [...new Set(codes)].sort();
  }
}

/** The codes of every `CodedError` in the cause chain of `err` (sorted, deduplicated); AggregateErrors are searched too. */
export function errorCodesOf(err: unknown): string[] {
  const codes = new Set<string>();
  for (const e of chainOf(err)) if (e instanceof CodedError) for (const code of e.codes) codes.add(code);
  return [...codes].sort();
}

// Gardener's message patterns (pkg/apis/core/v1beta1/helper DetermineErrorCodes), case-insensitive. The quota pattern's
// "LimitExceeded not preceded by Request" is written as a lookbehind.
const patterns: readonly (readonly [string, RegExp])[] = [
  [
    ErrorCode.InfraUnauthenticated,
    /(InvalidAuthenticationTokenTenant|Authentication failed|AuthFailure|invalid character|invalid_client|query returned no results|InvalidAccessKeyId|cannot fetch token|InvalidSecretAccessKey|InvalidSubscriptionId)/i,
  ],
  [
    ErrorCode.InfraUnauthorized,
    /(Unauthorized|InvalidClientTokenId|SignatureDoesNotMatch|AuthorizationFailed|invalid_grant|Authorization Profile was not found|no active subscriptions|UnauthorizedOperation|not authorized|AccessDenied|OperationNotAllowed|Error 403|SERVICE_ACCOUNT_ACCESS_DENIED)/i,
  ],
  [
    ErrorCode.InfraQuotaExceeded,
    /((?<!Request)LimitExceeded|Quotas|Quota.*exceeded|exceeded quota|Quota has been met|QUOTA_EXCEEDED|Maximum number of ports exceeded|ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS|VolumeSizeExceedsAvailableQuota)/i,
  ],
  [ErrorCode.InfraRateLimitsExceeded, /(RequestLimitExceeded|Throttling|Too many requests)/i],
  [
    ErrorCode.InfraDependencies,
    /(PendingVerification|Access Not Configured|accessNotConfigured|DependencyViolation|OptInRequired|DeleteConflict|Conflict|inactive billing state|ReadOnlyDisabledSubscription|is already being used|InUseSubnetCannotBeDeleted|VnetInUse|InUseRouteTableCannotBeDeleted|timeout while waiting for state to become|InvalidCidrBlock|already busy for|InsufficientFreeAddressesInSubnet|InternalServerError|internalerror|internal server error|A resource with the ID|VnetAddressSpaceCannotChangeDueToPeerings|InternalBillingError|There are not enough hosts available)/i,
  ],
  [ErrorCode.RetryableInfraDependencies, /(RetryableError)/i],
  [
    ErrorCode.InfraResourcesDepleted,
    /(not available in the current hardware cluster|InsufficientInstanceCapacity|SkuNotAvailable|ZonalAllocationFailed|out of stock|Zone.NotOnSale)/i,
  ],
  [
    ErrorCode.ConfigurationProblem,
    /(not supported in your requested Availability Zone|InvalidParameter|InvalidParameterValue|notFound|NetcfgInvalidSubnet|InvalidSubnet|Invalid value|KubeletHasInsufficientMemory|KubeletHasDiskPressure|KubeletHasInsufficientPID|violates constraint|no attached internet gateway found|Your query returned no results|PrivateEndpointNetworkPoliciesCannotBeEnabledOnPrivateEndpointSubnet|invalid VPC attributes|PrivateLinkServiceNetworkPoliciesCannotBeEnabledOnPrivateLinkServiceSubnet|unrecognized feature gate|runtime-config invalid key|LoadBalancingRuleMustDisableSNATSinceSameFrontendIPConfigurationIsReferencedByOutboundRule|strict decoder error|not allowed to configure an unsupported|error during apply of object .* is invalid:|OverconstrainedZonalAllocationRequest|duplicate zones|overlapping zones)/i,
  ],
  [
    ErrorCode.RetryableConfigurationProblem,
    /(is misconfigured and requires zero voluntary evictions|SDK.CanNotResolveEndpoint|The requested configuration is currently not supported)/i,
  ],
];

/**
 * Gardener's DetermineErrorCodes: the codes carried by `CodedError`s in the chain, plus every code whose message pattern
 * matches the error's text (the messages of the whole cause chain, as Go's wrapped `err.Error()` reads). Sorted, unique.
 */
export function determineErrorCodes(err: unknown): string[] {
  if (err === undefined || err === null) return [];
  const codes = new Set(errorCodesOf(err));
  const text = chainOf(err).map(messageOf).join(': ');
  for (const [code, pattern] of patterns) if (!codes.has(code) && pattern.test(text)) codes.add(code);
  return [...codes].sort();
}

/** The message of an error-like value: `err.message` for Errors, the string itself, or its JSON/String form. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

/** `err`, its causes and the members of AggregateErrors, depth first, each once. */
function chainOf(err: unknown): unknown[] {
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  const visit = (e: unknown): void => {
    if (e === undefined || e === null || seen.has(e)) return;
    seen.add(e);
    out.push(e);
    if (e instanceof AggregateError) for (const inner of e.errors as unknown[]) visit(inner);
    if (e instanceof Error) visit(e.cause);
  };
  visit(err);
  return out;
}
