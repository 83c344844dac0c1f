import { describe, expect, it } from 'vitest';
import { machinesToDelete } from '../machineset/reconciler.js';
import { machinePod, machinePodName, phaseFromPod } from './reconciler.js';

describe('phaseFromPod', () => {
  it('is Running only for a running, ready Pod; Failed when the Pod ended', () => {
    expect(phaseFromPod(undefined)).toBe('Pending');
    expect(phaseFromPod({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } })).toBe(
      'Pending',
    );
    expect(phaseFromPod({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } })).toBe(
      'Running',
    );
    expect(phaseFromPod({ status: { phase: 'Failed' } })).toBe('Failed');
    expect(phaseFromPod({ status: { phase: 'Succeeded' } })).toBe('Failed');
  });
});

describe('machinesToDelete', () => {
  const m = (name: string, phase: string, created: string) => ({
    metadata: { name, creationTimestamp: created },
    status: { currentStatus: { phase } },
  });
  it('deletes failed machines first, then pending ones, then the newest running ones', () => {
    const machines = [
      m('old-running', 'Running', '2026-01-01T00:00:00Z'),
      m('new-running', 'Running', '2026-01-02T00:00:00Z'),
      m('pending', 'Pending', '2026-01-01T00:00:00Z'),
      m('failed', 'Failed', '2026-01-01T00:00:00Z'),
    ];
    expect(machinesToDelete(machines, 3).map((x) => x.metadata?.name)).toEqual(['failed', 'pending', 'new-running']);
    expect(machinesToDelete(machines, 0)).toEqual([]);
    expect(machinesToDelete(machines, -1)).toEqual([]);
  });
});

describe('machinePod', () => {
  it('names the Pod after the Machine, within 63 characters, and mounts the user data of the class', () => {
    const long = `shoot--local--a-very-long-project-name-worker-pool-z1-5f9c8-abcde`;
    expect(machinePodName(long).length).toBeLessThanOrEqual(63);
    const pod = machinePod(
      {
        metadata: { name: 'shoot--local--local-worker-z1-abc12-xyz', namespace: 'shoot--local--local', uid: 'u1' },
        apiVersion: 'machine.sapcloud.io/v1alpha1',
        kind: 'Machine',
      },
      { metadata: { name: 'c' }, providerSpec: {}, secretRef: { name: 'c' } },
    ) as any;
    expect(pod.metadata.name).toBe('machine-shoot--local--local-worker-z1-abc12-xyz');
    expect(pod.spec.hostname).toBe(pod.metadata.name);
    expect(pod.spec.containers[0].image).toBe('gardener-ts/machine');
    expect(pod.spec.containers[0].env).toContainEqual({
      name: 'USER_DATA_FILE',
      value: '/etc/machine/userdata/userData',
    });
    expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: 'Machine', uid: 'u1', controller: true });
  });
});
