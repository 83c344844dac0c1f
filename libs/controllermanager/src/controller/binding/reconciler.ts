// Gardener's SecretBinding and CredentialsBinding controllers: the binding's `gardener` finalizer; finalizer and labels
// on its Secret and the reference label on its Quotas (`binding.ts`); deletion waits while Shoots use the binding and
// then releases the Secret unless another binding still references it. Secrets are read live (the cache holds only
// the garden namespace's).
import { Finalizers } from '@gardener-ts/api';
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  Kinds,
  removeFinalizer,
  type Client,
  type Kind,
  type KubernetesObject,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { CredentialsBindingKind, QuotaKind, SecretBindingKind, ShootKind } from '../../kinds.js';
import {
  ProviderLabelPrefix,
  referenceLabel,
  secretRelease,
  shootsUsingBinding,
  viewCredentialsBinding,
  viewSecretBinding,
  type BindingView,
} from './binding.js';

/** Reconciles one binding of `kind`. */
export class BindingReconciler {
  constructor(
    private readonly client: Client,
    private readonly kind: 'SecretBinding' | 'CredentialsBinding',
    /** Live reads of Secrets: the cache holds only the garden namespace's. */
    private readonly secrets: Pick<Client, 'get' | 'patch'> = client,
  ) {}

  private get bindingKind(): Kind<KubernetesObject> {
    return (this.kind === 'SecretBinding' ? SecretBindingKind : CredentialsBindingKind) as Kind<KubernetesObject>;
  }

  private async allBindings(): Promise<BindingView[]> {
    const [secretBindings, credentialsBindings] = await Promise.all([
      this.client.list(SecretBindingKind),
      this.client.list(CredentialsBindingKind),
    ]);
    return [...secretBindings.items.map(viewSecretBinding), ...credentialsBindings.items.map(viewCredentialsBinding)];
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const obj = await this.client.get(this.bindingKind, req).catch(ignoreNotFound);
    if (!obj) return;
    const view = this.kind === 'SecretBinding' ? viewSecretBinding(obj as never) : viewCredentialsBinding(obj as never);
    if (view.deleting) {
      if (!hasFinalizer(obj, Finalizers.GardenerFinalizer)) return;
      const users = shootsUsingBinding(view, (await this.client.list(ShootKind, { namespace: view.namespace })).items);
      if (users.length > 0)
        throw new Error(
          `Cannot delete ${this.kind}, because the following Shoots are still referencing it: [${users.join(' ')}]`,
        );
      if (view.secret) await this.releaseSecret(view, ctx);
      ctx.log.info('Removing finalizer');
      await removeFinalizer(this.client, obj, Finalizers.GardenerFinalizer);
      return;
    }
    if (!hasFinalizer(obj, Finalizers.GardenerFinalizer))
      await addFinalizer(this.client, obj, Finalizers.GardenerFinalizer);
    const label = referenceLabel(this.kind);
    if (view.secret) {
      const secret = await this.secrets.get(Kinds.Secret, view.secret).catch(ignoreNotFound);
      if (!secret)
        throw new Error(
          `${this.kind} ${view.namespace}/${view.name} references Secret ${view.secret.namespace}/${view.secret.name}, which does not exist`,
        );
      const labels: Record<string, string> = {
        [label]: 'true',
        ...(view.providerType ? { [ProviderLabelPrefix + view.providerType]: 'true' } : {}),
      };
      if (Object.entries(labels).some(([k, v]) => secret.metadata?.labels?.[k] !== v)) {
        await this.client.patch(Kinds.Secret, view.secret, { type: 'merge', patch: { metadata: { labels } } });
      }
      if (!hasFinalizer(secret, Finalizers.ExternalGardenerFinalizer))
        await addFinalizer(this.secrets, secret, Finalizers.ExternalGardenerFinalizer);
    }
    for (const quota of view.quotas) {
      const q = await this.client.get(QuotaKind, quota).catch(ignoreNotFound);
      if (q && q.metadata?.labels?.[label] !== 'true') {
        await this.client.patch(QuotaKind, quota, {
          type: 'merge',
          patch: { metadata: { labels: { [label]: 'true' } } },
        });
      }
    }
  }

  private async releaseSecret(view: BindingView, ctx: ReconcileContext): Promise<void> {
    const secret = await this.secrets.get(Kinds.Secret, view.secret!).catch(ignoreNotFound);
    if (!secret) return;
    const release = secretRelease(view, await this.allBindings());
    if (release.removeLabels.length > 0) {
      const labels = Object.fromEntries(release.removeLabels.map((l) => [l, null]));
      await this.client.patch(Kinds.Secret, view.secret!, { type: 'merge', patch: { metadata: { labels } } });
    }
    if (release.removeFinalizer) {
      ctx.log.info({ secret: `${view.secret!.namespace}/${view.secret!.name}` }, 'Releasing the Secret');
      await removeFinalizer(this.secrets, secret, Finalizers.ExternalGardenerFinalizer);
    }
  }
}
