// Gardener's NamespacedCloudProfile status reconciler: writes `status.cloudProfileSpec` (the parent merged with the
// namespaced profile, `merge.ts`) and `status.observedGeneration` whenever either changes.
import { ignoreNotFound, type Client, type ReconcileContext, type Request } from '@gardener-ts/controller-runtime';
import { CloudProfileKind, NamespacedCloudProfileKind } from '../../kinds.js';
import { mergeCloudProfileSpec } from './merge.js';

/** Keeps one NamespacedCloudProfile's status current. */
export class NamespacedCloudProfileReconciler {
  constructor(private readonly client: Pick<Client, 'get' | 'patch'>) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const profile = await this.client.get(NamespacedCloudProfileKind, req).catch(ignoreNotFound);
    if (!profile || profile.metadata?.deletionTimestamp) return;
    const parent = await this.client
      .get(CloudProfileKind, { namespace: '', name: profile.spec.parent.name })
      .catch(ignoreNotFound);
    if (!parent)
      throw new Error(
        `parent CloudProfile "${profile.spec.parent.name}" of NamespacedCloudProfile ${req.namespace}/${req.name} not found`,
      );
    const cloudProfileSpec = mergeCloudProfileSpec(parent.spec, profile.spec);
    const generation = profile.metadata?.generation;
    if (
      profile.status?.observedGeneration === generation &&
      JSON.stringify(profile.status?.cloudProfileSpec) === JSON.stringify(cloudProfileSpec)
    ) {
      return;
    }
    ctx.log.info('Updating the merged CloudProfile spec');
    await this.client.patch(
      NamespacedCloudProfileKind,
      req,
      { type: 'merge', patch: { status: { cloudProfileSpec, observedGeneration: generation } } },
      { subresource: 'status' },
    );
  }
}
