// Gardener's seed secrets reconciler: for one Seed, the namespace `seed-<name>` in the garden and the copies of the
// garden's role-labelled Secrets in it (plan in `sync.ts`), kept in step with their originals.
import type { Seed } from '@gardener-ts/api';
import {
  ignoreNotFound,
  Kinds,
  wrapError,
  type Client,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { SeedKind } from '../../../kinds.js';
import { planSecretSync, planSeedNamespace, seedNamespaceName, type NamespaceLike } from './sync.js';

export interface SeedSecretsReconcilerOptions {
  /** Cached reads (Seeds, the Secrets of `garden`) and writes in the garden. */
  client: Pick<Client, 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete'>;
  /**
   * Live reads of the seed namespace and its Secrets: the manager caches Secrets of `garden` only, and a cache that
   * has not seen a copy yet would make the next sync create it a second time.
   */
  api: Pick<Client, 'get' | 'list'>;
  /** The namespace of the originals: `garden`. */
  gardenNamespace: string;
}

/** Creates `seed-<name>` for a Seed and syncs the garden Secrets into it. */
export class SeedSecretsReconciler {
  constructor(private readonly o: SeedSecretsReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const seed = await this.o.client.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seed) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const namespace = await this.ensureNamespace(seed, ctx);
    try {
      await this.syncSecrets(namespace, ctx);
    } catch (err) {
      throw wrapError(err, `failed to sync garden secrets into namespace ${namespace}`);
    }
  }

  private async ensureNamespace(seed: Seed, ctx: ReconcileContext): Promise<string> {
    const name = seedNamespaceName(seed.metadata!.name!);
    const existing = (await this.o.api.get(Kinds.Namespace, { name }).catch(ignoreNotFound)) as
      NamespaceLike | undefined;
    const plan = planSeedNamespace(seed, existing);
    switch (plan.action) {
      case 'create':
        ctx.log.info({ gardenNamespace: name }, 'Creating Namespace in garden for Seed');
        await this.o.client.create(plan.namespace);
        break;
      case 'label':
        await this.o.client.patch(
          Kinds.Namespace,
          { name },
          { type: 'merge', patch: { metadata: { labels: plan.labels } } },
        );
        break;
      case 'refuse':
        throw new Error(plan.error);
      case 'keep':
        break;
    }
    return name;
  }

  private async syncSecrets(namespace: string, ctx: ReconcileContext): Promise<void> {
    const [garden, copies] = await Promise.all([
      this.o.client.list(Kinds.Secret, { namespace: this.o.gardenNamespace }),
      this.o.api.list(Kinds.Secret, { namespace }),
    ]);
    const plan = planSecretSync(garden.items, copies.items, namespace);
    await Promise.all([
      ...plan.create.map((secret) => this.o.client.create(secret)),
      // A replace with the resourceVersion read: labels, annotations, type and data become the original's exactly.
      ...plan.update.map(({ desired, existing }) =>
        this.o.client.update({
          ...desired,
          metadata: {
            ...existing.metadata,
            labels: desired.metadata?.labels ?? {},
            annotations: desired.metadata?.annotations ?? {},
          },
        }),
      ),
      ...plan.delete.map((name) =>
        this.o.client.delete(Kinds.Secret, { namespace, name }).catch((err) => ignoreNotFound(err)),
      ),
    ]);
    if (plan.create.length + plan.update.length + plan.delete.length > 0) {
      ctx.log.info(
        { gardenNamespace: namespace, created: plan.create.length, updated: plan.update.length, deleted: plan.delete },
        'Synced garden secrets',
      );
    }
  }
}
