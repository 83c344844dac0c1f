// The health reconciler (Gardener's pkg/resourcemanager/controller/health): Get → not found, ignored, not ours or
// deleting: done → objects not applied yet: wait → check every object in the target cluster (present? healthy?
// rolled out?) and set ResourcesHealthy and ResourcesProgressing, in one status write and only when they change.
import {
  getCondition,
  getOrInitCondition,
  ignoreNotFound,
  isBeingDeleted,
  mergeConditions,
  messageOf,
  NoKindMatchError,
  updatedCondition,
  type Client,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ClassFilter } from '../../class-filter.js';
import { Annotation, ConditionType, isTruthy, Reason } from '../../constants.js';
import { checkHealth, checkProgressing } from '../../health/checks.js';
import type { StatusWriter, ManagedResource } from '../../status.js';
import type { TargetObjects } from '../../target.js';
import { ManagedResourceKind } from '../managedresource/kind.js';

/** What the health reconciler needs. */
export interface HealthReconcilerOptions {
  source: Client;
  target: Pick<TargetObjects, 'kindInfo' | 'get'>;
  classFilter: ClassFilter;
  syncPeriodMs: number;
  status: StatusWriter;
}

/** Sets the ResourcesHealthy and ResourcesProgressing conditions of ManagedResources of its class. */
export class HealthReconciler {
  constructor(private readonly o: HealthReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const mr: ManagedResource | undefined = await this.o.source
      .get(ManagedResourceKind, { namespace: req.namespace, name: req.name })
      .catch(ignoreNotFound);
    if (!mr) return;
    if (isTruthy(mr.metadata?.annotations?.[Annotation.Ignore])) return;
    if (!this.o.classFilter.responsible(mr) || isBeingDeleted(mr)) return;
    const conditions = mr.status?.conditions as Condition[] | undefined;
    const applied = getCondition(conditions, ConditionType.ResourcesApplied);
    // Resources not applied (yet): a health verdict now would be wrong (e.g. CRD and CRs in one ManagedResource).
    if (!applied || applied.status === 'Progressing' || applied.status === 'False')
      return { requeueAfter: this.o.syncPeriodMs };

    let healthy = getOrInitCondition(conditions, ConditionType.ResourcesHealthy);
    let progressing = getOrInitCondition(conditions, ConditionType.ResourcesProgressing);
    let unhealthy: { reason: string; message: string } | undefined;
    let rolling: { reason: string; message: string } | undefined;

    for (const ref of mr.status?.resources ?? []) {
      const key = ref.namespace ? `${ref.namespace}/${ref.name}` : `${ref.name}`;
      let obj: Record<string, any> | undefined;
      let noMatch: string | undefined;
      try {
        const info = await this.o.target.kindInfo(ref.apiVersion!, ref.kind!);
        obj = await this.o.target.get(info.kind, info.namespaced ? ref.namespace : undefined, ref.name!);
      } catch (err) {
        if (!(err instanceof NoKindMatchError)) throw err;
        noMatch = messageOf(err);
      }
      if (!obj) {
        let message = `Required ${ref.kind} "${ref.name}" in namespace "${ref.namespace ?? ''}" is missing`;
        if (noMatch) message = `${message}: ${noMatch}`;
        unhealthy ??= { reason: `${ref.kind}Missing`, message };
        continue;
      }
      const result = checkHealth(obj);
      if (result.error)
        unhealthy ??= { reason: `${ref.kind}Unhealthy`, message: `${ref.kind} "${key}" is unhealthy: ${result.error}` };
      const p = checkProgressing(obj);
      if (p.progressing)
        rolling ??= {
          reason: `${ref.kind}Progressing`,
          message: `${ref.kind} "${key}" is progressing: ${p.description}`,
        };
      if (unhealthy && rolling) break;
    }

    healthy = unhealthy
      ? updatedCondition(healthy, 'False', unhealthy.reason, unhealthy.message)
      : updatedCondition(healthy, 'True', Reason.ResourcesHealthy, 'All resources are healthy.');
    progressing = rolling
      ? updatedCondition(progressing, 'True', rolling.reason, rolling.message)
      : updatedCondition(progressing, 'False', Reason.ResourcesRolledOut, 'All resources have been fully rolled out.');
    if (unhealthy)
      ctx.log.info({ reason: unhealthy.reason, message: unhealthy.message }, 'ManagedResource is unhealthy');
    await this.o.status.update(mr, { conditions: mergeConditions(conditions, healthy, progressing) });
    return { requeueAfter: this.o.syncPeriodMs };
  }
}
