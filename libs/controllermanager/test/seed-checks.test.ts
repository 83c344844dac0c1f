// The seed check controllers (seed-extensions-check, seed-backupbuckets-check) against the local API server with
// Gardener's CRDs, started as the app starts them (startControllerManager), with a short sync period and 2 s condition
// thresholds. The test plays the gardenlet: it writes the ControllerInstallations' conditions and the BackupBuckets'
// lastOperation/lastError, and watches the Seed conditions follow.
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controllerManagerConfigSpec } from '@gardener-ts/component-config';
import { generatedCRDs, type BackupBucket, type ControllerInstallation } from '@gardener-ts/api';
import { ApiClient, Checks, type Condition } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { controllerRegistry, startControllerManager } from '../src/index.js';
import { BackupBucketKind, ControllerInstallationKind, SeedKind } from '../src/kinds.js';
import { localSeed } from './support/examples.js';

let env: TestEnvironment;
let client: ApiClient;
let stop: (() => Promise<void>) | undefined;
const abort = new AbortController();
const THRESHOLD_MS = 2000;
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

beforeAll(async () => {
  env = await startTestEnvironment({ crds: generatedCRDs() });
  client = await ApiClient.create(env.kubeconfigPath);
  const config = controllerManagerConfigSpec.schema.parse({
    apiVersion: 'controllermanager.config.gardener.cloud/v1alpha1',
    kind: 'ControllerManagerConfiguration',
    gardenClientConnection: { kubeconfig: env.kubeconfigPath },
    leaderElection: { leaderElect: false },
    controllers: {
      seedExtensionsCheck: {
        syncPeriod: '300ms',
        conditionThresholds: [{ type: 'ExtensionsReady', duration: '2s' }],
      },
      seedBackupBucketsCheck: {
        syncPeriod: '300ms',
        conditionThresholds: [{ type: 'BackupBucketsReady', duration: '2s' }],
      },
    },
  });
  stop = await startControllerManager(
    {
      config,
      log: createLogger({ name: 'controller-manager', level: (process.env.CM_TEST_LOG as 'info') ?? 'silent' }),
      metrics: new Registry(),
      ready: new Checks(),
      signal: abort.signal,
    },
    {
      registry: controllerRegistry.filter(
        (e) => e.name === 'seed-extensions-check' || e.name === 'seed-backupbuckets-check',
      ),
    },
  );
}, 60_000);

afterAll(async () => {
  abort.abort();
  await stop?.();
  client?.close();
  await env?.stop();
});

async function seedCondition(seed: string, type: string): Promise<Condition | undefined> {
  const conditions = (await client.get(SeedKind, { name: seed })).status?.conditions as Condition[] | undefined;
  return conditions?.find((c) => c.type === type);
}

/** Waits until the seed's condition of `type` has `status` and `reason`; returns it. */
const conditionBecomes = (seed: string, type: string, status: string, reason: string) =>
  waitFor(`${type} of seed ${seed} to be ${status} (${reason})`, async () => {
    const c = await seedCondition(seed, type);
    return c?.status === status && c.reason === reason ? c : undefined;
  });

