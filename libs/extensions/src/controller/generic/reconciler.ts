// The generic reconciler of an extension kind (Gardener's extensions/pkg/controller/<kind>/reconciler.go, one engine
// for all kinds): Get → gone: done → waiting for state / failed shoot / migrated: leave alone → migrate / delete /
// restore / reconcile, each reported in status.lastOperation (Processing, then Succeeded or Error with lastError and
// error codes), with the finalizer and the `gardener.cloud/operation` annotation handled as Gardener does.
import {
  OPERATION_RECONCILE,
  OPERATION_WAIT_FOR_STATE,
  addFinalizer,
  hasFinalizer,
  isNotFound,
  lastOperationStatus,
  operationOf,
  patchStatus,
  removeFinalizer,
  removeOperationAnnotation,
  wrapError,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { getCluster, isFailed, shootNeedsForceDeletion, type Cluster } from '../../cluster/cluster.js';
import { mergePatchFor } from '../../util/merge-patch.js';
import { RequeueAfterError, type Actuator, type ActuatorContext, type ActuatorResult } from './actuator.js';
import type { ExtensionKindSpec, ExtensionObject } from './kinds.js';
import {
  computeOperationType,
  hasClass,
  hasOperationAnnotation,
  hasType,
  lastOperationNotSuccessful,
  shouldSkipOperation,
  type OperationType,
} from './operation.js';

/** What a generic reconciler needs. */
export interface GenericReconcilerOptions<T extends ExtensionObject> {
  kind: ExtensionKindSpec<T>;
  actuator: Actuator<T>;
  /** Reads (a cache-backed client is fine) and writes of the seed. */
  client: Client;
  /** The `spec.type` values this controller serves. */
  types: readonly string[];
  /** The extension classes served (`shoot` when empty). */
  classes?: readonly string[];
  /** Extra responsibility check (e.g. a ControlPlane's purpose). */
  accepts?: (obj: T) => boolean;
  /** Reconcile successfully reconciled objects again after this many milliseconds (0: only on events). */
  resyncMs?: number;
  /**
   * Reconcile whenever a request comes, not only when asked (operation annotation, unsuccessful last operation,
   * deletion). Default false: a request for an object nobody asked to reconcile is dropped.
   */
  ignoreOperationAnnotation?: boolean;
  /** Wall clock for status timestamps. */
  now?: () => Date;
}

const VERBS: Record<OperationType, [progressing: string, failed: string, succeeded: string]> = {
  Create: ['Reconciling', 'Error reconciling', 'Successfully reconciled'],
  Reconcile: ['Reconciling', 'Error reconciling', 'Successfully reconciled'],
  Delete: ['Deleting', 'Error deleting', 'Successfully deleted'],
  Migrate: ['Migrating', 'Error migrating', 'Successfully migrated'],
  Restore: ['Restoring', 'Error restoring', 'Successfully restored'],
};

/** Reconciles one extension kind for the types (and classes) it serves by calling an `Actuator`. */
export class GenericReconciler<T extends ExtensionObject> {
  private readonly now: () => Date;

  constructor(private readonly options: GenericReconcilerOptions<T>) {
    this.now = options.now ?? (() => new Date());
  }

  /** Whether this controller is responsible for `obj` (type, class and the extra check). */
  responsibleFor(obj: T): boolean {
    const { types, classes, accepts } = this.options;
    return hasType(obj, types) && hasClass(obj, classes) && (accepts?.(obj) ?? true);
  }

  async reconcile(request: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const { client, kind } = this.options;
    let obj: T;
    try {
      obj = withKind(
        await client.get(kind.kind, { namespace: request.namespace || undefined, name: request.name }),
        kind,
      );
    } catch (err) {
      if (isNotFound(err)) return;
      throw wrapError(err, `reading ${kind.name} ${describe(request)}`);
    }
    if (!this.responsibleFor(obj)) return;
    const log = ctx.log;
    // gardenlet creates objects to restore with `wait-for-state`, copies their state in, then asks for `restore`.
    if (operationOf(obj) === OPERATION_WAIT_FOR_STATE) {
      log.debug('waiting for the state to be restored');
      return;
    }
    const asked = this.askedToReconcile(obj);
    if (operationOf(obj) === OPERATION_RECONCILE) obj = withKind(await removeOperationAnnotation(client, obj), kind);

    const clusterName = kind.clusterName(obj);
    const cluster = clusterName ? await getCluster(client, clusterName) : undefined;
    if (!cluster && kind.clusterRequired && !obj.metadata?.deletionTimestamp) {
      throw new Error(`${kind.name} ${describe(request)}: Cluster ${clusterName ?? '(none)'} not found`);
    }
    if (isFailed(cluster)) {
      log.info(`skipping the reconciliation of ${kind.name} of a failed shoot`);
      return;
    }

    const operation = computeOperationType(obj);
    if (shouldSkipOperation(operation, obj)) return;
    if (!asked) {
      log.debug('nothing asked for: no operation annotation, last operation succeeded');
      return;
    }
    const actx: ActuatorContext = { client, log, signal: ctx.signal, ...(cluster ? { cluster } : {}) };
    if (operation === 'Migrate') return this.migrate(actx, obj);
    if (obj.metadata?.deletionTimestamp) return this.delete(actx, obj, cluster);
    if (operation === 'Restore') return this.restore(actx, obj);
    return this.reconcileObject(actx, obj, operation);
  }

  /** Whether a request should do work: always with the annotation ignored or a resync; else only when asked. */
  private askedToReconcile(obj: T): boolean {
    if (this.options.ignoreOperationAnnotation || (this.options.resyncMs ?? 0) > 0) return true;
    return hasOperationAnnotation(obj) || lastOperationNotSuccessful(obj) || Boolean(obj.metadata?.deletionTimestamp);
  }

  private async reconcileObject(
    ctx: ActuatorContext,
    obj: T,
    operation: OperationType,
  ): Promise<ReconcileResult | void> {
    obj = await this.ensureFinalizer(obj);
    obj = await this.processing(obj, operation);
    const result = await this.run(ctx, obj, operation, () => this.options.actuator.reconcile(ctx, obj));
    if (!('ok' in result)) return result;
    await this.succeeded(obj, operation, result.ok);
    const after = result.ok?.requeueAfter ?? this.options.resyncMs ?? 0;
    return after > 0 ? { requeueAfter: after } : undefined;
  }

  private async delete(ctx: ActuatorContext, obj: T, cluster: Cluster | undefined): Promise<ReconcileResult | void> {
    const { kind, actuator } = this.options;
    if (!hasFinalizer(obj, kind.finalizer)) {
      ctx.log.info(`deleting ${kind.name} is a no-op: it has no finalizer`);
      return;
    }
    obj = await this.processing(obj, 'Delete');
    const force = shootNeedsForceDeletion(cluster);
    const result = await this.run(ctx, obj, 'Delete', async () => {
      if (force && actuator.forceDelete) await actuator.forceDelete(ctx, obj);
      else await actuator.delete(ctx, obj);
    });
    if (!('ok' in result)) return result;
    obj = await this.succeeded(obj, 'Delete');
    await removeFinalizer(this.options.client, obj, kind.finalizer);
  }

  private async migrate(ctx: ActuatorContext, obj: T): Promise<ReconcileResult | void> {
    obj = await this.processing(obj, 'Migrate');
    const result = await this.run(ctx, obj, 'Migrate', () => this.options.actuator.migrate(ctx, obj));
    if (!('ok' in result)) return result;
    obj = await this.succeeded(obj, 'Migrate', result.ok);
    obj = await removeFinalizer(this.options.client, obj, this.options.kind.finalizer);
    await removeOperationAnnotation(this.options.client, obj);
  }

  private async restore(ctx: ActuatorContext, obj: T): Promise<ReconcileResult | void> {
    obj = await this.ensureFinalizer(obj);
    obj = await this.processing(obj, 'Restore');
    const result = await this.run(ctx, obj, 'Restore', () => this.options.actuator.restore(ctx, obj));
    if (!('ok' in result)) return result;
    obj = await this.succeeded(obj, 'Restore', result.ok);
    await removeOperationAnnotation(this.options.client, obj);
  }

  /**
   * Runs an actuator call. A failure is written to the status (state Error, lastError with codes, progress 50) and
   * becomes a thrown error (back-off) or, for a `RequeueAfterError`, a requeue after its delay.
   */
  private async run(
    ctx: ActuatorContext,
    obj: T,
    operation: OperationType,
    call: () => Promise<ActuatorResult | void>,
  ): Promise<{ ok: ActuatorResult | undefined } | ReconcileResult> {
    try {
      return { ok: (await call()) ?? undefined };
    } catch (err) {
      const description = `${VERBS[operation][1]} ${this.options.kind.name}`;
      const wrapped = wrapError(err, description);
      try {
        const status = lastOperationStatus(
          obj,
          { type: operation, state: 'Error', progress: 50, description: capitalize(wrapped.message), error: wrapped },
          this.now(),
        );
        await patchStatus(this.options.client, obj, { ...status, ...generation(obj) });
      } catch (statusErr) {
        ctx.log.error({ err: statusErr }, 'could not report the failure in the status');
      }
      if (err instanceof RequeueAfterError) {
        ctx.log.info({ err }, `${description}, trying again in ${err.requeueAfterMs} ms`);
        return { requeueAfter: err.requeueAfterMs };
      }
      throw wrapped;
    }
  }

  private async ensureFinalizer(obj: T): Promise<T> {
    return hasFinalizer(obj, this.options.kind.finalizer)
      ? obj
      : withKind(await addFinalizer(this.options.client, obj, this.options.kind.finalizer), this.options.kind);
  }

  private async processing(obj: T, operation: OperationType): Promise<T> {
    const description = `${VERBS[operation][0]} ${this.options.kind.name}`;
    const status = lastOperationStatus(
      obj,
      { type: operation, state: 'Processing', progress: 1, description },
      this.now(),
    );
    return withKind(await patchStatus(this.options.client, obj, status), this.options.kind);
  }

  private async succeeded(obj: T, operation: OperationType, result?: ActuatorResult): Promise<T> {
    const description = `${VERBS[operation][2]} ${this.options.kind.name}`;
    const status: Record<string, unknown> = {
      ...(result?.status ?? {}),
      ...lastOperationStatus(obj, { type: operation, state: 'Succeeded', progress: 100, description }, this.now()),
      ...generation(obj),
    };
    if (result?.state !== undefined) {
      const patch = mergePatchFor(obj.status?.state ?? {}, result.state);
      if (patch !== undefined) status.state = patch;
    }
    if (result?.providerStatus !== undefined) {
      const patch = mergePatchFor(obj.status?.providerStatus ?? {}, result.providerStatus);
      if (patch !== undefined) status.providerStatus = patch;
    }
    if (result?.resources !== undefined) status.resources = result.resources;
    return withKind(await patchStatus(this.options.client, obj, status), this.options.kind);
  }
}

function generation(obj: ExtensionObject): { observedGeneration?: number } {
  return obj.metadata?.generation !== undefined ? { observedGeneration: obj.metadata.generation } : {};
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describe(request: Request): string {
  return request.namespace ? `${request.namespace}/${request.name}` : request.name;
}

/** Objects read from caches or returned by patches may lack apiVersion/kind; the status and finalizer writers need them. */
function withKind<T extends ExtensionObject>(obj: T, kind: ExtensionKindSpec<T>): T {
  if (obj.apiVersion && obj.kind) return obj;
  return { ...obj, apiVersion: 'extensions.gardener.cloud/v1alpha1', kind: kind.name };
}
