// Gardener's event controller: Events in the garden about anything but Shoots are deleted once `ttlNonShootEvents`
// has passed since they were last seen; Shoot events stay (the API server's own event TTL handles them).
import {
  ignoreNotFound,
  Kinds,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';

/** An Event as the controller reads it (core/v1). */
export interface EventLike {
  involvedObject?: { apiVersion?: string; kind?: string };
  lastTimestamp?: string;
  eventTime?: string;
  metadata?: { creationTimestamp?: string };
}

/** Whether the Event is about a Shoot. */
export function isShootEvent(event: EventLike): boolean {
  return (
    event.involvedObject?.kind === 'Shoot' && (event.involvedObject.apiVersion ?? '').startsWith('core.gardener.cloud/')
  );
}

/** Milliseconds until the Event is to be deleted (≤ 0: now); undefined for Shoot events, which are kept. */
export function eventDeletionDueInMs(event: EventLike, ttlMs: number, now: Date): number | undefined {
  if (isShootEvent(event)) return undefined;
  const seen = event.lastTimestamp ?? event.eventTime ?? event.metadata?.creationTimestamp;
  const last = seen ? new Date(seen).getTime() : now.getTime();
  return last + ttlMs - now.getTime();
}

/** Deletes one expired non-shoot Event. */
export class EventReconciler {
  constructor(
    private readonly client: Pick<Client, 'get' | 'delete'>,
    private readonly ttlMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const event = (await this.client.get(Kinds.Event, req).catch(ignoreNotFound)) as (EventLike & object) | undefined;
    if (!event) return;
    const due = eventDeletionDueInMs(event, this.ttlMs, this.now());
    if (due === undefined) return;
    if (due > 0) return { requeueAfter: due };
    ctx.log.debug('Deleting expired event');
    await this.client.delete(Kinds.Event, req).catch(ignoreNotFound);
  }
}
