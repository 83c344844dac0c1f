// The BackupEntry steps of a control plane migration over an in-memory garden: "Migrating BackupEntry to new seed"
// moves spec.seedName with a `migrate` request (not again once migrated), the wait returns once the source's
// controller reported Migrate Succeeded and released the entry; the restore's "Deploying backup entry" keeps the
// entry's bucket with a `restore` request, and its wait returns on that request's success.
import { describe, expect, it } from 'vitest';
import { FakeCluster, type FakeObject } from '../../test/support/fake-cluster.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { backupEntryNotMigrated, BackupEntryMigrationSteps } from './backupentry-migration-steps.js';

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

const NAMESPACE = 'garden-local';

function setup() {
  const values = exampleValues((s) => (s.spec.seedName = 'other'));
  const garden = new FakeCluster();
  const name = `${values.namespace}--${values.shoot.status?.uid || values.shoot.metadata?.uid}`;
  garden.put({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupEntry',
    metadata: { name, namespace: NAMESPACE, generation: 1, finalizers: ['gardener'] },
    spec: { bucketName: 'old-bucket', seedName: 'local' },
    status: succeeded('Reconcile', 1, 'local'),
  });
  /** The garden's BackupEntry (the stored object: a test's changes to it are the garden's). */
  const entry = () => garden.find('BackupEntry', name, NAMESPACE)!;
  return { garden, values, entry };
}

/** What the source seed's BackupEntry controller writes once it migrated the entry. */
function migrateAsController(garden: FakeCluster, entry: FakeObject): void {
  const annotations = { ...entry.metadata?.annotations };
  delete annotations['gardener.cloud/operation'];
  garden.put({
    ...entry,
    metadata: { ...entry.metadata, annotations },
    status: succeeded('Migrate', entry.metadata!.generation!),
  });
}

describe('the BackupEntry steps of a control plane migration', () => {
  it('move the entry to the destination with a migrate request and wait until the source released it', async () => {
    const { garden, values, entry } = setup();
    const steps = new BackupEntryMigrationSteps(garden as never, values, { now: () => now, wait });
    await steps.migrate();
    expect(entry().spec.seedName).toBe('other');
    expect(entry().metadata?.annotations).toEqual({
      'gardener.cloud/operation': 'migrate',
      'gardener.cloud/timestamp': now.toISOString(),
    });
    expect(backupEntryNotMigrated(entry() as never, 'other', now.toISOString())).toMatch(
      /the extension has not picked up the migrate request yet$/,
    );

    let settled = false;
    const waiting = steps.waitUntilMigrated(signal).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    migrateAsController(garden, entry());
    await waiting;

    // A retried migration does not ask again.
    garden.calls.length = 0;
    const retry = new BackupEntryMigrationSteps(garden as never, values, { now: () => now, wait });
    await retry.migrate();
    await retry.waitUntilMigrated(signal);
    expect(garden.calls).toEqual([]);
  });

  it('name what the migration waits for', () => {
    const { entry } = setup();
    expect(backupEntryNotMigrated(entry() as never, 'other')).toMatch(/spec.seedName is local, not other$/);
    entry().spec.seedName = 'other';
    expect(backupEntryNotMigrated(entry() as never, 'other')).toMatch(/last operation is Reconcile, not Migrate$/);
    entry().status = succeeded('Migrate', 1, 'local');
    expect(backupEntryNotMigrated(entry() as never, 'other')).toMatch(/still runs on seed local$/);
  });

  it('have nothing to do without an entry', async () => {
    const { garden, values } = setup();
    garden.objects.clear();
    const steps = new BackupEntryMigrationSteps(garden as never, values, { now: () => now, wait });
    await steps.migrate();
    await steps.waitUntilMigrated(signal);
    expect(garden.calls).toEqual([]);
  });

  it('restore the entry on this seed in its bucket and wait until that request succeeded', async () => {
    const { garden, values, entry } = setup();
    migrateAsController(garden, entry());
    entry().spec.seedName = 'other';
    const destination = { ...values, seed: { ...values.seed, metadata: { ...values.seed.metadata, name: 'other' } } };
    const steps = new BackupEntryMigrationSteps(garden as never, destination, { now: () => now, wait });
    await steps.restore();
    expect(entry().spec).toEqual({ bucketName: 'old-bucket', seedName: 'other' });
    expect(entry().metadata?.annotations).toMatchObject({
      'gardener.cloud/operation': 'restore',
      'gardener.cloud/timestamp': now.toISOString(),
    });

    let settled = false;
    const waiting = steps.waitUntilRestored(signal).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    const annotations = { ...entry().metadata?.annotations };
    delete annotations['gardener.cloud/operation'];
    garden.put({
      ...entry(),
      metadata: { ...entry().metadata, annotations },
      status: succeeded('Restore', entry().metadata!.generation!, 'other'),
    });
    await waiting;
  });
});
