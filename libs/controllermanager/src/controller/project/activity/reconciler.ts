// Gardener's `project-activity` reconciler: sets the Project's `status.lastActivityTimestamp` to now whenever an
// activity in its namespace (see `add.ts`) enqueues it.
import {
  ignoreNotFound,
  wrapError,
  type Client,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ProjectKind } from '../../../kinds.js';
import { formatTime } from '../stale/staleness.js';

export interface ProjectActivityReconcilerOptions {
  client: Pick<Client, 'get' | 'patch'>;
  /** The clock (injected for tests). */
  now?: () => number;
}

/** Records the last activity of a Project. */
export class ProjectActivityReconciler {
  constructor(private readonly o: ProjectActivityReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const project = await this.o.client.get(ProjectKind, { name: req.name }).catch(ignoreNotFound);
    if (!project) return;
    const lastActivityTimestamp = formatTime((this.o.now ?? Date.now)());
    ctx.log.info({ lastActivityTimestamp }, "Updating Project's lastActivityTimestamp");
    await this.o.client
      .patch(
        ProjectKind,
        { name: req.name },
        { type: 'merge', patch: { status: { lastActivityTimestamp } } },
        { subresource: 'status' },
      )
      .catch((err: unknown) => {
        throw wrapError(err, "failed updating Project's lastActivityTimestamp");
      });
  }
}
