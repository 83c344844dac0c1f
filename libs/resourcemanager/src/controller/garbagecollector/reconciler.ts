// The garbage collector of immutable ConfigMaps and Secrets (Gardener's pkg/resourcemanager/controller/garbagecollector):
// deletes those labelled `resources.gardener.cloud/garbage-collectable-reference=true` that no workload, Pod or
// ManagedResource references with a `reference.resources.gardener.cloud/{configmap,secret}-<hash>: <name>` annotation.
// Objects younger than the minimum lifetime are left alone (their users may not have been created yet).
import {
  isNotFound,
  kind,
  Kinds,
  messageOf,
  metadataOnly,
  NoKindMatchError,
  type ApiClient,
  type PartialObjectMetadata,
  type ReconcileResult,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { Label } from '../../constants.js';
import { KindConfigMap, KindSecret, kindFromAnnotationKey } from '../../references/references.js';

/** What a garbage collection needs. */
export interface GarbageCollectorOptions {
  /** The target cluster's API client (lists are read live, metadata only). */
  client: Pick<ApiClient, 'listAll' | 'delete'>;
  /** Objects created less than this long ago are kept. Gardener: 10 minutes. */
  minimumObjectLifetimeMs: number;
  log: Logger;
  now?: () => Date;
}

/** What one collection deleted and what it could not delete. */
export interface GarbageCollectionResult {
  deleted: { kind: string; namespace: string; name: string }[];
  errors: string[];
}

/** Kinds whose objects may reference garbage-collectable ConfigMaps and Secrets. */
const REFERENCING_KINDS = [
  Kinds.Deployment,
  Kinds.StatefulSet,
  Kinds.DaemonSet,
  Kinds.Job,
  Kinds.Pod,
  Kinds.CronJob,
  kind('resources.gardener.cloud/v1alpha1', 'ManagedResource'),
  kind('monitoring.coreos.com/v1', 'Prometheus'),
];

const CANDIDATES = [
  { refKind: KindSecret, kind: Kinds.Secret },
  { refKind: KindConfigMap, kind: Kinds.ConfigMap },
];

/** One garbage collection: lists the candidates and the referencing objects, deletes the unreferenced candidates. */
export async function collectGarbage(o: GarbageCollectorOptions): Promise<GarbageCollectionResult> {
  const now = (o.now ?? (() => new Date()))().getTime();
  const candidates = new Map<string, { kind: string; namespace: string; name: string }>();
  for (const c of CANDIDATES) {
    const items = await o.client.listAll(metadataOnly(c.kind), {
      labelSelector: { [Label.GarbageCollectable]: 'true' },
    });
    for (const item of items) {
      const created = Date.parse(item.metadata?.creationTimestamp ?? '');
      if (Number.isFinite(created) && created + o.minimumObjectLifetimeMs > now) continue;
      const id = { kind: c.refKind, namespace: item.metadata?.namespace ?? '', name: item.metadata?.name ?? '' };
      candidates.set(`${id.kind}/${id.namespace}/${id.name}`, id);
    }
  }
  if (candidates.size === 0) return { deleted: [], errors: [] };

  for (const k of REFERENCING_KINDS) {
    let items: PartialObjectMetadata[];
    try {
      items = await o.client.listAll(metadataOnly(k));
    } catch (err) {
      if (err instanceof NoKindMatchError || isNotFound(err)) continue;
      throw new Error(`failed listing objects of kind ${k.kind}: ${messageOf(err)}`, { cause: err });
    }
    for (const item of items) {
      for (const [key, name] of Object.entries(item.metadata?.annotations ?? {})) {
        const refKind = kindFromAnnotationKey(key);
        if (!refKind || !name) continue;
        candidates.delete(`${refKind}/${item.metadata?.namespace ?? ''}/${name}`);
      }
    }
  }

  const result: GarbageCollectionResult = { deleted: [], errors: [] };
  await Promise.all(
    [...candidates.values()].map(async (id) => {
      const k = id.kind === KindSecret ? CANDIDATES[0].kind : CANDIDATES[1].kind;
      o.log.info({ kind: id.kind, namespace: id.namespace, name: id.name }, 'Delete resource');
      try {
        await o.client.delete(k, { namespace: id.namespace, name: id.name });
        result.deleted.push(id);
      } catch (err) {
        if (!isNotFound(err)) result.errors.push(`${id.kind} ${id.namespace}/${id.name}: ${messageOf(err)}`);
      }
    }),
  );
  return result;
}

/** The garbage collector: one collection per reconcile, then again after the sync period. */
export class GarbageCollectorReconciler {
  constructor(private readonly options: GarbageCollectorOptions & { syncPeriodMs: number }) {}

  /** Collects garbage; failures are logged and the next run waits for the sync period, as before. */
  async reconcile(): Promise<ReconcileResult> {
    const { log } = this.options;
    log.info('Starting garbage collection');
    try {
      const result = await collectGarbage(this.options);
      if (result.errors.length > 0) log.error({ errors: result.errors }, 'Could not delete all unused resources');
    } catch (err) {
      log.error({ err }, 'Garbage collection failed');
    }
    log.info('Garbage collection finished');
    return { requeueAfter: this.options.syncPeriodMs };
  }
}
