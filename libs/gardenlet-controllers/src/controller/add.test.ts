import { describe, expect, it } from 'vitest';
import { CONTROLLERS, thresholdsOf } from './add.js';

describe('controller registry', () => {
  it('registers the seed, ControllerInstallation and TokenRequestor controllers', () => {
    expect(Object.keys(CONTROLLERS)).toEqual([
      'seed-lease',
      'seed',
      'seed-care',
      'backupentry',
      'backupbucket',
      'bastion',
      'controllerinstallation',
      'controllerinstallation-care',
      'controllerinstallation-required',
      'shoot',
      'shoot-care',
      'shoot-state',
      'managedseed',
      'etcd',
      'etcdcopybackupstask',
      'networkpolicy',
      'token-requestor',
    ]);
  });

  it('gates the BackupEntry controller by controllers.backupEntry.concurrentSyncs (0 disables)', () => {
    const config = (concurrentSyncs: number) => ({ controllers: { backupEntry: { concurrentSyncs } } }) as never;
    expect(CONTROLLERS.backupentry!.enabled(config(0))).toBe(false);
    expect(CONTROLLERS.backupentry!.enabled(config(20))).toBe(true);
  });

  it('gates the ControllerInstallation controllers by concurrentSyncs (0 disables)', () => {
    const config = {
      controllers: {
        controllerInstallation: { concurrentSyncs: 0 },
        controllerInstallationCare: { concurrentSyncs: 20 },
      },
    } as never;
    expect(CONTROLLERS.controllerinstallation!.enabled(config)).toBe(false);
    expect(CONTROLLERS['controllerinstallation-care']!.enabled(config)).toBe(true);
  });

  it('gates the BackupBucket controller by controllers.backupBucket.concurrentSyncs (0 disables)', () => {
    const config = (concurrentSyncs: number) => ({ controllers: { backupBucket: { concurrentSyncs } } }) as never;
    expect(CONTROLLERS.backupbucket!.enabled(config(0))).toBe(false);
    expect(CONTROLLERS.backupbucket!.enabled(config(20))).toBe(true);
  });

  it('gates the Bastion controller by controllers.bastion.concurrentSyncs (0 disables)', () => {
    const config = (concurrentSyncs: number) => ({ controllers: { bastion: { concurrentSyncs } } }) as never;
    expect(CONTROLLERS.bastion!.enabled(config(0))).toBe(false);
    expect(CONTROLLERS.bastion!.enabled(config(20))).toBe(true);
  });

  it('gates the ShootState backup by controllers.shootState.concurrentSyncs (0 disables)', () => {
    const config = (concurrentSyncs: number) => ({ controllers: { shootState: { concurrentSyncs } } }) as never;
    expect(CONTROLLERS['shoot-state']!.enabled(config(0))).toBe(false);
    expect(CONTROLLERS['shoot-state']!.enabled(config(5))).toBe(true);
  });

  it('gates the ManagedSeed controller by controllers.managedSeed.concurrentSyncs (0 disables)', () => {
    const config = (concurrentSyncs: number) => ({ controllers: { managedSeed: { concurrentSyncs } } }) as never;
    expect(CONTROLLERS.managedseed!.enabled(config(0))).toBe(false);
    expect(CONTROLLERS.managedseed!.enabled(config(20))).toBe(true);
  });

  it('reads condition thresholds as in the example configuration', () => {
    expect(thresholdsOf([{ type: 'SeedSystemComponentsHealthy', duration: '1m' }])).toEqual({
      SeedSystemComponentsHealthy: 60_000,
    });
    expect(thresholdsOf(undefined)).toEqual({});
  });
});
