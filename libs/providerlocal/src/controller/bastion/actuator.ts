// provider-local's Bastion actuator (type `local`; Gardener's pkg/provider-local/controller/bastion/actuator.go): applies
// the bastion's objects (./objects.ts) in the shoot namespace, replaces the Pod when its Secret's data changed (a Pod's
// spec is immutable, the program reads the files anew, but a rotated key must not wait for a kubelet volume sync),
// waits — polling every 5 s — until the Service has a load balancer address and the Pod is ready, and reports that
// address as `status.ingress`. Deletion deletes the objects and polls every 10 s until they are gone.
import {
  Kinds,
  ignoreNotFound,
  isNotFound,
  type Client,
  type KubernetesObject,
  type PodObject,
} from '@gardener-ts/controller-runtime';
import { RequeueAfterError, type Actuator, type ActuatorContext, type ActuatorResult } from '@gardener-ts/extensions';
import {
  ConfigChecksumAnnotation,
  DefaultBastionImage,
  bastionMeta,
  bastionNetworkPolicy,
  bastionPod,
  bastionRBAC,
  bastionSecret,
  bastionSecretData,
  bastionService,
  configChecksum,
  bastionIngress,
  podReady,
  type BastionObject,
} from './objects.js';

const FieldManager = 'gardener-extension-provider-local';
/** How long until a bastion that is not ready yet is looked at again (Gardener's 5 s). */
export const RequeueWhileNotReady = 5_000;
/** How long until a deletion still in progress is looked at again (Gardener's 10 s). */
export const RequeueWhileDeleting = 10_000;

/** Options of the Bastion actuator. */
export interface BastionActuatorOptions {
  /** The bastion Pod's image; `gardener-ts/bastion` by default. */
  image?: string;
}

/** The kinds of the bastion's objects, in the order they are applied (the Pod last: it needs the others). */
const ObjectKinds = [
  Kinds.Secret,
  Kinds.ServiceAccount,
  Kinds.Role,
  Kinds.RoleBinding,
  Kinds.Service,
  Kinds.NetworkPolicy,
  Kinds.Pod,
] as const;

/** provider-local's Bastion actuator. */
export class BastionActuator implements Actuator<BastionObject> {
  private readonly image: string;

  constructor(options: BastionActuatorOptions = {}) {
    this.image = options.image ?? DefaultBastionImage;
  }

  async reconcile(ctx: ActuatorContext, bastion: BastionObject): Promise<ActuatorResult> {
    const client = ctx.client;
    const meta = bastionMeta(bastion);
    const checksum = configChecksum(bastionSecretData(bastion));
    for (const obj of [bastionSecret(bastion), ...bastionRBAC(bastion), bastionNetworkPolicy(bastion)]) {
      await apply(client, obj);
    }
    const service = await apply(client, bastionService(bastion));

    let pod = await client.get(Kinds.Pod, meta).catch(ignoreNotFound);
    if (pod && pod.metadata?.annotations?.[ConfigChecksumAnnotation] !== checksum && !pod.metadata?.deletionTimestamp) {
      ctx.log.info({ pod: meta.name }, 'Bastion configuration changed, replacing its Pod');
      await client.delete(Kinds.Pod, meta).catch(ignoreNotFound);
      throw new RequeueAfterError('waiting for the old Bastion Pod to be deleted', RequeueWhileNotReady);
    }
    if (pod?.metadata?.deletionTimestamp) {
      throw new RequeueAfterError('waiting for the old Bastion Pod to be deleted', RequeueWhileNotReady);
    }
    if (!pod) pod = (await apply(client, bastionPod(bastion, this.image, checksum))) as PodObject;

    const ingress = bastionIngress(service, pod);
    if (!ingress) {
      throw new RequeueAfterError(
        `waiting for the load balancer of Bastion Service ${meta.namespace}/${meta.name} to get an address`,
        RequeueWhileNotReady,
      );
    }
    if (!podReady(pod)) {
      throw new RequeueAfterError(
        `waiting for Bastion Pod ${meta.namespace}/${meta.name} to get ready`,
        RequeueWhileNotReady,
      );
    }
    return { status: { ingress } };
  }

  async delete(ctx: ActuatorContext, bastion: BastionObject): Promise<void> {
    const remaining = await deleteObjects(ctx.client, bastion);
    if (remaining > 0) {
      throw new RequeueAfterError(`waiting for ${remaining} bastion resources to be deleted`, RequeueWhileDeleting);
    }
  }

  /** As Gardener: nothing outside the seed to wait for; the objects are deleted without waiting for them to go. */
  async forceDelete(ctx: ActuatorContext, bastion: BastionObject): Promise<void> {
    await deleteObjects(ctx.client, bastion);
  }

  /** A bastion does not move with its shoot: its objects are released here; the new seed creates its own. */
  async migrate(ctx: ActuatorContext, bastion: BastionObject): Promise<void> {
    await deleteObjects(ctx.client, bastion);
  }

  async restore(ctx: ActuatorContext, bastion: BastionObject): Promise<ActuatorResult> {
    return this.reconcile(ctx, bastion);
  }
}

/** Server-side applies `obj` with provider-local's field manager; returns the object as stored. */
async function apply(client: Pick<Client, 'patch'>, obj: KubernetesObject): Promise<KubernetesObject> {
  const kind = ObjectKinds.find((k) => k.kind === obj.kind && k.apiVersion === obj.apiVersion);
  if (!kind) throw new Error(`no kind for ${obj.apiVersion}/${obj.kind}`);
  const key = { namespace: obj.metadata!.namespace!, name: obj.metadata!.name! };
  try {
    return await client.patch(kind, key, {
      type: 'apply',
      patch: obj as unknown as Record<string, unknown>,
      fieldManager: FieldManager,
      force: true,
    });
  } catch (err) {
    throw new Error(`failed to apply ${obj.kind} ${key.namespace}/${key.name}`, { cause: err });
  }
}

/** Deletes the bastion's objects; returns how many still existed. */
async function deleteObjects(client: Pick<Client, 'delete'>, bastion: BastionObject): Promise<number> {
  const key = bastionMeta(bastion);
  let remaining = 0;
  for (const kind of ObjectKinds) {
    try {
      await client.delete(kind, { namespace: key.namespace, name: key.name });
      remaining++;
    } catch (err) {
      if (isNotFound(err)) continue;
      throw new Error(`could not delete ${kind.kind} ${key.namespace}/${key.name}`, { cause: err });
    }
  }
  return remaining;
}
