// The Actuator: what an extension author writes for one kind. The generic reconciler owns the contract (operation
// annotation, finalizer, lastOperation/lastError, state, migration) and calls these methods at the right moments.
import type { Logger } from '@gardener-ts/logging';
import type { Client } from '@gardener-ts/controller-runtime';
import type { Cluster } from '../../cluster/cluster.js';
import type { ExtensionObject, NamedResourceReference } from './kinds.js';

/** What an actuator method gets besides the object. */
export interface ActuatorContext {
  /** The seed client the controller runs with (cache reads, API writes). */
  client: Client;
  log: Logger;
  /** Aborted when the controller stops. */
  signal: AbortSignal;
  /** The object's Cluster (shoot, seed, cloud profile), when it has one. */
  cluster?: Cluster;
}

/** What `reconcile`, `migrate` and `restore` may report; written into the object's status with the success. */
export interface ActuatorResult {
  /** Saved as `status.state` (replacing the old state): what a restore on another seed needs. */
  state?: Record<string, unknown>;
  /** Written as `status.resources`: objects the extension references, which gardenlet copies along on migration. */
  resources?: NamedResourceReference[];
  /** Written as `status.providerStatus`. */
  providerStatus?: Record<string, unknown>;
  /** Other status fields of the kind (e.g. a Worker's `machineDeployments`), merged into the status. */
  status?: Record<string, unknown>;
  /** Reconcile again after this many milliseconds even though this run succeeded. */
  requeueAfter?: number;
}

/**
 * One kind's provider logic. Every method is idempotent: the reconciler calls it again after any failure. Throw to
 * report a failure (its message and error codes end up in `status.lastError`); throw a `RequeueAfterError` to poll.
 */
export interface Actuator<T extends ExtensionObject = ExtensionObject> {
  /** Create or update what the object's spec asks for. */
  reconcile(ctx: ActuatorContext, obj: T): Promise<ActuatorResult | void>;
  /** Delete what `reconcile` created; the finalizer is removed once this returns. */
  delete(ctx: ActuatorContext, obj: T): Promise<void>;
  /**
   * Delete without waiting for anything outside the seed (the Shoot carries
   * `confirmation.gardener.cloud/force-deletion=true`). Without it, force deletion falls back to `delete`.
   */
  forceDelete?(ctx: ActuatorContext, obj: T): Promise<void>;
  /**
   * The shoot moves to another seed: stop managing what lives outside this seed without deleting it, release what is
   * in the seed. Return the `state` the new seed needs; the finalizer is removed afterwards.
   */
  migrate(ctx: ActuatorContext, obj: T): Promise<ActuatorResult | void>;
  /** Take over on the new seed from `obj.status.state` (copied there by gardenlet), then reconcile. */
  restore(ctx: ActuatorContext, obj: T): Promise<ActuatorResult | void>;
}

/**
 * A failure that is expected to pass: the status reports it (lastOperation state Error) and the object is reconciled
 * again after `requeueAfterMs` instead of with back-off (Gardener's `RequeueAfterError`).
 */
export class RequeueAfterError extends Error {
  override readonly name = 'RequeueAfterError';

  constructor(
    message: string,
    /** When to try again, in milliseconds. */
    readonly requeueAfterMs: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
