// The health check reconciler (Gardener's extensions/pkg/controller/healthcheck/reconciler.go): runs the checks
// registered per condition type against an extension object's components and writes the conditions into the
// object's `status.conditions`, where gardenlet's shoot care controller picks up ControlPlaneHealthy,
// SystemComponentsHealthy, EveryNodeReady and ObservabilityComponentsHealthy.
import {
  buildConditions,
  conditionsNeedUpdate,
  getCondition,
  isNotFound,
  patchStatus,
  systemClock,
  wrapError,
  type Client,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { getCluster, isHibernationEnabled, isShootInMigration } from '../cluster/cluster.js';
import type { ExtensionKindSpec, ExtensionObject } from '../controller/generic/kinds.js';
import type { HealthCheck, HealthCheckContext } from './checks.js';
import { conditionFromResults, hibernatedCondition, notReconciledCondition, type CheckOutcome } from './result.js';

/** Checks contributing to one condition type. */
export interface HealthCheckRegistration {
  /** The condition type, e.g. `ControlPlaneHealthy`. */
  conditionType: string;
  checks: HealthCheck[];
  /** Run the checks only when this says so (e.g. only for shoots with workers); skipped types are left out. */
  preCheck?: (obj: ExtensionObject, ctx: HealthCheckContext) => boolean;
}

/** What the health check reconciler needs. */
export interface HealthCheckReconcilerOptions {
  kind: ExtensionKindSpec;
  client: Pick<Client, 'get' | 'list' | 'patch'>;
  registrations: readonly HealthCheckRegistration[];
  /** Whether an object is served by this controller (type, class). */
  responsibleFor: (obj: ExtensionObject) => boolean;
  shootClient?: HealthCheckContext['shootClient'];
  clock?: WallClock;
}

/** Runs the registered checks for one extension object and writes its conditions. */
export class HealthCheckReconciler {
  private readonly clock: WallClock;

  constructor(private readonly options: HealthCheckReconcilerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  async reconcile(request: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const { client, kind } = this.options;
    let obj: ExtensionObject;
    try {
      obj = await client.get(kind.kind, { namespace: request.namespace || undefined, name: request.name });
    } catch (err) {
      if (isNotFound(err)) return;
      throw wrapError(err, `reading ${kind.name} ${request.namespace}/${request.name}`);
    }
    if (!this.options.responsibleFor(obj) || obj.metadata?.deletionTimestamp) return;
    const clusterName = kind.clusterName(obj);
    const cluster = clusterName ? await getCluster(client, clusterName) : undefined;
    if (isShootInMigration(cluster)) {
      ctx.log.debug('skipping health checks of a shoot in migration');
      return;
    }
    const existing = obj.status?.conditions as Condition[] | undefined;
    const hctx: HealthCheckContext = {
      seedClient: client,
      ...(this.options.shootClient ? { shootClient: this.options.shootClient } : {}),
      namespace: obj.metadata?.namespace ?? '',
      object: obj,
      ...(cluster ? { cluster } : {}),
    };
    const conditions = await this.conditions(obj, hctx, existing);
    if (conditionsNeedUpdate(existing, conditions)) {
      const merged = buildConditions(existing, conditions);
      await patchStatus(
        client,
        { ...obj, apiVersion: 'extensions.gardener.cloud/v1alpha1', kind: kind.name },
        { conditions: merged },
      );
    }
  }

  private async conditions(
    obj: ExtensionObject,
    hctx: HealthCheckContext,
    existing: Condition[] | undefined,
  ): Promise<Condition[]> {
    const { registrations, kind } = this.options;
    const last = obj.status?.lastOperation;
    const reconciled = last !== undefined && !(last.type === 'Create' && last.state !== 'Succeeded');
    const out: Condition[] = [];
    for (const registration of registrations) {
      const old = getCondition(existing, registration.conditionType);
      if (registration.preCheck && !registration.preCheck(obj, hctx)) continue;
      if (isHibernationEnabled(hctx.cluster)) {
        out.push(hibernatedCondition(registration.conditionType, old, this.clock));
        continue;
      }
      if (!reconciled) {
        out.push(notReconciledCondition(registration.conditionType, old, kind.name, this.clock));
        continue;
      }
      const outcomes: CheckOutcome[] = await Promise.all(
        registration.checks.map((check) =>
          check(hctx).then(
            (result): CheckOutcome => ({ result }),
            (error: unknown): CheckOutcome => ({ error }),
          ),
        ),
      );
      out.push(conditionFromResults(registration.conditionType, old, outcomes, this.clock));
    }
    return out;
  }
}
