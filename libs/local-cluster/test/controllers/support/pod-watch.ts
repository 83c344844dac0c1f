// Follows the pods of a label selector through a watch and checks an invariant on every state the watch shows.
import type { ApiClient } from '@gardener-ts/controller-runtime';
import { type Pod, PodKind } from '../../../src/controllers/shared/kinds.js';

export class PodWatch {
  readonly pods = new Map<string, Pod>();
  readonly violations: string[] = [];
  /** Pod names in the order their deletion began (deletionTimestamp set, or deleted outright). */
  readonly deletions: string[] = [];
  private readonly abort = new AbortController();
  private done?: Promise<void>;

  private constructor() {}

  /** Starts from a list, so the invariant is judged on whole states only, never on the watch's first ADDED events. */
  static async start(
    api: ApiClient,
    labelSelector: string,
    invariant: (pods: Pod[]) => string | undefined,
    namespace = 'default',
  ): Promise<PodWatch> {
    const w = new PodWatch();
    const { items, resourceVersion } = await api.listPages(PodKind, { namespace, labelSelector });
    for (const p of items) w.pods.set(p.metadata!.name!, p);
    w.done = api
      .watch(PodKind, { namespace, labelSelector, resourceVersion, signal: w.abort.signal }, (e) => {
        const name = e.object.metadata!.name!;
        if ((e.type === 'DELETED' || e.object.metadata?.deletionTimestamp) && !w.deletions.includes(name))
          w.deletions.push(name);
        if (e.type === 'DELETED') w.pods.delete(name);
        else if (e.type === 'ADDED' || e.type === 'MODIFIED') w.pods.set(name, e.object);
        const broken = invariant([...w.pods.values()]);
        if (broken) w.violations.push(broken);
      })
      .catch(() => undefined);
    return w;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}
