import { describe, expect, it } from 'vitest';
import type { MachineDeployment } from '../../machine/objects.js';
import { markAllMachinesForcefulDeletion, notRolledOut } from './actuator.js';

const md = (generation: number, replicas: number, available: number, observed = generation): MachineDeployment =>
  ({
    apiVersion: 'machine.sapcloud.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: { name: 'pool', generation },
    spec: { replicas },
    status: {
      observedGeneration: observed,
      replicas: available,
      updatedReplicas: available,
      availableReplicas: available,
    },
  }) as MachineDeployment;

describe('notRolledOut', () => {
  it('does not take the cached deployment of before the write (a hibernated pool at 0) for rolled out', () => {
    // Waking up: the pool was written with 1 replica (generation 3); the cache still has generation 2 at 0 replicas.
    expect(notRolledOut(new Map([['pool', md(2, 0, 0)]]), new Map([['pool', 3]]))).toEqual(['pool']);
    expect(notRolledOut(new Map([['pool', md(3, 1, 0)]]), new Map([['pool', 3]]))).toEqual(['pool']);
    expect(notRolledOut(new Map([['pool', md(3, 1, 1)]]), new Map([['pool', 3]]))).toEqual([]);
  });

  it('waits for deployments the cache does not have yet and for a status of the current generation', () => {
    expect(notRolledOut(new Map(), new Map([['pool', 1]]))).toEqual(['pool']);
    expect(notRolledOut(new Map([['pool', md(4, 1, 1, 3)]]), new Map([['pool', 4]]))).toEqual(['pool']);
  });
});

describe('markAllMachinesForcefulDeletion (Gardener: hibernation and Worker deletion)', () => {
  it('labels every machine force-deletion: "True" once', async () => {
    const patched: unknown[] = [];
    const client = {
      list: async () => ({
        items: [{ metadata: { name: 'm1' } }, { metadata: { name: 'm2', labels: { 'force-deletion': 'True' } } }],
      }),
      patch: async (_kind: unknown, key: unknown, patch: unknown) => {
        patched.push([key, patch]);
        return {};
      },
    };
    await markAllMachinesForcefulDeletion(client as never, 'shoot--a');
    expect(patched).toEqual([
      [
        { namespace: 'shoot--a', name: 'm1' },
        { type: 'merge', patch: { metadata: { labels: { 'force-deletion': 'True' } } } },
      ],
    ]);
  });
});
