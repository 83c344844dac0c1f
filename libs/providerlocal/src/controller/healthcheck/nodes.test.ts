import { describe, expect, it } from 'vitest';
import type { NodeObject } from '@gardener-ts/controller-runtime';
import type { HealthCheckContext } from '@gardener-ts/extensions';
import type { Machine, MachineDeployment } from '../../machine/objects.js';
import {
  NotManagedByMCMAnnotation,
  ScaleDownProgressingThresholdMs,
  ScaleUpProgressingThresholdMs,
  everyNodeReady,
  everyNodeReadyCheck,
  machineDeploymentUnhealthy,
} from './nodes.js';

const md = (name: string, replicas: number, over: Partial<MachineDeployment> = {}): MachineDeployment => ({
  metadata: { name, namespace: 'shoot--p--s', generation: 1 },
  spec: { replicas } as MachineDeployment['spec'],
  status: { observedGeneration: 1 },
  ...over,
});
const machine = (name: string, phase: string, over: { node?: string; deleting?: boolean } = {}): Machine =>
  ({
    metadata: {
      name,
      namespace: 'shoot--p--s',
      ...(over.node ? { labels: { node: over.node } } : {}),
      ...(over.deleting ? { deletionTimestamp: '2026-11-29T10:00:00Z' } : {}),
    },
    status: { currentStatus: { phase }, lastOperation: { description: `${name} is ${phase}` } },
  }) as Machine;
const node = (name: string, ready = true, over: { cordoned?: boolean; notManaged?: boolean } = {}): NodeObject =>
  ({
    metadata: { name, ...(over.notManaged ? { annotations: { [NotManagedByMCMAnnotation]: '1' } } : {}) },
    spec: over.cordoned ? { unschedulable: true } : {},
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  }) as NodeObject;

