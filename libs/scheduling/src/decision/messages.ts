// Decisions as NATS messages: the SchedulingDecision event and the preview's answer (protobuf, gardener.v1).
import type { MessageInput, SchedulingDecision, SchedulingPreviewResponse } from '@gardener-ts/messaging';
import type { SchedulingResult } from '../types.js';

/** Rejected seeds in one message at most; a decision among thousands of seeds stays small. */
export const DEFAULT_MAX_REJECTED = 200;

export function rankedSeeds(
  result: SchedulingResult,
): NonNullable<MessageInput<SchedulingPreviewResponse>['candidates']> {
  return result.candidates.map((c) => ({
    seed: c.seed.metadata?.name ?? '',
    region: c.seed.spec.provider.region,
    providerType: c.seed.spec.provider.type,
    shoots: c.shoots,
    distance: c.distance,
  }));
}

function rejectedSeeds(result: SchedulingResult, max: number) {
  return result.rejected.slice(0, max).map((r) => ({ seed: r.seed, region: r.region, rejectionReason: r.reason }));
}

/** The SchedulingDecision event: the chosen seed, the candidates (eligible: no rejection reason) and the rejected seeds. */
export function schedulingDecisionMessage(
  result: SchedulingResult,
  maxRejected = 50,
): MessageInput<SchedulingDecision> {
  const omitted = Math.max(0, result.rejected.length - maxRejected);
  return {
    seed: result.seed?.metadata?.name ?? '',
    candidates: [
      ...result.candidates.map((c) => ({
        seed: c.seed.metadata?.name ?? '',
        region: c.seed.spec.provider.region,
        rejectionReason: '',
      })),
      ...rejectedSeeds(result, maxRejected),
    ],
    reason: result.reason,
    message: omitted > 0 ? `${result.message} (${omitted} more rejected seeds not listed)` : result.message,
  };
}

export function previewResponseMessage(
  result: SchedulingResult,
  maxRejected = DEFAULT_MAX_REJECTED,
): MessageInput<SchedulingPreviewResponse> {
  return {
    seed: result.seed?.metadata?.name ?? '',
    candidates: rankedSeeds(result),
    rejected: rejectedSeeds(result, maxRejected),
    omittedRejected: Math.max(0, result.rejected.length - maxRejected),
    strategy: result.strategy,
    reason: result.reason,
    message: result.message,
  };
}
