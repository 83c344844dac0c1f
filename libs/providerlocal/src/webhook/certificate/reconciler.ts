// The webhook certificate reconciler (Gardener's extension webhook certificate reconciler): every sync period the
// webhook server's certificates are generated again — the secrets manager renews the CA and the serving certificate
// before they expire — and when the CA bundle changed, the seed configuration has been updated by the server and the
// shoots' configurations are updated here: every shoot namespace's ManagedResource of the shoot webhooks gets the
// configuration with the new bundle (the old CA stays in it for a day, so nothing breaks in between).
import { Kinds, kind, type Client, type KubernetesObject, type ReconcileResult } from '@gardener-ts/controller-runtime';
import { shootWebhooksManagedResource } from '@gardener-ts/extensions';
import { ShootWebhooksManagedResourceName } from '../../controller/controlplane/actuator.js';

/** Gardener's sync period of the webhook certificates. */
export const DefaultCertificateSyncPeriodMs = 5 * 60_000;

const ManagedResourceKind = kind('resources.gardener.cloud/v1alpha1', 'ManagedResource');
const FieldManager = 'gardener-extension-provider-local';

/** What the reconciler needs of the webhook server. */
export interface CertificateRenewal {
  renewCertificates(): Promise<boolean>;
  shootWebhookConfiguration(): KubernetesObject | undefined;
}

/** Options of {@link WebhookCertificateReconciler}. */
export interface WebhookCertificateReconcilerOptions {
  webhooks: CertificateRenewal;
  /** The seed: lists the shoot webhooks' ManagedResources and applies them. */
  client: Pick<Client, 'list' | 'patch'>;
  syncPeriodMs?: number;
}

/** Renews the webhook certificates and spreads a new CA bundle into every shoot. */
export class WebhookCertificateReconciler {
  constructor(private readonly options: WebhookCertificateReconcilerOptions) {}

  async reconcile(): Promise<ReconcileResult> {
    const requeue = { requeueAfter: this.options.syncPeriodMs ?? DefaultCertificateSyncPeriodMs };
    if (!(await this.options.webhooks.renewCertificates())) return requeue;
    const configuration = this.options.webhooks.shootWebhookConfiguration();
    if (!configuration) return requeue;
    const { client } = this.options;
    const existing = await client.list(ManagedResourceKind);
    const namespaces = existing.items
      .filter((mr) => mr.metadata?.name === ShootWebhooksManagedResourceName && !mr.metadata.deletionTimestamp)
      .map((mr) => mr.metadata!.namespace!);
    for (const namespace of namespaces) {
      const [secret, managedResource] = shootWebhooksManagedResource('controlplane', namespace, configuration);
      for (const [target, obj] of [
        [Kinds.Secret, secret],
        [ManagedResourceKind, managedResource],
      ] as const) {
        await client.patch(
          target,
          { namespace, name: obj.metadata!.name! },
          { type: 'apply', patch: obj as unknown as Record<string, unknown>, fieldManager: FieldManager, force: true },
        );
      }
    }
    return requeue;
  }
}
