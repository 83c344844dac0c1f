// The reconcile of one shoot: decide, bind, report. A shoot that fits nowhere gets a Warning event naming why each
// seed was ruled out, lastOperation Create/Pending with the same text, and is retried with back-off (seed changes
// wake it earlier, see waker.ts). Decisions go to NATS as SchedulingDecision events; NATS being down never delays
// a reconcile (the messaging client buffers).
import type { Shoot } from '@gardener-ts/api';
import {
  isConflict,
  isNotFound,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { MessageInput, SchedulingDecision } from '@gardener-ts/messaging';
import { EVENT_SCHEDULING_FAILED, EVENT_SCHEDULING_SUCCESSFUL } from '../constants.js';
import { schedulingDecisionMessage } from '../decision/messages.js';
import type { SchedulingResult, Strategy } from '../types.js';
import type { AssumedBindings } from './assumed.js';
import { bindShoot, reportPending } from './bind.js';
import { decide } from './decide.js';
import { isPendingShoot } from './pending.js';
import type { SchedulingCache } from './scheduling-cache.js';

/** Where events go (an EventRecorder): must neither throw nor wait. */
export interface ShootEventSink {
  event(shoot: Shoot, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** Where decisions go (a messaging Publisher): must neither throw nor wait. */
export interface DecisionSink {
  schedulingDecision(
    shoot: { kind: string; namespace?: string; name: string; uid?: string; generation?: number },
    decision: MessageInput<SchedulingDecision>,
  ): unknown;
}

export interface ShootReconcilerOptions {
  cache: SchedulingCache;
  client: Pick<Client, 'patch' | 'update'>;
  events: ShootEventSink;
  decisions?: DecisionSink;
  strategy: Strategy;
  assumed: AssumedBindings;
  allowIPv4Overlap?: boolean;
}

export class ShootReconciler {
  constructor(private readonly options: ShootReconcilerOptions) {}

  reconcile = async (request: Request, { log }: Pick<ReconcileContext, 'log'>): Promise<ReconcileResult | void> => {
    const { cache, assumed } = this.options;
    const shoot = cache.shoot(request.namespace, request.name);
    if (!shoot || !isPendingShoot(shoot)) return;
    // Bound by us a moment ago; the cache will show it shortly (and the update event ends this shoot's work).
    if (assumed.seedOf(shoot)) return;

    const result = decide(shoot, cache, {
      strategy: this.options.strategy,
      assumed,
      allowIPv4Overlap: this.options.allowIPv4Overlap,
      onIgnoredRegionConfigs: (ignored, cloudProfile) =>
        log.info({ ignored, cloudProfile }, 'Duplicate scheduler region config found, using the first by name'),
    });
    return result.seed ? this.bind(shoot, result, log) : this.unschedulable(shoot, result, log);
  };

  private async bind(shoot: Shoot, result: SchedulingResult, log: Logger): Promise<ReconcileResult | void> {
    const seed = result.seed!.metadata!.name!;
    // Counted from now on, before the write: the next decision must already see this shoot on its seed.
    this.options.assumed.assume(shoot, seed);
    try {
      await bindShoot(this.options.client, shoot, seed);
    } catch (err) {
      this.options.assumed.forget(shoot);
      if (isNotFound(err)) return;
      // Changed meanwhile: decide again on the new version.
      if (isConflict(err)) return { requeue: true };
      this.options.events.event(
        shoot,
        'Warning',
        EVENT_SCHEDULING_FAILED,
        `Failed to schedule Shoot: failed to bind shoot to seed: ${(err as Error).message}`,
      );
      throw err;
    }
    log.info(
      {
        cloudprofile: shoot.spec.cloudProfile?.name ?? shoot.spec.cloudProfileName,
        region: shoot.spec.region,
        seed,
        strategy: result.strategy,
      },
      'Shoot successfully scheduled to seed',
    );
    this.options.events.event(shoot, 'Normal', EVENT_SCHEDULING_SUCCESSFUL, result.message);
    this.publish(shoot, result);
  }

  private async unschedulable(shoot: Shoot, result: SchedulingResult, log: Logger): Promise<ReconcileResult> {
    const description = `Failed to schedule Shoot: ${result.message}`;
    this.options.events.event(shoot, 'Warning', EVENT_SCHEDULING_FAILED, description);
    try {
      await reportPending(this.options.client, shoot, description);
    } catch (err) {
      if (!isNotFound(err)) log.error({ err }, 'Failed to report scheduling failure to shoot status');
    }
    this.publish(shoot, result);
    log.info({ reason: result.reason }, 'No seed fits the shoot, retrying with back-off');
    return { requeue: true };
  }

  private publish(shoot: Shoot, result: SchedulingResult): void {
    this.options.decisions?.schedulingDecision(
      {
        kind: 'Shoot',
        namespace: shoot.metadata?.namespace,
        name: shoot.metadata?.name ?? '',
        uid: shoot.metadata?.uid,
        generation: shoot.metadata?.generation,
      },
      schedulingDecisionMessage(result),
    );
  }
}
