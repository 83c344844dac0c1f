// Condition transitions of ManagedResources as NATS events (ConditionTransition, ARCHITECTURE.md §4). The sink is
// the messaging Publisher (or anything with the same method); publishing never blocks or throws into a reconcile.
import type { Logger } from '@gardener-ts/logging';
import type { ConditionStatus as WireStatus } from '@gardener-ts/messaging';

type Status = 'True' | 'False' | 'Unknown' | 'Progressing' | string;

export interface ConditionLike {
  type: string;
  status: Status;
  reason?: string;
  message?: string;
  codes?: string[];
}

export interface TransitionObject {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  generation?: number;
}

export interface Transition {
  type: string;
  oldStatus: WireStatus;
  newStatus: WireStatus;
  reason: string;
  message: string;
  codes: string[];
}

/** What publishes transitions: `Publisher` of @gardener-ts/messaging fits. */
export interface TransitionSink {
  conditionTransition(object: TransitionObject, transition: Transition): unknown;
}

const STATUS: Record<string, WireStatus> = {
  True: 'CONDITION_STATUS_TRUE',
  False: 'CONDITION_STATUS_FALSE',
  Unknown: 'CONDITION_STATUS_UNKNOWN',
  Progressing: 'CONDITION_STATUS_PROGRESSING',
};

const wireStatus = (s: string | undefined): WireStatus =>
  s === undefined ? 'CONDITION_STATUS_UNSPECIFIED' : (STATUS[s] ?? 'CONDITION_STATUS_UNSPECIFIED');

/** The status changes between two condition lists (new conditions count as a change from unspecified). */
export function conditionTransitions(
  oldConditions: readonly ConditionLike[] | undefined,
  newConditions: readonly ConditionLike[] | undefined,
): Transition[] {
  const out: Transition[] = [];
  for (const c of newConditions ?? []) {
    const old = (oldConditions ?? []).find((o) => o.type === c.type);
    if (old?.status === c.status) continue;
    out.push({
      type: c.type,
      oldStatus: wireStatus(old?.status),
      newStatus: wireStatus(c.status),
      reason: c.reason ?? '',
      message: c.message ?? '',
      codes: c.codes ?? [],
    });
  }
  return out;
}

/** Publishes the transitions between two condition lists of an object; errors are logged, never thrown. */
export function publishTransitions(
  sink: TransitionSink | undefined,
  object: TransitionObject,
  oldConditions: readonly ConditionLike[] | undefined,
  newConditions: readonly ConditionLike[] | undefined,
  log?: Logger,
): void {
  if (!sink) return;
  for (const t of conditionTransitions(oldConditions, newConditions)) {
    try {
      sink.conditionTransition(object, t);
    } catch (err) {
      log?.warn({ err }, 'Could not publish condition transition');
    }
  }
}
