// Gardener's extension ClusterRole reconciler: a ClusterRole of the garden labelled
// `authorization.gardener.cloud/custom-extensions-permissions=true` gets a ClusterRoleBinding of the same name that
// binds it to the extensions' ServiceAccounts (namespaces `seed-*`) its selector annotation selects (`subjects.ts`).
import { isDeepStrictEqual } from 'node:util';
import {
  ignoreNotFound,
  Kinds,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { bindingContent, bindingSubjects, serviceAccountSelector, type ClusterRoleBinding } from './subjects.js';

export interface ExtensionClusterRoleReconcilerOptions {
  client: Pick<Client, 'get' | 'list' | 'create' | 'patch'>;
}

/** Keeps the ClusterRoleBinding of one extension ClusterRole in step with the ServiceAccounts it selects. */
export class ExtensionClusterRoleReconciler {
  constructor(private readonly o: ExtensionClusterRoleReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const clusterRole = await this.o.client.get(Kinds.ClusterRole, { name: req.name }).catch(ignoreNotFound);
    if (!clusterRole) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    if (clusterRole.metadata?.deletionTimestamp) return;

    let subjects;
    try {
      const selector = serviceAccountSelector(clusterRole.metadata?.annotations);
      const serviceAccounts = (await this.o.client.list(Kinds.ServiceAccount)).items;
      subjects = bindingSubjects(selector, serviceAccounts);
    } catch (err) {
      throw new Error(`failed computing subjects for ClusterRoleBinding of ClusterRole ${req.name}`, { cause: err });
    }
    const content = bindingContent(clusterRole, subjects);

    const existing = (await this.o.client.get(Kinds.ClusterRoleBinding, { name: req.name }).catch(ignoreNotFound)) as
      ClusterRoleBinding | undefined;
    if (!existing) {
      ctx.log.info({ subjects: subjects.length }, 'Creating ClusterRoleBinding');
      await this.o.client.create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: req.name, ...content.metadata },
        roleRef: content.roleRef,
        ...(content.subjects ? { subjects: content.subjects } : {}),
      } as ClusterRoleBinding);
      return;
    }
    const upToDate =
      isDeepStrictEqual(existing.metadata?.ownerReferences, content.metadata.ownerReferences) &&
      isDeepStrictEqual(existing.roleRef, content.roleRef) &&
      isDeepStrictEqual(existing.subjects ?? [], content.subjects ?? []);
    if (upToDate) return;
    ctx.log.info({ subjects: subjects.length }, 'Updating ClusterRoleBinding');
    // A merge patch replaces the lists as a whole; `null` removes the subjects when none are selected any more.
    await this.o.client.patch(
      Kinds.ClusterRoleBinding,
      { name: req.name },
      {
        type: 'merge',
        patch: { metadata: content.metadata, roleRef: content.roleRef, subjects: content.subjects ?? null },
      },
    );
  }
}