describe('seed extensions check', () => {
  const conditions = (healthy: 'True' | 'False', message: string) =>
    (
      [
        ['Valid', 'True', 'RegistrationValid'],
        ['Installed', 'True', 'InstallationSuccessful'],
        ['Healthy', healthy, healthy === 'True' ? 'ControllerHealthy' : 'ControllerNotHealthy'],
        ['Progressing', 'False', 'ControllerRolledOut'],
      ] as const
    ).map(([type, status, reason]) => ({
      type,
      status,
      reason,
      message: type === 'Healthy' ? message : `${type} ok`,
      lastTransitionTime: now(),
      lastUpdateTime: now(),
    }));
  const setConditions = (name: string, list: ReturnType<typeof conditions>) =>
    client.patch(
      ControllerInstallationKind,
      { name },
      { type: 'merge', patch: { status: { conditions: list } } },
      { subresource: 'status' },
    );

  it('follows the conditions of the seed’s ControllerInstallations, Progressing for the threshold before False', async () => {
    await client.create(localSeed('ext'));
    await client.create(localSeed('untouched'));
    await client.create<ControllerInstallation>({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerInstallation',
      metadata: { name: 'provider-local-ext' },
      spec: { registrationRef: { name: 'provider-local' }, seedRef: { name: 'ext' } },
    });

    // Not reported on yet: not installed (from the initial Unknown straight to False, as in Gardener).
    const notInstalled = await conditionBecomes('ext', 'ExtensionsReady', 'False', 'NotAllExtensionsInstalled');
    expect(notInstalled.message).toBe(
      'Some extensions are not installed: map[provider-local-ext:extension was not yet installed]',
    );

    await setConditions('provider-local-ext', conditions('True', 'All resources are healthy.'));
    const ready = await conditionBecomes('ext', 'ExtensionsReady', 'True', 'AllExtensionsReady');
    expect(ready.message).toBe('All extensions installed into the seed cluster are ready and healthy.');

    await setConditions('provider-local-ext', conditions('False', 'deployment provider-local is unhealthy'));
    const progressing = await conditionBecomes('ext', 'ExtensionsReady', 'Progressing', 'NotAllExtensionsHealthy');
    expect(progressing.message).toBe(
      'Some extensions are not healthy: map[provider-local-ext:deployment provider-local is unhealthy]',
    );
    const failed = await conditionBecomes('ext', 'ExtensionsReady', 'False', 'NotAllExtensionsHealthy');
    expect(Date.parse(failed.lastTransitionTime) - Date.parse(progressing.lastTransitionTime)).toBeGreaterThanOrEqual(
      THRESHOLD_MS,
    );

    await setConditions('provider-local-ext', conditions('True', 'All resources are healthy.'));
    await conditionBecomes('ext', 'ExtensionsReady', 'True', 'AllExtensionsReady');

    // Like Gardener, nothing is written on a seed whose installations or buckets the checks never saw.
    expect((await client.get(SeedKind, { name: 'untouched' })).status?.conditions ?? []).toEqual([]);
  }, 30_000);
});

describe('seed backup buckets check', () => {
  const setStatus = (name: string, status: Record<string, unknown>) =>
    client.patch(BackupBucketKind, { name }, { type: 'merge', patch: { status } }, { subresource: 'status' });
  const lastOperation = (state: 'Succeeded' | 'Error') => ({
    type: 'Reconcile',
    state,
    progress: state === 'Succeeded' ? 100 : 50,
    description: state === 'Succeeded' ? 'Backup bucket reconciled.' : 'Backup bucket failed.',
    lastUpdateTime: now(),
  });

  it('follows the lastError of the seed’s BackupBuckets, and turns Unknown once they are gone', async () => {
    await client.create(localSeed('bb'));
    for (const [name, seedName] of [
      ['bb-1', 'bb'],
      ['bb-2', 'bb'],
      ['elsewhere', 'ext'],
    ]) {
      await client.create<BackupBucket>({
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'BackupBucket',
        metadata: { name },
        spec: { provider: { type: 'local', region: 'local' }, seedName },
      });
    }
    await setStatus('bb-1', { lastOperation: lastOperation('Succeeded') });
    await setStatus('bb-2', { lastOperation: lastOperation('Succeeded') });
    await setStatus('elsewhere', { lastOperation: lastOperation('Error'), lastError: { description: 'not bb' } });
    const available = await conditionBecomes('bb', 'BackupBucketsReady', 'True', 'BackupBucketsAvailable');
    expect(available.message).toBe('Backup Buckets are available.');

    await setStatus('bb-2', { lastOperation: lastOperation('Error'), lastError: { description: 'access denied' } });
    const progressing = await conditionBecomes('bb', 'BackupBucketsReady', 'Progressing', 'BackupBucketsError');
    expect(progressing.message).toBe('The following BackupBuckets have issues:\n* Name: bb-2, Error: access denied');
    const failed = await conditionBecomes('bb', 'BackupBucketsReady', 'False', 'BackupBucketsError');
    expect(Date.parse(failed.lastTransitionTime) - Date.parse(progressing.lastTransitionTime)).toBeGreaterThanOrEqual(
      THRESHOLD_MS,
    );

    await setStatus('bb-2', { lastOperation: lastOperation('Succeeded'), lastError: null });
    await conditionBecomes('bb', 'BackupBucketsReady', 'True', 'BackupBucketsAvailable');

    await client.delete(BackupBucketKind, { name: 'bb-1' });
    await client.delete(BackupBucketKind, { name: 'bb-2' });
    await conditionBecomes('bb', 'BackupBucketsReady', 'Progressing', 'BackupBucketsGone');
    const gone = await conditionBecomes('bb', 'BackupBucketsReady', 'Unknown', 'BackupBucketsGone');
    expect(gone.message).toBe('Backup Buckets are gone.');
    // The other seed's bucket error never reached this seed, and this check never touched ExtensionsReady.
    expect(await seedCondition('bb', 'ExtensionsReady')).toBeUndefined();
  }, 30_000);
});
