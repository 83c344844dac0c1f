// The Bastion reconciler (Gardener pkg/gardenlet/controller/bastion/reconciler.go): for the core Bastions of this
// seed, the `gardener` finalizer; the extension Bastion in the shoot's control plane namespace deployed with a
// reconcile request when it is missing, outdated or Failed; its errors reported as `BastionReady` False
// `FailedReconciling`, its success as `BastionReady` True with its `status.ingress` and the observed generation. A
// deleted Bastion is marked `DeletionInProgress`, its extension Bastion deleted (its forced deletion passed on) and
// polled until gone, then the finalizer released. A Bastion whose Shoot cannot be read is an error, as in Gardener
// (the controller-manager deletes Bastions of missing Shoots); once such a Bastion is being deleted, its finalizer is
// released, since the Shoot's control plane namespace went with the Shoot.
import { Finalizers } from '@gardener-ts/api';
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  isNotFound,
  messageOf,
  patchStatus,
  removeFinalizer,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ExtensionResources } from '../../shoot/extension-resources.js';
import { BastionKind, ExtensionBastionKind, ShootKind, type CoreBastion, type Shoot } from './kinds.js';
import { ConfirmationForceDeletion, extensionKey, renderExtensionBastion } from './objects.js';
import { deletingStatus, extensionVerdict, failedMessage, failedStatus, succeededStatus } from './status.js';

/** How long until a deletion still in progress is looked at again (Gardener's 5 s). */
export const RequeueWhileDeleting = 5_000;

/** What the reconciler needs. */
export interface BastionReconcilerDeps {
  garden: Pick<Client, 'get' | 'patch'>;
  seed: Pick<Client, 'get' | 'patch' | 'delete'>;
  seedName: string;
  now?: () => Date;
}

/** Reconciles this seed's core Bastions into extension Bastions. */
export class BastionReconciler {
  private readonly resources: ExtensionResources;

  constructor(private readonly deps: BastionReconcilerDeps) {
    this.resources = new ExtensionResources(deps.seed);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const bastion = await this.deps.garden
      .get(BastionKind, { namespace: req.namespace, name: req.name })
      .catch(ignoreNotFound);
    if (!bastion || bastion.spec.seedName !== this.deps.seedName) return;
    const shootKey = { namespace: bastion.metadata?.namespace, name: bastion.spec.shootRef.name };
    const shoot = await this.deps.garden.get(ShootKind, shootKey).catch((err: unknown) => {
      if (isNotFound(err) && bastion.metadata?.deletionTimestamp) return undefined;
      throw new Error(`could not get shoot ${shootKey.namespace}/${shootKey.name}`, { cause: err });
    });
    if (!shoot) {
      ctx.log.info({ shoot: shootKey.name }, 'Shoot is gone with its control plane namespace, removing finalizer');
      await removeFinalizer(this.deps.garden, bastion, Finalizers.GardenerFinalizer);
      return;
    }
    if (bastion.metadata?.deletionTimestamp) return this.cleanup(bastion, shoot, ctx);
    return this.apply(bastion, shoot);
  }

  // The reconcile branch: finalizer, the extension Bastion (deployed when needed) and its state mirrored.
  private async apply(original: CoreBastion, shoot: Shoot): Promise<ReconcileResult | void> {
    const { garden, seed } = this.deps;
    let bastion = await addFinalizer(garden, original, Finalizers.GardenerFinalizer);
    const key = extensionKey(bastion, shoot);
    let rendered;
    try {
      rendered = renderExtensionBastion(bastion, shoot, this.now());
    } catch (err) {
      await patchStatus(garden, bastion, failedStatus(bastion, messageOf(err), this.now()));
      throw err;
    }
    const current = await seed.get(ExtensionBastionKind, key).catch(ignoreNotFound);
    const verdict = extensionVerdict(current, rendered.spec);
    if (verdict.error) {
      const message = failedMessage(key, verdict.error.description);
      bastion = await patchStatus(garden, bastion, failedStatus(bastion, message, this.now()));
    }
    if (verdict.deploy) {
      try {
        await this.resources.deploy(rendered);
      } catch (err) {
        await patchStatus(garden, bastion, failedStatus(bastion, chain(err), this.now())).catch(ignoreNotFound);
        throw new Error('failed to ensure bastion extension resource', { cause: err });
      }
      // The extension's status update brings the Bastion back here (the controller watches extension Bastions).
      return;
    }
    if (verdict.succeeded && current) {
      await patchStatus(garden, bastion, succeededStatus(bastion, current, this.now()));
    }
  }

  // The deletion branch: DeletionInProgress, the extension Bastion deleted and waited for, the finalizer released.
  private async cleanup(original: CoreBastion, shoot: Shoot, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const { garden, seed } = this.deps;
    if (!hasFinalizer(original, Finalizers.GardenerFinalizer)) return;
    const bastion = await patchStatus(garden, original, deletingStatus(original, this.now()));
    const key = extensionKey(bastion, shoot);
    if (bastion.metadata?.annotations?.[ConfirmationForceDeletion] === 'true') await this.forceDeletion(key);
    try {
      await seed.delete(ExtensionBastionKind, key);
    } catch (err) {
      if (!isNotFound(err)) {
        throw new Error(`failed to delete bastion extension resource ${key.namespace}/${key.name}`, { cause: err });
      }
      ctx.log.info({ extensionBastion: `${key.namespace}/${key.name}` }, 'extension Bastion deleted');
      await removeFinalizer(garden, bastion, Finalizers.GardenerFinalizer);
      return;
    }
    ctx.log.info({ extensionBastion: `${key.namespace}/${key.name}` }, 'extension Bastion cleanup not completed yet');
    return { requeueAfter: RequeueWhileDeleting };
  }

  // Passes the forced deletion on to the extension Bastion, unless it has it (or is gone).
  private async forceDeletion(key: { namespace: string; name: string }): Promise<void> {
    const current = await this.deps.seed.get(ExtensionBastionKind, key).catch(ignoreNotFound);
    if (!current || current.metadata?.annotations?.[ConfirmationForceDeletion] === 'true') return;
    await this.deps.seed
      .patch(ExtensionBastionKind, key, {
        type: 'merge',
        patch: { metadata: { annotations: { [ConfirmationForceDeletion]: 'true' } } },
      })
      .catch(ignoreNotFound);
  }
}

// The message with its causes, as Go's wrapped errors read.
function chain(err: unknown): string {
  const messages: string[] = [];
  for (let e: unknown = err; e !== undefined; e = e instanceof Error ? e.cause : undefined) messages.push(messageOf(e));
  return messages.join(': ');
}
