// Gardener's Project reconciler: the `gardener` finalizer, phase Pending → Ready, the project namespace (created,
// adopted or refused — `namespace.ts`), `spec.namespace` filled in, the configured ResourceQuota (`quota.ts`) created or
// merged, the project RBAC (`rbac.ts`) applied and stale extension roles removed. Deletion waits while Shoots remain in the namespace (phase Terminating), then deletes or
// releases the namespace and waits until it is gone before the finalizer goes.
import { Finalizers, type Project } from '@gardener-ts/api';
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  Kinds,
  removeFinalizer,
  type ApiClient,
  type Client,
  type EventRecorder,
  type KubernetesObject,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ProjectKind, ShootKind } from '../../kinds.js';
import { planNamespaceRelease, planProjectNamespace, projectNamespaceName, type NamespaceLike } from './namespace.js';
import {
  desiredResourceQuota,
  projectControllerRef,
  quotaConfigurationForProject,
  ResourceQuotaKind,
  ResourceQuotaName,
  resourceQuotaPatch,
  type QuotaConfiguration,
} from './quota.js';
import { desiredProjectRBAC, extensionRoleLabels, extensionRoleOf, wantedExtensionRoles } from './rbac.js';

/** The field manager of the objects the controller applies. */
export const FieldManager = 'gardener-controller-manager';
/** Gardener's Project event reasons. */
export const ProjectEvent = {
  NamespaceReconcileFailed: 'NamespaceReconcileFailed',
  NamespaceReconcileSuccessful: 'NamespaceReconcileSuccessful',
  NamespaceNotEmpty: 'NamespaceNotEmpty',
  NamespaceDeletionFailed: 'NamespaceDeletionFailed',
  NamespaceMarkedForDeletion: 'NamespaceMarkedForDeletion',
} as const;

type Phase = 'Pending' | 'Ready' | 'Terminating' | 'Failed';

export interface ProjectReconcilerOptions {
  /** Cached reads, live writes. */
  client: Client;
  /** Server-side apply of the RBAC objects. */
  api: Pick<ApiClient, 'apply'>;
  events?: Pick<EventRecorder, 'event'>;
  /** How often a terminating project checks again whether its namespace is gone. */
  terminatingRecheckMs?: number;
  /** `controllers.project.quotas`: the ResourceQuota of the first entry matching a project goes to its namespace. */
  quotas?: readonly QuotaConfiguration[];
}

/** Reconciles one Project. */
export class ProjectReconciler {
  constructor(private readonly o: ProjectReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const project = await this.o.client.get(ProjectKind, { name: req.name }).catch(ignoreNotFound);
    if (!project) return;
    if (project.metadata?.deletionTimestamp) {
      ctx.log.info('Deleting project');
      return this.delete(project, ctx);
    }
    ctx.log.info('Reconciling project');
    await this.reconcileProject(project, ctx);
  }

  private async phase(project: Project, phase: Phase): Promise<void> {
    await this.o.client.patch(
      ProjectKind,
      { name: project.metadata!.name! },
      { type: 'merge', patch: { status: { phase, observedGeneration: project.metadata?.generation } } },
      { subresource: 'status' },
    );
  }

  private async failed(project: Project, ctx: ReconcileContext, reason: string, err: unknown): Promise<never> {
    const message = err instanceof Error ? err.message : String(err);
    this.o.events?.event(project, 'Warning', reason, message);
    await this.phase(project, 'Failed').catch((e: unknown) =>
      ctx.log.error({ err: e }, 'Failed to update Project status'),
    );
    throw err instanceof Error ? err : new Error(message);
  }

  private async reconcileProject(original: Project, ctx: ReconcileContext): Promise<void> {
    let project = original;
    if (!hasFinalizer(project, Finalizers.GardenerFinalizer)) {
      ctx.log.info('Adding finalizer');
      project = await addFinalizer(this.o.client, project, Finalizers.GardenerFinalizer);
    }
    if (!project.status?.phase) await this.phase(project, 'Pending');

    const name = projectNamespaceName(project);
    const existing = (await this.o.client.get(Kinds.Namespace, { name }).catch(ignoreNotFound)) as
      NamespaceLike | undefined;
    const plan = planProjectNamespace(project, existing);
    try {
      if (plan.action === 'refuse') throw new Error(plan.error);
      if (plan.action === 'create') {
        ctx.log.info({ namespaceName: name }, 'Creating Namespace for Project');
        await this.o.client.create(plan.namespace as KubernetesObject);
      } else if (plan.action === 'adopt') {
        ctx.log.info({ namespaceName: name }, 'Adopting Namespace for Project');
        const { labels, annotations, ownerReferences } = plan.metadata;
        await this.o.client.patch(
          Kinds.Namespace,
          { name },
          { type: 'merge', patch: { metadata: { labels, annotations, ownerReferences } } },
        );
      }
    } catch (err) {
      return this.failed(project, ctx, ProjectEvent.NamespaceReconcileFailed, err);
    }
    this.o.events?.event(
      project,
      'Normal',
      ProjectEvent.NamespaceReconcileSuccessful,
      `Successfully reconciled namespace "${name}" for project`,
    );

    if (!project.spec?.namespace) {
      try {
        project = await this.o.client.patch(
          ProjectKind,
          { name: project.metadata!.name! },
          {
            type: 'merge',
            patch: { metadata: { resourceVersion: project.metadata!.resourceVersion }, spec: { namespace: name } },
          },
        );
      } catch (err) {
        return this.failed(project, ctx, ProjectEvent.NamespaceReconcileFailed, err);
      }
    }

    try {
      await this.reconcileResourceQuota(project, name, ctx);
    } catch (err) {
      return this.failed(
        project,
        ctx,
        ProjectEvent.NamespaceReconcileFailed,
        new Error(`Error while setting up ResourceQuota: ${(err as Error).message}`, { cause: err }),
      );
    }

    try {
      for (const obj of desiredProjectRBAC(project)) {
        await this.o.api.apply(obj as KubernetesObject, { fieldManager: FieldManager, force: true });
      }
      await this.deleteStaleExtensionRoles(project);
    } catch (err) {
      return this.failed(
        project,
        ctx,
        ProjectEvent.NamespaceReconcileFailed,
        new Error(`Error while reconciling RBAC resources for namespace "${name}": ${(err as Error).message}`, {
          cause: err,
        }),
      );
    }
    await this.phase(project, 'Ready');
  }

