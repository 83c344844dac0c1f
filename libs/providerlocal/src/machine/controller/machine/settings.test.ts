import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDuration } from '@gardener-ts/api';
import { DefaultMachineSettings, machineSettingsOf } from './settings.js';

describe('machineSettingsOf (MCM getEffective*)', () => {
  it("is the controller's defaults for a Machine without settings (MCM's: 20m, 10m, 2h, 360, its node conditions)", () => {
    expect(machineSettingsOf({})).toEqual({ ...DefaultMachineSettings, disableHealthTimeout: false });
    expect(DefaultMachineSettings).toMatchObject({
      creationTimeoutMs: 20 * 60_000,
      healthTimeoutMs: 10 * 60_000,
      drainTimeoutMs: 2 * 3_600_000,
      maxEvictRetries: 360,
      failureConditions: ['KernelDeadlock', 'ReadonlyFilesystem', 'DiskPressure', 'NetworkUnavailable'],
    });
  });

  it("takes the Machine's spec (copied from its MachineDeployment's template) over the defaults", () => {
    const s = machineSettingsOf({
      spec: {
        creationTimeout: '5m',
        healthTimeout: '90s',
        drainTimeout: '1h30m',
        maxEvictRetries: 4,
        nodeConditions: 'ReadonlyFilesystem, FrequentKubeletRestart',
        disableHealthTimeout: true,
      },
    });
    expect(s).toMatchObject({
      creationTimeoutMs: 300_000,
      healthTimeoutMs: 90_000,
      drainTimeoutMs: 5_400_000,
      maxEvictRetries: 4,
      failureConditions: ['ReadonlyFilesystem', 'FrequentKubeletRestart'],
      disableHealthTimeout: true,
    });
  });

  it('keeps the default for a value it cannot read; an empty condition list means none', () => {
    const s = machineSettingsOf({
      spec: { healthTimeout: 'soon', drainTimeout: '-1m', maxEvictRetries: -1, nodeConditions: '' },
    });
    expect(s.healthTimeoutMs).toBe(DefaultMachineSettings.healthTimeoutMs);
    expect(s.drainTimeoutMs).toBe(DefaultMachineSettings.drainTimeoutMs);
    expect(s.maxEvictRetries).toBe(DefaultMachineSettings.maxEvictRetries);
    expect(s.failureConditions).toEqual([]);
  });

  it('reads back every duration Gardener writes (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 48 * 3_600 }), fc.nat(1000), (seconds, retries) => {
        const d = formatDuration(seconds * 1000);
        const s = machineSettingsOf({
          spec: { creationTimeout: d, healthTimeout: d, drainTimeout: d, maxEvictRetries: retries },
        });
        expect([s.creationTimeoutMs, s.healthTimeoutMs, s.drainTimeoutMs]).toEqual([
          seconds * 1000,
          seconds * 1000,
          seconds * 1000,
        ]);
        expect(s.maxEvictRetries).toBe(retries);
      }),
    );
  });
});
