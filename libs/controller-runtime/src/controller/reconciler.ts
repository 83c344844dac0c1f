// The reconciler contract: given a namespace and name, make the world match the object's desired state.
import type { Logger } from '@gardener-ts/logging';
import type { Request } from './request.js';

export interface ReconcileContext {
  /** Aborted when the controller stops; long waits should end then. The reconcile in progress is still awaited. */
  signal: AbortSignal;
  /** A logger with the controller name and the request's namespace and name. */
  log: Logger;
  controller: string;
}

/**
 * What to do next. Nothing (or `{}`): done until the next event. `requeueAfter`: reconcile again after that many
 * milliseconds. `requeue`: again after the rate limiter's back-off. Throwing: log and retry with back-off.
 */
export interface ReconcileResult {
  requeue?: boolean;
  requeueAfter?: number;
}

export type ReconcileFunc = (request: Request, ctx: ReconcileContext) => Promise<ReconcileResult | void>;

export type Reconciler = ReconcileFunc | { reconcile: ReconcileFunc };
