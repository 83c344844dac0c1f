import { describe, expect, it } from 'vitest';
import { machineConfigurationOf, wantedMachines, workerPoolHash, type WorkerPool } from './machines.js';

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

describe('workerPoolHash and credentials rotations', () => {
  const p = { ...pool(), name: 'worker' } as WorkerPool;
  const t1 = '2026-11-30T01:00:00Z';
  const t2 = '2026-11-30T02:00:00Z';

  it('keeps the hash of a shoot that never rotated, and changes it when a CA or service account key rotation starts', () => {
    const plain = workerPoolHash(p, '1.36.0');
    expect(workerPoolHash(p, '1.36.0', {})).toBe(plain);
    const ca = workerPoolHash(p, '1.36.0', { certificateAuthorities: { lastInitiationTime: t1 } });
    const sa = workerPoolHash(p, '1.36.0', { serviceAccountKey: { lastInitiationTime: t1 } });
    expect(new Set([plain, ca, sa]).size).toBe(3);
    // The next rotation rolls again; the same one does not.
    expect(workerPoolHash(p, '1.36.0', { certificateAuthorities: { lastInitiationTime: t2 } })).not.toBe(ca);
    expect(workerPoolHash(p, '1.36.0', { certificateAuthorities: { lastInitiationTime: t1 } })).toBe(ca);
  });

  it('does not roll a pool a rotation without workers rollout left pending', () => {
    const before = workerPoolHash(p, '1.36.0', { certificateAuthorities: { lastInitiationTime: t1 } });
    const pending = workerPoolHash(p, '1.36.0', {
      certificateAuthorities: {
        lastInitiationTime: t2,
        pendingWorkersRollouts: [{ name: 'worker', lastInitiationTime: t1 }],
      },
    });
    expect(pending).toBe(before);
    const other = workerPoolHash(p, '1.36.0', {
      certificateAuthorities: {
        lastInitiationTime: t2,
        pendingWorkersRollouts: [{ name: 'other', lastInitiationTime: t1 }],
      },
    });
    expect(other).not.toBe(before);
  });

  it('gives the rotated pools a new MachineClass, so their deployments roll the machines', () => {
    const worker = { metadata: { namespace: 'shoot--local--local' }, spec: { pools: [p] } } as never;
    const before = wantedMachines(worker, { kubernetesVersion: '1.36.0' });
    const during = wantedMachines(worker, {
      kubernetesVersion: '1.36.0',
      rotation: { certificateAuthorities: { lastInitiationTime: t1 } },
    });
    expect(during.machineDeployments[0]!.metadata!.name).toBe(before.machineDeployments[0]!.metadata!.name);
    expect(during.machineClasses[0]!.metadata!.name).not.toBe(before.machineClasses[0]!.metadata!.name);
  });
});
