// Builds the next version of a condition from the previous one, keeping Gardener's timestamp rules: the transition time
// moves only when the status changes, the update time whenever anything changes.
import {
  MESSAGE_INITIALIZED,
  MESSAGE_UNSPECIFIED,
  REASON_INITIALIZED,
  REASON_UNSPECIFIED,
  systemClock,
  timestamp,
  type Condition,
  type ConditionStatus,
  type ErrorCode,
  type WallClock,
} from './types.js';

export class ConditionBuilder {
  private old?: Condition;
  private status?: ConditionStatus;
  private reason?: string;
  private message?: string;
  private codes?: ErrorCode[];
  private clock: WallClock = systemClock;

  constructor(private readonly type: string) {
    if (!type) throw new Error('a condition needs a type');
  }

  withOldCondition(old: Condition | undefined): this {
    this.old = old;
    return this;
  }

  withStatus(status: ConditionStatus): this {
    this.status = status;
    return this;
  }

  /** An empty reason becomes `Unspecified`, so a later build without a reason keeps something meaningful. */
  withReason(reason: string): this {
    this.reason = reason;
    return this;
  }

  withMessage(message: string): this {
    this.message = message;
    return this;
  }

  /** Codes are never carried over from the old condition: a build without codes clears them. */
  withCodes(...codes: ErrorCode[]): this {
    this.codes = codes;
    return this;
  }

  withClock(clock: WallClock): this {
    this.clock = clock;
    return this;
  }

  /** The new condition, and whether it differs from the old one. */
  build(): { condition: Condition; updated: boolean } {
    const now = timestamp(this.clock.now());
    const old = this.old;
    const status = this.status ?? old?.status ?? 'Unknown';
    const reason = this.reason === undefined ? old?.reason || REASON_INITIALIZED : this.reason || REASON_UNSPECIFIED;
    const message =
      this.message === undefined ? old?.message || MESSAGE_INITIALIZED : this.message || MESSAGE_UNSPECIFIED;
    const codes = this.codes && this.codes.length > 0 ? [...this.codes] : undefined;

    const statusChanged = status !== old?.status;
    // As Gardener: a status change moves lastTransitionTime; only a new reason, message or codes move lastUpdateTime.
    const detailsChanged = reason !== old?.reason || message !== old?.message || !sameCodes(codes, old?.codes);
    const changed = statusChanged || detailsChanged;
    const condition: Condition = {
      type: this.type,
      status,
      lastTransitionTime: statusChanged || !old?.lastTransitionTime ? now : old.lastTransitionTime,
      lastUpdateTime: detailsChanged || !old?.lastUpdateTime ? now : old.lastUpdateTime,
      reason,
      message,
      ...(codes ? { codes } : {}),
    };
    const updated =
      !old ||
      changed ||
      condition.lastTransitionTime !== old.lastTransitionTime ||
      condition.lastUpdateTime !== old.lastUpdateTime;
    return { condition, updated };
  }
}

function sameCodes(a: ErrorCode[] | undefined, b: ErrorCode[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((code, i) => code === y[i]);
}
