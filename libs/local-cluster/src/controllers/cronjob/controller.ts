// Wiring of the CronJob controller: CronJobs and the Jobs they own.
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { CronJobKind, JobKind } from '../shared/kinds.js';
import { CronJobReconciler } from './reconcile.js';

export function addCronJobController(ctx: ControllerContext): void {
  controllerFor(ctx.mgr, 'cronjob')
    .for(CronJobKind)
    .owns(JobKind)
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new CronJobReconciler(ctx, ctx.events('cronjob-controller')));
}