  /** Creates the configured ResourceQuota `gardener` in the project namespace, or merges it into the existing one. */
  private async reconcileResourceQuota(project: Project, namespace: string, ctx: ReconcileContext): Promise<void> {
    const config = quotaConfigurationForProject(this.o.quotas, project);
    if (!config) return;
    const key = { namespace, name: ResourceQuotaName };
    const existing = await this.o.client.get(ResourceQuotaKind, key).catch(ignoreNotFound);
    const desired = desiredResourceQuota(existing, namespace, projectControllerRef(project), config);
    if (!existing) {
      ctx.log.info({ namespaceName: namespace }, 'Creating ResourceQuota for Project');
      await this.o.client.create(desired);
      return;
    }
    const patch = resourceQuotaPatch(existing, desired);
    if (patch) await this.o.client.patch(ResourceQuotaKind, key, { type: 'merge', patch });
  }

  /** Removes extension role ClusterRoles and RoleBindings no member asks for any more. */
  private async deleteStaleExtensionRoles(project: Project): Promise<void> {
    const projectName = project.metadata!.name!;
    const wanted = wantedExtensionRoles(project);
    const labelSelector = extensionRoleLabels(projectName);
    const namespace = project.spec!.namespace!;
    const [bindings, roles] = await Promise.all([
      this.o.client.list(Kinds.RoleBinding, { namespace, labelSelector }),
      this.o.client.list(Kinds.ClusterRole, { labelSelector }),
    ]);
    for (const obj of bindings.items) {
      if (wanted.has(extensionRoleOf(obj.metadata!.name!, projectName))) continue;
      await this.o.client.delete(Kinds.RoleBinding, { namespace, name: obj.metadata!.name! }).catch(ignoreNotFound);
    }
    for (const obj of roles.items) {
      if (wanted.has(extensionRoleOf(obj.metadata!.name!, projectName))) continue;
      await this.o.client.delete(Kinds.ClusterRole, { name: obj.metadata!.name! }).catch(ignoreNotFound);
    }
  }

  private async delete(project: Project, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    if (!hasFinalizer(project, Finalizers.GardenerFinalizer)) return;
    const namespace = project.spec?.namespace;
    if (namespace) {
      const shoots = await this.o.client.list(ShootKind, { namespace });
      if (shoots.items.length > 0) {
        this.o.events?.event(
          project,
          'Warning',
          ProjectEvent.NamespaceNotEmpty,
          `Cannot release namespace "${namespace}" because it still contains Shoots`,
        );
        ctx.log.info({ namespaceName: namespace }, 'Cannot release Project Namespace because it still contains Shoots');
        await this.phase(project, 'Terminating');
        return;
      }
      const existing = (await this.o.client.get(Kinds.Namespace, { name: namespace }).catch(ignoreNotFound)) as
        NamespaceLike | undefined;
      const release = planNamespaceRelease(project, existing);
      try {
        if (release.action === 'keep') {
          ctx.log.info({ namespaceName: namespace }, 'Project Namespace should be kept, removing owner references');
          const { labels, annotations, ownerReferences } = release.metadata;
          await this.o.client.patch(
            Kinds.Namespace,
            { name: namespace },
            {
              type: 'json',
              patch: [
                { op: 'replace', path: '/metadata/labels', value: labels ?? {} },
                { op: 'replace', path: '/metadata/annotations', value: annotations ?? {} },
                { op: 'replace', path: '/metadata/ownerReferences', value: ownerReferences ?? [] },
              ],
            },
          );
        } else if (release.action === 'delete') {
          ctx.log.info({ namespaceName: namespace }, 'Deleting Project Namespace');
          await this.o.client.delete(Kinds.Namespace, { name: namespace }).catch(ignoreNotFound);
        }
      } catch (err) {
        this.o.events?.event(
          project,
          'Warning',
          ProjectEvent.NamespaceDeletionFailed,
          `Failed to release project namespace "${namespace}": ${(err as Error).message}`,
        );
        await this.phase(project, 'Failed').catch(() => undefined);
        throw new Error(`failed to release project namespace: ${(err as Error).message}`, { cause: err });
      }
      if (release.action === 'delete' || release.action === 'wait') {
        this.o.events?.event(
          project,
          'Normal',
          ProjectEvent.NamespaceMarkedForDeletion,
          `Successfully marked project namespace "${namespace}" for deletion`,
        );
        await this.phase(project, 'Terminating');
        // The namespace's deletion event brings the project back; this is the safety net.
        return { requeueAfter: this.o.terminatingRecheckMs ?? 60_000 };
      }
    }
    ctx.log.info('Removing finalizer');
    await removeFinalizer(this.o.client, project, Finalizers.GardenerFinalizer);
  }
}
