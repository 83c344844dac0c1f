// The BackupEntry steps of a control plane migration over an in-memory garden: "Migrating BackupEntry to new seed"
// moves spec.seedName with a `migrate` request (not again once migrated), the wait returns once the source's
// controller reported Migrate Succeeded and released the entry; the restore's "Deploying backup entry" keeps the
// entry's bucket with a `restore` request, and its wait returns on that request's success.
import { describe, expect, it } from 'vitest';
import { ApiError, type KubernetesObject, type Patch } from '@gardener-ts/controller-runtime';
import { exampleValues } from '../component/testdata/fixtures.js';
import type { ShootValues } from '../component/values.js';
import { backupEntryNotMigrated, BackupEntryMigrationSteps } from './backupentry-migration-steps.js';

type Entry = KubernetesObject & { spec: Record<string, unknown>; status?: Record<string, any> };

function merge(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = target && typeof target === 'object' ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = merge(out[k], v);
  }
  return out;
}

/** The garden's BackupEntries in memory; a spec change raises the generation, as for our CRD BackupEntries. */
class FakeGarden {
  entry: Entry | undefined;
  readonly calls: string[] = [];

  async get(_kind: unknown, key: { name: string }) {
    if (!this.entry || this.entry.metadata?.name !== key.name) throw new ApiError(404, 'NotFound', 'not found');
    return structuredClone(this.entry);
  }
  async create(obj: Entry) {
    this.calls.push('create');
    this.entry = { ...structuredClone(obj), metadata: { ...obj.metadata, generation: 1 } };
    return this.entry;
  }
  async patch(_kind: unknown, _key: unknown, patch: Patch) {
    this.calls.push(patch.type);
    const next = merge(this.entry, patch.patch) as Entry;
    if (JSON.stringify(next.spec) !== JSON.stringify(this.entry?.spec))
      next.metadata = { ...next.metadata, generation: (next.metadata?.generation ?? 0) + 1 };
    this.entry = next;
    return this.entry;
  }
}

const now = new Date('2026-11-29T12:00:00.400Z');
const wait = { interval: 10, timeout: 2_000 };
const signal = new AbortController().signal;
const succeeded = (type: string, generation: number, seedName?: string) => ({
  observedGeneration: generation,
  ...(seedName ? { seedName } : {}),
  lastOperation: {
    type,
    state: 'Succeeded',
    progress: 100,
    description: '',
    lastUpdateTime: '2026-11-29T12:00:01Z',
  },
});

function setup(): { garden: FakeGarden; values: ShootValues; name: string } {
  const values = exampleValues((s) => (s.spec.seedName = 'other'));
  const garden = new FakeGarden();
  const name = `${values.namespace}--${values.shoot.status?.uid || values.shoot.metadata?.uid}`;
  garden.entry = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupEntry',
    metadata: { name, namespace: 'garden-local', generation: 1, finalizers: ['gardener'] },
    spec: { bucketName: 'old-bucket', seedName: 'local' },
    status: succeeded('Reconcile', 1, 'local'),
  };
  return { garden, values, name };
}

/** What the source seed's BackupEntry controller writes once it migrated the entry. */
function migrateAsController(garden: FakeGarden): void {
  const entry = garden.entry!;
  const annotations = { ...entry.metadata?.annotations };
  delete annotations['gardener.cloud/operation'];
  garden.entry = {
    ...entry,
    metadata: { ...entry.metadata, annotations },
    status: succeeded('Migrate', entry.metadata!.generation!),
  };
}

describe('the BackupEntry steps of a control plane migration', () => {
  it('move the entry to the destination with a migrate request and wait until the source released it', async () => {
    const { garden, values } = setup();
    const steps = new BackupEntryMigrationSteps(garden as never, values, { now: () => now, wait });
    await steps.migrate();
    expect(garden.entry!.spec.seedName).toBe('other');
    expect(garden.entry!.metadata?.annotations).toEqual({
      'gardener.cloud/operation': 'migrate',
      'gardener.cloud/timestamp': now.toISOString(),
    });
    expect(backupEntryNotMigrated(garden.entry as never, 'other', now.toISOString())).toMatch(
      /the extension has not picked up the migrate request yet$/,
    );

    let settled = false;
    const waiting = steps.waitUntilMigrated(signal).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    migrateAsController(garden);
    await waiting;

    // A retried migration does not ask again.
    garden.calls.length = 0;
    const retry = new BackupEntryMigrationSteps(garden as never, values, { now: () => now, wait });
    await retry.migrate();
    await retry.waitUntilMigrated(signal);
    expect(garden.calls).toEqual([]);
  });

  it('name what the migration waits for', () => {
    const { garden } = setup();
    const entry = garden.entry as never;
    expect(backupEntryNotMigrated(entry, 'other')).toMatch(/spec.seedName is local, not other$/);
    garden.entry!.spec.seedName = 'other';
    expect(backupEntryNotMigrated(garden.entry as never, 'other')).toMatch(/last operation is Reconcile, not Migrate$/);
    garden.entry!.status = succeeded('Migrate', 1, 'local');
    expect(backupEntryNotMigrated(garden.entry as never, 'other')).toMatch(/still runs on seed local$/);
  });

  it('have nothing to do without an entry', async () => {
    const { garden, values } = setup();
    garden.entry = undefined;
    const steps = new BackupEntryMigrationSteps(garden as never, values, { now: () => now, wait });
    await steps.migrate();
    await steps.waitUntilMigrated(signal);
    expect(garden.calls).toEqual([]);
  });

  it('restore the entry on this seed in its bucket and wait until that request succeeded', async () => {
    const { garden, values } = setup();
    migrateAsController(garden);
    garden.entry!.spec.seedName = 'other';
    const destination = { ...values, seed: { ...values.seed, metadata: { ...values.seed.metadata, name: 'other' } } };
    const steps = new BackupEntryMigrationSteps(garden as never, destination, { now: () => now, wait });
    await steps.restore();
    expect(garden.entry!.spec).toEqual({ bucketName: 'old-bucket', seedName: 'other' });
    expect(garden.entry!.metadata?.annotations).toMatchObject({
      'gardener.cloud/operation': 'restore',
      'gardener.cloud/timestamp': now.toISOString(),
    });

    let settled = false;
    const waiting = steps.waitUntilRestored(signal).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    const annotations = { ...garden.entry!.metadata?.annotations };
    delete annotations['gardener.cloud/operation'];
    garden.entry = {
      ...garden.entry!,
      metadata: { ...garden.entry!.metadata, annotations },
      status: succeeded('Restore', garden.entry!.metadata!.generation!, 'other'),
    };
    await waiting;
  });
});
