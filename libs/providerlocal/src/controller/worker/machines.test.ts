import { describe, expect, it } from 'vitest';
import { machineConfigurationOf, wantedMachines, type WorkerPool } from './machines.js';

const pool = (machineControllerManager?: WorkerPool['machineControllerManager']): WorkerPool =>
  ({
    name: 'worker',
    machineType: 'local',
    minimum: 1,
    maximum: 2,
    maxSurge: 1,
    maxUnavailable: 0,
    userDataSecretRef: { name: 'ud', key: 'userData' },
    ...(machineControllerManager ? { machineControllerManager } : {}),
  }) as WorkerPool;

describe("a pool's machine-controller-manager settings (Gardener's ReadMachineConfiguration)", () => {
  it('carries the timeouts, evictions and Node conditions into the MachineDeployment template', () => {
    const settings = {
      machineDrainTimeout: '30m',
      machineHealthTimeout: '5m',
      machineCreationTimeout: '15m',
      maxEvictRetries: 7,
      nodeConditions: ['ReadonlyFilesystem', 'FrequentKubeletRestart'],
      disableHealthTimeout: true,
    };
    expect(machineConfigurationOf(pool(settings))).toEqual({
      drainTimeout: '30m',
      healthTimeout: '5m',
      creationTimeout: '15m',
      maxEvictRetries: 7,
      nodeConditions: 'ReadonlyFilesystem,FrequentKubeletRestart',
      disableHealthTimeout: true,
    });
    const wanted = wantedMachines(
      { metadata: { namespace: 'shoot--p--s' }, spec: { region: 'local', pools: [pool(settings)] } as never },
      {},
    );
    expect(wanted.machineDeployments[0]!.spec!.template.spec).toMatchObject({
      drainTimeout: '30m',
      healthTimeout: '5m',
      creationTimeout: '15m',
      maxEvictRetries: 7,
      nodeConditions: 'ReadonlyFilesystem,FrequentKubeletRestart',
      disableHealthTimeout: true,
    });
  });

  it('sets nothing a pool does not ask for (the controller defaults apply)', () => {
    expect(machineConfigurationOf(pool())).toEqual({});
    expect(machineConfigurationOf(pool({ nodeConditions: [] }))).toEqual({});
    expect(machineConfigurationOf(pool({ maxEvictRetries: 0 }))).toEqual({ maxEvictRetries: 0 });
    expect(machineConfigurationOf(pool({ disableHealthTimeout: false }))).toEqual({ disableHealthTimeout: false });
  });
});
