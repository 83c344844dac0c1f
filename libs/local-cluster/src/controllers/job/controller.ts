// Wiring of the Job controller: Jobs and their pods (owned, or orphans to adopt).
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { Expectations, observeOwnedObjects } from '../shared/expectations.js';
import { JobKind, PodKind } from '../shared/kinds.js';
import { ownsPods } from '../shared/owned-pods.js';
import { jobSelector } from './job-state.js';
import { type JobControllerOptions, JobReconciler } from './reconcile.js';

export function addJobController(
  ctx: ControllerContext,
  options: JobControllerOptions = { backoffBaseMs: 10_000 },
): void {
  const expectations = new Expectations(ctx.now);
  observeOwnedObjects(ctx.cache.informerFor(PodKind), 'Job', expectations);
  const builder = controllerFor(ctx.mgr, 'job').for(JobKind);
  ownsPods(builder, ctx.cache, JobKind, jobSelector)
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new JobReconciler(ctx, expectations, ctx.events('job-controller'), options));
}
