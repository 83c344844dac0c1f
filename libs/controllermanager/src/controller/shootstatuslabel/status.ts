// The `shoot.gardener.cloud/status` label value as Gardener computes it (pkg/apis/core/v1beta1/helper shoot status):
// healthy, progressing, unknown or unhealthy — the worst of the conditions and of the last operation's outcome; a
// shoot not reconciled yet is healthy; while being created (until it succeeds) or deleted only the last errors count.
// Pure.
import { Labels } from '@gardener-ts/api';

/** The label's values. */
export type ShootStatus = (typeof Labels.ShootStatusValue)[keyof typeof Labels.ShootStatusValue];

const rank: Record<ShootStatus, number> = { healthy: 3, progressing: 2, unknown: 1, unhealthy: 0 };

/** The worse of two states. */
export function orWorse(a: ShootStatus, b: ShootStatus): ShootStatus {
  return rank[b] < rank[a] ? b : a;
}

/** A condition status as a label state. */
export function conditionStatusToStatus(status: string): ShootStatus {
  if (status === 'True') return 'healthy';
  if (status === 'Progressing') return 'progressing';
  if (status === 'Unknown') return 'unknown';
  return 'unhealthy';
}

const fromBool = (ok: boolean): ShootStatus => (ok ? 'healthy' : 'unhealthy');

/** What the label is computed from. */
export interface StatusInput {
  lastOperation?: { type: string; state: string };
  lastErrors?: readonly unknown[];
  conditions?: readonly { status: string }[];
}

/** Gardener's ComputeStatus. */
export function computeShootStatus(input: StatusInput): ShootStatus {
  const { lastOperation } = input;
  const noErrors = (input.lastErrors ?? []).length === 0;
  if (!lastOperation) return 'healthy';
  if ((lastOperation.type === 'Create' && lastOperation.state !== 'Succeeded') || lastOperation.type === 'Delete') {
    return fromBool(noErrors);
  }
  let status: ShootStatus = 'healthy';
  for (const c of input.conditions ?? []) status = orWorse(status, conditionStatusToStatus(c.status));
  if (lastOperation.state === 'Processing') return orWorse(status, fromBool(noErrors));
  return orWorse(status, fromBool(lastOperation.state === 'Succeeded'));
}
