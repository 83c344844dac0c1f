// Gardener's `project-stale` reconciler: every `staleSyncPeriod` a Project with a namespace is checked. A namespace
// annotated `project.gardener.cloud/skip-stale-check`, a project younger than `minimumLifetimeDays` or active within
// them, or one in use (Shoots, BackupEntries, its Secrets/InternalSecrets/Quotas used through bindings by Shoots — see
// `usage.ts`) is not stale: the stale timestamps are cleared. Otherwise it is marked stale (`staleness.ts`), and once
// its auto-delete date is reached it is deleted with the deletion confirmation annotation.
import { corev1beta1, Annotations, type InternalSecret, type Project } from '@gardener-ts/api';
import {
  ignoreNotFound,
  isNotFound,
  kindFrom,
  Kinds,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import {
  BackupEntryKind,
  CredentialsBindingKind,
  ProjectKind,
  QuotaKind,
  SecretBindingKind,
  ShootKind,
} from '../../../kinds.js';
import { autoDeleteDue, notStaleReason, staleStatus, staleStatusPatch, type StaleSettings } from './staleness.js';
import {
  bindingsOfQuotas,
  credentialsBindingsOf,
  LabelCredentialsBindingReference,
  LabelSecretBindingReference,
  secretBindingsOfSecrets,
  skipsStaleCheck,
  uncontrolledSecretSelector,
  usedByShoots,
} from './usage.js';

const InternalSecretKind = kindFrom<InternalSecret>(corev1beta1.InternalSecretKind);

export interface ProjectStaleReconcilerOptions extends StaleSettings {
  /** Cached reads, live writes. */
  client: Pick<Client, 'get' | 'list' | 'patch' | 'delete'>;
  /** `staleSyncPeriod`: when a project is checked again. */
  syncPeriodMs: number;
  /** The clock (injected for tests). */
  now?: () => number;
}

/** Marks unused Projects stale and auto-deletes them after their expiration. */
export class ProjectStaleReconciler {
  constructor(private readonly o: ProjectStaleReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const project = await this.o.client.get(ProjectKind, { name: req.name }).catch(ignoreNotFound);
    if (!project) return;
    await this.check(project, ctx);
    return { requeueAfter: this.o.syncPeriodMs };
  }

  private async check(project: Project, ctx: ReconcileContext): Promise<void> {
    const namespaceName = project.spec?.namespace;
    if (project.metadata?.deletionTimestamp || !namespaceName) return;
    const now = (this.o.now ?? Date.now)();
    const namespace = await this.o.client.get(Kinds.Namespace, { name: namespaceName });
    const log = ctx.log.child({ namespaceName });

    if (skipsStaleCheck(namespace)) {
      log.info('Namespace is marked to skip the stale check, marking Project as not stale');
      return this.writeStatus(project, {});
    }
    const reason = notStaleReason(project, now, this.o.minimumLifetimeDays);
    if (reason) {
      log.info(
        { minimumLifetimeDays: this.o.minimumLifetimeDays, reason },
        reason === 'minimum-lifetime'
          ? 'Project is not older than the configured minimum lifetime, marking Project as not stale'
          : 'Project was used recently and it is not exceeding the configured minimum lifetime, marking Project as not stale',
      );
      return this.writeStatus(project, {});
    }
    const resource = await this.inUseBy(namespaceName);
    if (resource) {
      log.info({ resource }, 'Project is in use by resource, marking Project as not stale');
      return this.writeStatus(project, {});
    }

    log.info('Project is not in use by any resource, marking Project as stale');
    const status = staleStatus(project.status, now, this.o);
    await this.writeStatus(project, status);
    if (!autoDeleteDue(status, now)) {
      log.info({ ...status }, 'Project is stale, but will not be deleted now');
      return;
    }
    log.info({ ...status }, 'Deleting Project now because its auto-delete timestamp is exceeded');
    const key = { name: project.metadata!.name! };
    try {
      await this.o.client.patch(ProjectKind, key, {
        type: 'merge',
        patch: { metadata: { annotations: { [Annotations.ConfirmationDeletion]: 'true' } } },
      });
    } catch (err) {
      if (isNotFound(err)) return log.info('Project already gone');
      throw err;
    }
    await this.o.client.delete(ProjectKind, key).catch(ignoreNotFound);
  }

  private async writeStatus(project: Project, desired: ReturnType<typeof staleStatus>): Promise<void> {
    const patch = staleStatusPatch(project.status, desired);
    if (!patch) return;
    await this.o.client.patch(
      ProjectKind,
      { name: project.metadata!.name! },
      { type: 'merge', patch: { status: patch } },
      { subresource: 'status' },
    );
  }

  /** The first kind of resource that keeps the project in use, in Gardener's order, or undefined. */
  private async inUseBy(namespace: string): Promise<string | undefined> {
    const checks: [string, () => Promise<boolean>][] = [
      ['Shoots', async () => (await this.o.client.list(ShootKind, { namespace })).items.length > 0],
      ['BackupEntries', async () => (await this.o.client.list(BackupEntryKind, { namespace })).items.length > 0],
      ['Secrets', () => this.secretsInUse(namespace)],
      ['InternalSecrets', () => this.internalSecretsInUse(namespace)],
      ['Quotas', () => this.quotasInUse(namespace)],
    ];
    for (const [resource, inUse] of checks) if (await inUse()) return resource;
    return undefined;
  }

  private shootsIn = async (namespace: string) => (await this.o.client.list(ShootKind, { namespace })).items;

  private async names(kind: typeof Kinds.Secret | typeof InternalSecretKind, namespace: string, labelSelector: string) {
    const list = await this.o.client.list(kind as typeof Kinds.Secret, { namespace, labelSelector });
    return new Set(list.items.map((o) => o.metadata?.name ?? ''));
  }

  private async secretsInUse(namespace: string): Promise<boolean> {
    const viaSecretBindings = await this.names(
      Kinds.Secret,
      namespace,
      uncontrolledSecretSelector(LabelSecretBindingReference),
    );
    if (viaSecretBindings.size > 0) {
      const bindings = (await this.o.client.list(SecretBindingKind)).items;
      const relevant = secretBindingsOfSecrets(namespace, viaSecretBindings, bindings);
      if (await usedByShoots(relevant, 'secretBindingName', this.shootsIn)) return true;
    }
    const viaCredentialsBindings = await this.names(
      Kinds.Secret,
      namespace,
      uncontrolledSecretSelector(LabelCredentialsBindingReference),
    );
    if (viaCredentialsBindings.size === 0) return false;
    const bindings = (await this.o.client.list(CredentialsBindingKind)).items;
    const relevant = credentialsBindingsOf('Secret', namespace, viaCredentialsBindings, bindings);
    return usedByShoots(relevant, 'credentialsBindingName', this.shootsIn);
  }

  private async internalSecretsInUse(namespace: string): Promise<boolean> {
    const names = await this.names(InternalSecretKind, namespace, `${LabelCredentialsBindingReference}=true`);
    if (names.size === 0) return false;
    const bindings = (await this.o.client.list(CredentialsBindingKind)).items;
    const relevant = credentialsBindingsOf('InternalSecret', namespace, names, bindings);
    return usedByShoots(relevant, 'credentialsBindingName', this.shootsIn);
  }

  private async quotasInUse(namespace: string): Promise<boolean> {
    const quotas = new Set((await this.o.client.list(QuotaKind, { namespace })).items.map((q) => q.metadata!.name!));
    if (quotas.size === 0) return false;
    const secretBindings = (await this.o.client.list(SecretBindingKind)).items;
    if (await usedByShoots(bindingsOfQuotas(namespace, quotas, secretBindings), 'secretBindingName', this.shootsIn))
      return true;
    const credentialsBindings = (await this.o.client.list(CredentialsBindingKind)).items;
    return usedByShoots(
      bindingsOfQuotas(namespace, quotas, credentialsBindings),
      'credentialsBindingName',
      this.shootsIn,
    );
  }
}
