// Gardener's shoot hibernation reconciler: sets `spec.hibernation.enabled` when a hibernation schedule fires (start:
// true, end: false) and records `status.lastHibernationTriggerTime`; failed shoots whose last operation is up to date
// are left alone until the next trigger.
import type { Shoot } from '@gardener-ts/api';
import type { Client, ReconcileContext, ReconcileResult, Request } from '@gardener-ts/controller-runtime';
import { ignoreNotFound } from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { decideHibernation, NextScheduleDeltaMs, nextTrigger, parseSchedules } from './schedule.js';

export interface ShootHibernationOptions {
  client: Pick<Client, 'get' | 'patch'>;
  triggerDeadlineMs?: number;
  now?: () => Date;
}

const timestamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Whether the shoot's last operation failed for its current generation (Gardener's IsShootFailedAndUpToDate). */
export function isFailedAndUpToDate(shoot: Shoot): boolean {
  return (
    shoot.status?.lastOperation?.state === 'Failed' && shoot.status?.observedGeneration === shoot.metadata?.generation
  );
}

/** Hibernates and wakes up one Shoot by its schedules. */
export class ShootHibernationReconciler {
  constructor(private readonly o: ShootHibernationOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const shoot = await this.o.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot || shoot.metadata?.deletionTimestamp) return;
    const raw = shoot.spec.hibernation?.schedules ?? [];
    if (raw.length === 0) return;
    let schedules;
    try {
      schedules = parseSchedules(raw);
    } catch (err) {
      ctx.log.error({ err }, 'Invalid hibernation schedules, stopping reconciliation');
      return;
    }
    if (schedules.length === 0) return;
    const now = this.o.now?.() ?? new Date();
    if (isFailedAndUpToDate(shoot)) {
      const next = Math.min(...schedules.map((s) => nextTrigger(s, now).getTime()));
      return { requeueAfter: next + NextScheduleDeltaMs - now.getTime() };
    }
    const decision = decideHibernation({
      schedules,
      now,
      creationTimestamp: new Date(shoot.metadata?.creationTimestamp ?? now),
      ...(shoot.status?.lastHibernationTriggerTime
        ? { lastTriggerTime: new Date(shoot.status.lastHibernationTriggerTime) }
        : {}),
      ...(this.o.triggerDeadlineMs !== undefined ? { triggerDeadlineMs: this.o.triggerDeadlineMs } : {}),
    });
    if (decision.operation) {
      const enabled = decision.operation === 'hibernate';
      await this.o.client.patch(ShootKind, req, { type: 'merge', patch: { spec: { hibernation: { enabled } } } });
      await this.o.client.patch(
        ShootKind,
        req,
        { type: 'merge', patch: { status: { lastHibernationTriggerTime: timestamp(now) } } },
        { subresource: 'status' },
      );
      ctx.log.info({ enabled }, 'Successfully set hibernation.enabled');
    }
    return { requeueAfter: decision.requeueAfterMs };
  }
}
