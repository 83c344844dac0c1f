// kube-controller-manager's clusterrole-aggregation controller, run inside the API server like the other built-in
// controllers here: a ClusterRole with an `aggregationRule` gets as its `rules` the union of the rules of every
// other ClusterRole matching one of its selectors (in name order, duplicates dropped), kept up to date as labelled
// roles come, change and go. Aggregated roles nest (`admin` aggregates `edit`, which aggregates `view`) because each
// aggregation reads the others' written rules.
import type { Logger } from '@gardener-ts/logging';
import { ApiError } from '../api/errors.js';
import { jsonEqual } from '../api/meta.js';
import { matchesLabelSelector } from '../api/selectors.js';
import type { Registry } from '../registry/registry.js';
import { internalContext } from '../server/context.js';
import type { ObjectService } from '../server/objects.js';
import type { KubeObject, Storage, Watch } from '../storage/types.js';
import { KeyedQueue } from './queue.js';
import { watchPrefix } from './watch-prefix.js';

const PREFIX = '/registry/rbac.authorization.k8s.io/clusterroles/';
const ctx = internalContext('clusterrole-aggregation-controller');

/** The rules an aggregated ClusterRole should have, given every ClusterRole (kube's syncClusterRole). */
export function aggregatedRules(role: KubeObject, all: KubeObject[]): KubeObject[] {
  const selectors: KubeObject[] = role.aggregationRule?.clusterRoleSelectors ?? [];
  const matching = all
    .filter(
      (other) =>
        other.metadata.name !== role.metadata.name &&
        selectors.some((s) => matchesLabelSelector(s, other.metadata.labels ?? {})),
    )
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  const rules: KubeObject[] = [];
  for (const other of matching) {
    for (const rule of other.rules ?? []) if (!rules.some((r) => jsonEqual(r, rule))) rules.push(rule);
  }
  return rules;
}

/** Keeps the `rules` of every ClusterRole with an `aggregationRule` equal to `aggregatedRules` of it. */
export class ClusterRoleAggregationController {
  private watch?: Watch;
  private readonly queue: KeyedQueue;
  private readonly roles = new Map<string, KubeObject>();

  constructor(
    private readonly storage: Storage,
    private readonly registry: Registry,
    private readonly objects: ObjectService,
    private readonly log: Logger,
  ) {
    this.queue = new KeyedQueue(
      (name) => this.sync(name),
      (name, err) => this.log.debug({ err, clusterRole: name }, 'ClusterRole aggregation pending'),
    );
  }

  async start(): Promise<void> {
    this.watch = await watchPrefix(
      this.storage,
      PREFIX,
      (e) => {
        if (e.type === 'DELETED') this.roles.delete(e.object.metadata.name);
        else this.roles.set(e.object.metadata.name, e.object);
        // Any change of any ClusterRole may change what an aggregated role should hold.
        for (const role of this.roles.values()) if (role.aggregationRule) this.queue.add(role.metadata.name);
      },
      this.log,
    );
  }

  /** Resolves when every queued aggregation is done (for a start that serves aggregated roles at once). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  stop(): void {
    this.watch?.stop();
    this.queue.stop();
  }

  private async sync(name: string): Promise<void> {
    const role = this.roles.get(name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, [...this.roles.values()]);
    if (jsonEqual(rules, role.rules ?? [])) return;
    const def = this.registry.get('rbac.authorization.k8s.io', 'v1', 'clusterroles')!;
    try {
      await this.objects.update(def, '', name, { ...role, rules }, ctx);
    } catch (err) {
      // Changed meanwhile: the watch event of that change queues the role again.
      if (err instanceof ApiError && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
  }
}
