// Registers the Project controller: Projects, their owned namespaces, and Shoots (a deleted Shoot may unblock the
// deletion of its project).
import type { Shoot } from '@gardener-ts/api';
import {
  controllerFor,
  EventRecorder,
  Kinds,
  type Controller,
  type Manager,
  type Request,
} from '@gardener-ts/controller-runtime';
import { Labels } from '@gardener-ts/api';
import { ProjectKind, ShootKind } from '../../kinds.js';
import type { QuotaConfiguration } from './quota.js';
import { ProjectReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'project';

/** The project of a namespace: the `project.gardener.cloud/name` label, if any. */
export function projectOfNamespace(
  namespace: { metadata?: { labels?: Record<string, string> } } | undefined,
): Request[] {
  const name = namespace?.metadata?.labels?.[Labels.ProjectName];
  return name ? [{ namespace: '', name }] : [];
}

/**
 * Adds the controller to `mgr` on its garden cluster; events are recorded as `gardener-controller-manager`. `quotas`
 * is `controllers.project.quotas` of the configuration.
 */
export function addProjectControllers(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; quotas?: readonly QuotaConfiguration[] },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  const namespaces = garden.cache.informerFor(Kinds.Namespace);
  const events = new EventRecorder(garden.api, { component: 'gardener-controller-manager', log: mgr.log });
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ProjectKind)
    .owns(Kinds.Namespace)
    .watches(ShootKind, (shoot: Shoot) => projectOfNamespace(namespaces.store.get(shoot.metadata?.namespace ?? '')), {
      predicates: [(e) => e.type === 'delete'],
    })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ProjectReconciler({ client: garden.client, api: garden.api, events, quotas: deps.quotas }));
}
