import { describe, expect, it } from 'vitest';
import { controllerManagerConfigSpec } from '@gardener-ts/component-config';
import { controllerRegistry, shootStateConcurrentSyncs } from './add.js';

const controllers = (blocks: Record<string, unknown> = {}) =>
  controllerManagerConfigSpec.schema.parse({
    apiVersion: 'controllermanager.config.gardener.cloud/v1alpha1',
    kind: 'ControllerManagerConfiguration',
    controllers: blocks,
  }).controllers;
const enabled = (c: ReturnType<typeof controllers>) =>
  controllerRegistry.filter((e) => e.enabled(c)).map((e) => e.name);

describe('controllerRegistry', () => {
  it('enables the seed checks by default (Gardener defaults them to 5 workers) and not with concurrentSyncs 0', () => {
    expect(enabled(controllers())).toEqual(
      expect.arrayContaining(['seed-extensions-check', 'seed-backupbuckets-check']),
    );
    const off = enabled(
      controllers({ seedExtensionsCheck: { concurrentSyncs: 0 }, seedBackupBucketsCheck: { concurrentSyncs: 0 } }),
    );
    expect(off).not.toContain('seed-extensions-check');
    expect(off).not.toContain('seed-backupbuckets-check');
    expect(off).toContain('seed-lifecycle');
  });

  it('reads Gardener’s defaults for the seed checks: 30s sync period, no thresholds', () => {
    const c = controllers();
    expect(c.seedExtensionsCheck).toMatchObject({ concurrentSyncs: 5, syncPeriod: '30s' });
    expect(c.seedBackupBucketsCheck).toMatchObject({ concurrentSyncs: 5, syncPeriod: '30s' });
    expect(c.seedExtensionsCheck.conditionThresholds).toBeUndefined();
  });

  it('registers the reference, retry and quota controllers with Gardener’s defaults (seedReference: 5 workers), off with 0', () => {
    const c = controllers();
    expect(c.seedReference).toEqual({ concurrentSyncs: 5 });
    expect(c.shootRetry).toEqual({ concurrentSyncs: 5, retryPeriod: '10m', retryJitterPeriod: '5m' });
    expect(enabled(c)).toEqual(
      expect.arrayContaining(['seed-reference', 'shoot-quota', 'shoot-reference', 'shoot-retry']),
    );
    const off = enabled(
      controllers({
        seedReference: { concurrentSyncs: 0 },
        shootReference: { concurrentSyncs: 0 },
        shootRetry: { concurrentSyncs: 0 },
        shootQuota: { concurrentSyncs: 0 },
      }),
    );
    expect(off).not.toContain('seed-reference');
    expect(off).not.toContain('shoot-reference');
    expect(off).not.toContain('shoot-retry');
    expect(off).not.toContain('shoot-quota');
  });

  it('registers shoot-conditions and shoot-migration with Gardener’s 5 workers, off with 0; the extension ClusterRole controller always', () => {
    const c = controllers();
    expect(c.shootConditions).toEqual({ concurrentSyncs: 5 });
    expect(c.shootMigration).toEqual({ concurrentSyncs: 5 });
    expect(enabled(c)).toEqual(
      expect.arrayContaining(['shoot-conditions', 'shoot-migration', 'controllerregistration-extension-clusterrole']),
    );
    const off = enabled(
      controllers({ shootConditions: { concurrentSyncs: 0 }, shootMigration: { concurrentSyncs: 0 } }),
    );
    expect(off).not.toContain('shoot-conditions');
    expect(off).not.toContain('shoot-migration');
    expect(off).toContain('controllerregistration-extension-clusterrole');
  });

  it('registers the ManagedSeedSet controller with Gardener’s defaults (5 workers, 30m, 3 retries), off with 0', () => {
    const c = controllers();
    expect(c.managedSeedSet).toEqual({ concurrentSyncs: 5, syncPeriod: '30m', maxShootRetries: 3 });
    expect(enabled(c)).toContain('managedseedset');
    expect(enabled(controllers({ managedSeedSet: { concurrentSyncs: 0 } }))).not.toContain('managedseedset');
  });

  it('registers the ShootState finalizer controller with Gardener’s 5 workers, off with concurrentSyncs 0', () => {
    const c = controllers();
    expect(shootStateConcurrentSyncs(c)).toBe(5);
    expect(enabled(c)).toContain('shootstate-finalizer');
    expect(shootStateConcurrentSyncs(controllers({ shootState: { concurrentSyncs: 2 } }))).toBe(2);
    expect(enabled(controllers({ shootState: { concurrentSyncs: 0 } }))).not.toContain('shootstate-finalizer');
  });
});
