// Access to the objects of the target cluster through its informer cache: one informer per kind, created the first
// time a ManagedResource needs the kind. Changes of watched objects are reported to listeners, which map them back to
// their ManagedResource through the origin annotation (so manual edits are reverted at once).
import type { Cluster, Kind, KubernetesObject } from '@gardener-ts/controller-runtime';
import { isNotFound, kind as kindOf } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';

type Obj = Record<string, any>;

export interface KindInfo {
  kind: Kind<KubernetesObject>;
  namespaced: boolean;
}

export type ObjectListener = (obj: Obj) => void;

const SYNC_TIMEOUT_MS = 60_000;

export class TargetObjects {
  private readonly listeners = new Set<ObjectListener>();
  private readonly watched = new Map<string, Promise<void>>();

  constructor(
    readonly cluster: Cluster,
    private readonly log: Logger,
  ) {}

  /** Listeners get every add, change (not resyncs) and delete of objects of watched kinds. */
  onChange(listener: ObjectListener): void {
    this.listeners.add(listener);
  }

  /** The kind of `apiVersion`/`kind` as the target serves it; throws NoKindMatchError for unknown kinds. */
  async kindInfo(apiVersion: string, kind: string): Promise<KindInfo> {
    const k = kindOf(apiVersion, kind);
    const mapping = await this.cluster.api.mapping(k);
    return { kind: k, namespaced: mapping.namespaced };
  }

  /** Makes sure the kind's informer runs and has synced. */
  async watch(k: Kind<KubernetesObject>): Promise<void> {
    const key = `${k.group}/${k.version}/${k.kind}`;
    let pending = this.watched.get(key);
    if (!pending) {
      const informer = this.cluster.cache.informerFor(k);
      const notify = (obj: Obj) => {
        for (const l of this.listeners) l(obj);
      };
      informer.addEventHandler({
        onAdd: (obj, initial) => {
          if (!initial) notify(obj);
        },
        onUpdate: (oldObj, newObj) => {
          if (oldObj.metadata?.resourceVersion !== newObj.metadata?.resourceVersion) notify(newObj);
        },
        onDelete: (obj) => notify(obj),
      });
      pending = (async () => {
        const timeout = AbortSignal.timeout(SYNC_TIMEOUT_MS);
        if (!(await informer.waitForSync(timeout)))
          throw new Error(`cache of ${k.kind} (${k.group || 'core'}/${k.version}) in the target cluster did not sync`);
        this.log.debug(
          { kind: k.kind, apiVersion: k.group ? `${k.group}/${k.version}` : k.version },
          'Watching kind in target cluster',
        );
      })();
      this.watched.set(key, pending);
      pending.catch(() => this.watched.delete(key));
    }
    await pending;
  }

  /** The object from the cache (frozen), or undefined when it does not exist. */
  async get(k: Kind<KubernetesObject>, namespace: string | undefined, name: string): Promise<Obj | undefined> {
    await this.watch(k);
    try {
      return (await this.cluster.cache.get(k, { namespace: namespace || undefined, name })) as Obj;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The object read from the API server, or undefined when it does not exist. */
  async getLive(k: Kind<KubernetesObject>, namespace: string | undefined, name: string): Promise<Obj | undefined> {
    try {
      return (await this.cluster.api.get(k, { namespace: namespace || undefined, name })) as Obj;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
