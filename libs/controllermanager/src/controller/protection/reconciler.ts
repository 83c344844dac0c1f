// One reconciler for Gardener's protection controllers (CloudProfile, NamespacedCloudProfile, ExposureClass, Quota,
// ControllerDeployment): the finalizer is added to every object; a deleted object keeps it — with an event
// `ResourceReferenced` and an error naming its users, retried with back-off — until nothing uses it any more.
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  removeFinalizer,
  type Client,
  type EventRecorder,
  type Kind,
  type KubernetesObject,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';

/** A protected kind: its finalizer, who uses an object of it, and how Gardener words the refusal. */
export interface Protection<T extends KubernetesObject = KubernetesObject> {
  kind: Kind<T>;
  finalizer: string;
  users: (client: Client, obj: T) => Promise<string[]>;
  refusal: (obj: T, users: string[]) => string;
}

/** Keeps the finalizer of one protected kind. */
export class ProtectionReconciler<T extends KubernetesObject> {
  constructor(
    private readonly client: Client,
    private readonly protection: Protection<T>,
    private readonly events?: Pick<EventRecorder, 'event'>,
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const { kind, finalizer } = this.protection;
    const obj = await this.client.get(kind, req).catch(ignoreNotFound);
    if (!obj) return;
    if (!obj.metadata?.deletionTimestamp) {
      if (!hasFinalizer(obj, finalizer)) {
        ctx.log.info('Adding finalizer');
        await addFinalizer(this.client, obj, finalizer);
      }
      return;
    }
    if (!hasFinalizer(obj, finalizer)) return;
    const users = await this.protection.users(this.client, obj);
    if (users.length > 0) {
      const message = this.protection.refusal(obj, users);
      this.events?.event(obj, 'Normal', 'ResourceReferenced', message);
      throw new Error(message);
    }
    ctx.log.info('No users left, removing finalizer');
    await removeFinalizer(this.client, obj, finalizer);
  }
}