describe('everyNodeReady', () => {
  it('is True when as many Nodes are ready as machines are wanted', () => {
    expect(
      everyNodeReady({
        machineDeployments: [md('a', 1), md('b', 1)],
        machines: [machine('m1', 'Running'), machine('m2', 'Running')],
        nodes: [node('n1'), node('n2'), node('foreign', false, { notManaged: true })],
      }),
    ).toEqual({ status: 'True' });
  });

  it('is False for a Failed machine, naming it and its last operation', () => {
    const result = everyNodeReady({
      machineDeployments: [md('a', 1)],
      machines: [machine('m1', 'Failed')],
      nodes: [],
    });
    expect(result).toEqual({ status: 'False', detail: 'machine "m1" failed: m1 is Failed' });
  });

  it('is False for a MachineDeployment whose generation is not observed or whose condition is wrong', () => {
    expect(machineDeploymentUnhealthy(md('a', 1, { status: { observedGeneration: 0 } }))).toBe(
      'observed generation outdated (0/1)',
    );
    const frozen = md('a', 1, {
      status: {
        observedGeneration: 1,
        conditions: [{ type: 'Frozen', status: 'True', reason: 'Frozen', message: 'frozen.' }],
      },
    } as Partial<MachineDeployment>);
    expect(machineDeploymentUnhealthy(frozen)).toBe('frozen (Frozen)');
    expect(machineDeploymentUnhealthy(md('a', 1))).toBeUndefined();
  });

  it('is Progressing while pending machines join, with the scale-up threshold', () => {
    expect(
      everyNodeReady({
        machineDeployments: [md('a', 2)],
        machines: [machine('m1', 'Running'), machine('m2', 'Pending')],
        nodes: [node('n1')],
      }),
    ).toEqual({
      status: 'Progressing',
      detail: '1 node is provisioning and should join the cluster soon',
      progressingThresholdMs: ScaleUpProgressingThresholdMs,
    });
  });

  it('is False when Nodes are missing and no machine is on its way', () => {
    const base = { machineDeployments: [md('a', 2)], nodes: [node('n1'), node('n2', false)] };
    expect(everyNodeReady({ ...base, machines: [machine('m1', 'Running')] }).detail).toBe(
      'not enough machine objects created yet (1/2)',
    );
    expect(everyNodeReady({ ...base, machines: [machine('m1', 'Running'), machine('m2', 'Unknown')] }).detail).toBe(
      '1 node is erroneous',
    );
    expect(everyNodeReady({ ...base, machines: [machine('m1', 'Running'), machine('m2', 'Running')] }).detail).toBe(
      'not enough ready worker nodes registered in the cluster (1/2)',
    );
  });

  it('is Progressing while the surplus Nodes are cordoned and their machines deleted, False otherwise', () => {
    const machines = [
      machine('m1', 'Running', { node: 'n1' }),
      machine('m2', 'Terminating', { node: 'n2', deleting: true }),
    ];
    expect(
      everyNodeReady({
        machineDeployments: [md('a', 1)],
        machines,
        nodes: [node('n1'), node('n2', true, { cordoned: true })],
      }),
    ).toMatchObject({ status: 'Progressing', progressingThresholdMs: ScaleDownProgressingThresholdMs });
    expect(everyNodeReady({ machineDeployments: [md('a', 1)], machines, nodes: [node('n1'), node('n2')] }).detail).toBe(
      'too many worker nodes are registered. Exceeding maximum desired machine count (2/1)',
    );
    const kept = [machine('m1', 'Running', { node: 'n1' }), machine('m2', 'Running', { node: 'n2' })];
    expect(
      everyNodeReady({
        machineDeployments: [md('a', 1)],
        machines: kept,
        nodes: [node('n1'), node('n2', true, { cordoned: true })],
      }).detail,
    ).toBe('cordoned node "n2" found but corresponding machine object does not have a deletion timestamp');
  });

  it('does not count the replicas of a MachineDeployment being deleted', () => {
    const deleting = md('old', 3, {
      metadata: { name: 'old', generation: 1, deletionTimestamp: '2026-11-29T10:00:00Z' },
    });
    expect(
      everyNodeReady({
        machineDeployments: [md('a', 1), deleting],
        machines: [machine('m1', 'Running')],
        nodes: [node('n1')],
      }),
    ).toEqual({ status: 'True' });
  });
});

describe('everyNodeReadyCheck', () => {
  const seedClient = (deployments: MachineDeployment[], machines: Machine[]) =>
    ({
      get: async () => {
        throw new Error('unexpected get');
      },
      list: async (kind: { kind: string }, opts?: { namespace?: string }) => {
        expect(opts?.namespace).toBe('shoot--p--s');
        return { items: kind.kind === 'MachineDeployment' ? deployments : machines };
      },
    }) as unknown as HealthCheckContext['seedClient'];
  const ctx = (seed: HealthCheckContext['seedClient']): HealthCheckContext => ({
    seedClient: seed,
    namespace: 'shoot--p--s',
    object: { metadata: { name: 'w', namespace: 'shoot--p--s' } } as HealthCheckContext['object'],
  });

  it('reads the MachineDeployments and Machines of the namespace and the shoot’s Nodes, closing the shoot client', async () => {
    let closed = 0;
    const check = everyNodeReadyCheck(async (_seed, namespace) => {
      expect(namespace).toBe('shoot--p--s');
      return { list: async () => ({ items: [node('n1', false)] }) as never, close: () => void closed++ };
    });
    const result = await check(ctx(seedClient([md('a', 1)], [machine('m1', 'Running')])));
    expect(result).toMatchObject({
      status: 'False',
      detail: 'not enough ready worker nodes registered in the cluster (0/1)',
    });
    expect(closed).toBe(1);
  });

  it('rejects (the condition turns Unknown) when the shoot does not answer', async () => {
    const check = everyNodeReadyCheck(async () => ({
      list: async () => {
        throw new Error('connection refused');
      },
    }));
    await expect(check(ctx(seedClient([md('a', 1)], [])))).rejects.toThrow(/failed to list the Nodes/);
  });
});
