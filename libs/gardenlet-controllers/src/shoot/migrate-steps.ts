// The extension resource steps of the migrate flow (Gardener's `extensions.MigrateExtensionObjects`,
// `WaitUntilExtensionObjectsMigrated` and the components' Migrate/WaitMigrate/Destroy): every extension resource of a
// kind in the control plane namespace is annotated `gardener.cloud/operation=migrate` with a fresh timestamp, the flow
// waits until each reports `lastOperation` Migrate Succeeded (or is gone), and then deletes them — an extension that
// migrated an object has dropped its finalizer and keeps what it created outside (`migrate` means "forget").
import { request } from 'node:https';
import { Annotations, Operations } from '@gardener-ts/api';
import { isNotFound, kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { ExtensionResources, type WaitOptions } from './extension-resources.js';
import { pollDelays } from './poll.js';
import { sleep } from '@gardener-ts/flow';

/** The fields of an extension resource the migration reads. */
export interface MigratableObject extends KubernetesObject {
  status?: {
    lastOperation?: { type?: string; state?: string; description?: string };
    lastError?: { description?: string };
  };
}

/** Whether the extension reported the object migrated (Gardener's `IsMigrated`; pure). */
export function isMigrated(obj: MigratableObject): boolean {
  const last = obj.status?.lastOperation;
  return last?.type === 'Migrate' && last.state === 'Succeeded';
}

/** Why an object is not migrated yet, for the error of a wait that timed out (pure). */
export function notMigratedReason(obj: MigratableObject): string {
  const name = `${obj.kind} ${obj.metadata?.namespace}/${obj.metadata?.name}`;
  const last = obj.status?.lastOperation;
  const error = obj.status?.lastError?.description;
  const now = last ? `last operation ${last.type} ${last.state}` : 'no last operation';
  return `${name} is not migrated yet (${now}${error ? `, last error: ${error}` : ''})`;
}

/** The merge patch that asks an extension to migrate an object (pure). */
export function migrateRequest(now: Date): Record<string, unknown> {
  return {
    metadata: {
      annotations: {
        [Annotations.GardenerOperation]: Operations.OperationMigrate,
        [Annotations.GardenerTimestamp]: now.toISOString(),
      },
    },
  };
}

/** Selects the objects of a kind a step handles (all of them by default). */
export type ObjectFilter = (obj: MigratableObject) => boolean;

/** The migrate, wait and delete steps over the extension resources of one control plane namespace. */
export class MigrateSteps {
  private readonly resources: ExtensionResources;

  constructor(
    private readonly seed: Pick<Client, 'get' | 'list' | 'patch' | 'delete'>,
    private readonly namespace: string,
    private readonly options: { now?: () => Date; wait?: Omit<WaitOptions, 'signal'> } = {},
  ) {
    this.resources = new ExtensionResources(seed);
  }

  private async objects(kindName: string, filter?: ObjectFilter): Promise<MigratableObject[]> {
    const k = kind<MigratableObject>('extensions.gardener.cloud/v1alpha1', kindName);
    try {
      const items = (await this.seed.list(k, { namespace: this.namespace })).items;
      return items.map((o) => ({ ...o, kind: kindName })).filter((o) => !filter || filter(o));
    } catch (err) {
      if (isNotFound(err)) return [];
      throw new Error(`listing ${kindName} resources in ${this.namespace} failed`, { cause: err });
    }
  }

  /** Annotates every object of the kinds with a migrate request (not those already migrated or being deleted). */
  async migrate(kinds: readonly string[], filter?: ObjectFilter): Promise<void> {
    const now = this.options.now?.() ?? new Date();
    for (const kindName of kinds) {
      const k = kind('extensions.gardener.cloud/v1alpha1', kindName);
      for (const obj of await this.objects(kindName, filter)) {
        if (isMigrated(obj)) continue;
        try {
          await this.seed.patch(
            k,
            { namespace: this.namespace, name: obj.metadata?.name ?? '' },
            { type: 'merge', patch: migrateRequest(now) },
          );
        } catch (err) {
          if (!isNotFound(err))
            throw new Error(`asking ${kindName} ${this.namespace}/${obj.metadata?.name} to migrate failed`, {
              cause: err,
            });
        }
      }
    }
  }

  /** Waits until every object of the kinds reports Migrate Succeeded or is gone. */
  async waitUntilMigrated(kinds: readonly string[], signal: AbortSignal, filter?: ObjectFilter): Promise<void> {
    const deadline = Date.now() + (this.options.wait?.timeout ?? 180_000);
    const delays = pollDelays(this.options.wait?.interval ?? 2000);
    for (;;) {
      signal.throwIfAborted();
      const pending: string[] = [];
      for (const kindName of kinds) {
        for (const obj of await this.objects(kindName, filter))
          if (!isMigrated(obj)) pending.push(notMigratedReason(obj));
      }
      if (pending.length === 0) return;
      if (Date.now() >= deadline) throw new Error(pending.join('; '));
      await sleep(delays.next().value, signal);
    }
  }

  /** Deletes every object of the kinds (confirming the deletion). */
  async destroy(kinds: readonly string[], filter?: ObjectFilter): Promise<void> {
    for (const kindName of kinds) {
      for (const obj of await this.objects(kindName, filter)) {
        await this.resources.destroy({ kind: kindName, name: obj.metadata?.name ?? '', namespace: this.namespace });
      }
    }
  }

  /** Waits until no object of the kinds is left. */
  async waitUntilDeleted(kinds: readonly string[], signal: AbortSignal, filter?: ObjectFilter): Promise<void> {
    for (const kindName of kinds) {
      for (const obj of await this.objects(kindName, filter)) {
        await this.resources.waitUntilDeleted(
          { kind: kindName, name: obj.metadata?.name ?? '', namespace: this.namespace },
          { ...this.options.wait, signal },
        );
      }
    }
  }
}

/**
 * "Creating ETCD Snapshot" (Gardener's `etcd.Snapshot`): asks etcd-main's backup-restore sidecar for the final full
 * snapshot (`GET /snapshot/full?final=true`) through its client Service, trusting the etcd CA. Gardener reaches the
 * sidecar by exec into its Pod; the gardenlet here calls the Service, so it must run where the seed's Service names
 * resolve (in the seed). Returns the sidecar's answer (the snapshot's metadata, or why it was skipped).
 */
export async function requestFinalSnapshot(url: string, ca: string, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', ca, timeout: 300_000, ...(signal ? { signal } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 500) >= 300) {
          reject(new Error(`etcd's final full snapshot at ${url} failed: ${res.statusCode} ${body}`));
          return;
        }
        try {
          resolve(JSON.parse(body) as unknown);
        } catch {
          resolve(body);
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`etcd's final full snapshot at ${url} timed out`)));
    req.on('error', (err) => reject(new Error(`etcd's final full snapshot at ${url} failed`, { cause: err })));
    req.end();
  });
}
