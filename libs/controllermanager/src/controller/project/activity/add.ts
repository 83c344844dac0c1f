// Registers Gardener's `project-activity` controller: no Project watch of its own, but the objects of project
// namespaces whose changes count as activity — Shoots and BackupEntries (created within the last hour, spec changes,
// deletions) and Quotas and Secrets referenced by a SecretBinding or CredentialsBinding (by their reference labels).
// Each maps to the Project of its namespace; the work queue folds bursts into one status update.
import {
  controllerFor,
  generationChanged,
  Kinds,
  type Controller,
  type KubernetesObject,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { BackupEntryKind, QuotaKind, ShootKind } from '../../../kinds.js';
import { projectOfNamespace } from '../add.js';
import { LabelCredentialsBindingReference, LabelSecretBindingReference } from '../stale/usage.js';
import { ProjectActivityReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'project-activity';

/** How old a created object may be to count as activity; older ones are replays of a (re)started informer. */
export const NewlyCreatedMs = 60 * 60 * 1000;

/** Create events of objects created at most an hour before `now()`; every other event passes. */
export function onlyNewlyCreated(now: () => number): Predicate<KubernetesObject> {
  return (e) => {
    if (e.type !== 'create') return true;
    const created = Date.parse(e.object.metadata?.creationTimestamp ?? '');
    return !Number.isNaN(created) && now() - created <= NewlyCreatedMs;
  };
}

const hasBindingReference = (obj: KubernetesObject): boolean => {
  const labels = obj.metadata?.labels ?? {};
  return LabelSecretBindingReference in labels || LabelCredentialsBindingReference in labels;
};

/**
 * Objects referenced by a SecretBinding or CredentialsBinding: creates and deletes of labelled objects, updates where
 * the old or the new object is labelled (so removing the label counts too).
 */
export const bindingReferenced: Predicate<KubernetesObject> = (e) =>
  hasBindingReference(e.object) || (e.type === 'update' && hasBindingReference(e.oldObject));

/** Adds the controller to `mgr` on its garden cluster. */
export function addProjectActivityController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; now?: () => number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  const namespaces = garden.cache.informerFor(Kinds.Namespace);
  const now = deps.now ?? Date.now;
  const toProject = (obj: KubernetesObject) =>
    projectOfNamespace(namespaces.store.get(obj.metadata?.namespace ?? '') as KubernetesObject | undefined);
  const newlyCreated = onlyNewlyCreated(now);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .watches(ShootKind, toProject, { predicates: [newlyCreated, generationChanged] })
    .watches(BackupEntryKind, toProject, { predicates: [newlyCreated, generationChanged] })
    .watches(QuotaKind, toProject, { predicates: [newlyCreated, bindingReferenced] })
    .watches(Kinds.Secret, toProject, { predicates: [newlyCreated, bindingReferenced] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ProjectActivityReconciler({ client: garden.client, now }));
}
