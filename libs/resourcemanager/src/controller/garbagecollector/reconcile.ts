// The garbage collector of immutable ConfigMaps and Secrets: deletes those labelled
// `resources.gardener.cloud/garbage-collectable-reference=true` that no workload, Pod or ManagedResource references
// with a `reference.resources.gardener.cloud/{configmap,secret}-<hash>: <name>` annotation. Objects younger than the
// minimum lifetime are left alone (their users may not have been created yet).
import { ApiClient, isNotFound, kind, metadataOnly, NoKindMatchError, type PartialObjectMetadata } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { Label } from '../../constants.js';
import { KindConfigMap, KindSecret, kindFromAnnotationKey } from '../../references/references.js';

export interface GarbageCollectorOptions {
  client: ApiClient;
  /** Objects created less than this long ago are kept. Gardener: 10 minutes. */
  minimumObjectLifetimeMs: number;
  log: Logger;
  now?: () => Date;
}

export interface GarbageCollectionResult {
  deleted: { kind: string; namespace: string; name: string }[];
  errors: string[];
}

const REFERENCING_KINDS = [
  kind('apps/v1', 'Deployment'),
  kind('apps/v1', 'StatefulSet'),
  kind('apps/v1', 'DaemonSet'),
  kind('batch/v1', 'Job'),
  kind('v1', 'Pod'),
  kind('batch/v1', 'CronJob'),
  kind('resources.gardener.cloud/v1alpha1', 'ManagedResource'),
  kind('monitoring.coreos.com/v1', 'Prometheus'),
];

const CANDIDATES = [
  { refKind: KindSecret, kind: kind('v1', 'Secret') },
  { refKind: KindConfigMap, kind: kind('v1', 'ConfigMap') },
];

export async function collectGarbage(o: GarbageCollectorOptions): Promise<GarbageCollectionResult> {
  const now = (o.now ?? (() => new Date()))().getTime();
  const candidates = new Map<string, { kind: string; namespace: string; name: string }>();
  for (const c of CANDIDATES) {
    const items = await o.client.listAll(metadataOnly(c.kind), { labelSelector: { [Label.GarbageCollectable]: 'true' } });
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
      throw new Error(`failed listing objects of kind ${k.kind}: ${(err as Error).message}`);
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
        if (!isNotFound(err)) result.errors.push(`${id.kind} ${id.namespace}/${id.name}: ${(err as Error).message}`);
      }
    }),
  );
  return result;
}

/** Runs the garbage collection once at start and then every `syncPeriodMs`, until stopped. */
export class GarbageCollector {
  readonly needLeaderElection = true;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly options: GarbageCollectorOptions & { syncPeriodMs: number },
  ) {}

  start(): void {
    const run = async () => {
      if (this.stopped) return;
      this.options.log.info('Starting garbage collection');
      try {
        const result = await collectGarbage(this.options);
        if (result.errors.length > 0) this.options.log.error({ errors: result.errors }, 'Could not delete all unused resources');
      } catch (err) {
        this.options.log.error({ err }, 'Garbage collection failed');
      }
      this.options.log.info('Garbage collection finished');
      if (!this.stopped) this.timer = setTimeout(() => void (this.running = run()), this.options.syncPeriodMs);
    };
    this.running = run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
