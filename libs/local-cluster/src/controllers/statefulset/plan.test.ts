import { describe, expect, it } from 'vitest';
import type { Pod } from '../shared/kinds.js';
import { type Action, type PlanInput, planStatefulSet } from './plan.js';

const pod = (
  ordinal: number,
  o: { ready?: boolean; phase?: string; revision?: string; terminating?: boolean } = {},
): Pod => ({
  metadata: {
    name: `db-${ordinal}`,
    labels: { 'controller-revision-hash': o.revision ?? 'r1' },
    ...(o.terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  status: {
    phase: o.phase ?? 'Running',
    conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
  },
});
const plan = (input: Partial<Omit<PlanInput, 'pods'>> & { pods: Pod[] }) =>
  planStatefulSet({
    replicas: 3,
    start: 0,
    orderedReady: true,
    partition: 0,
    updateRevision: 'r1',
    ...input,
    pods: new Map(input.pods.map((p) => [Number(p.metadata!.name!.split('-')[1]), p])),
  });
const summary = (actions: Action[]) => actions.map((a) => `${a.type} ${a.ordinal}`);

describe('StatefulSet plan', () => {
  it('creates one ordinal at a time, each after the previous is running and ready (OrderedReady)', () => {
    expect(summary(plan({ pods: [] }))).toEqual(['create 0']);
    expect(summary(plan({ pods: [pod(0, { ready: false })] }))).toEqual([]);
    expect(summary(plan({ pods: [pod(0)] }))).toEqual(['create 1']);
    expect(summary(plan({ pods: [pod(0), pod(1)] }))).toEqual(['create 2']);
  });

  it('creates and deletes all at once with Parallel', () => {
    expect(summary(plan({ orderedReady: false, pods: [] }))).toEqual(['create 0', 'create 1', 'create 2']);
    expect(summary(plan({ orderedReady: false, replicas: 1, pods: [pod(0), pod(1), pod(2)] }))).toEqual([
      'delete 2',
      'delete 1',
    ]);
  });

  it('scales down from the highest ordinal, one at a time, waiting for the terminating one', () => {
    expect(summary(plan({ replicas: 1, pods: [pod(0), pod(1), pod(2)] }))).toEqual(['delete 2']);
    expect(summary(plan({ replicas: 1, pods: [pod(0), pod(1), pod(2, { terminating: true })] }))).toEqual([]);
  });

  it('replaces a failed pod', () => {
    expect(summary(plan({ pods: [pod(0), pod(1, { phase: 'Failed' })] }))).toEqual(['delete 1']);
  });

  it('rolls out from the highest ordinal down to the partition', () => {
    const old = [pod(0), pod(1), pod(2)];
    expect(summary(plan({ updateRevision: 'r2', pods: old }))).toEqual(['delete 2']);
    expect(summary(plan({ updateRevision: 'r2', pods: [pod(0), pod(1), pod(2, { revision: 'r2' })] }))).toEqual([
      'delete 1',
    ]);
    expect(
      summary(plan({ updateRevision: 'r2', partition: 2, pods: [pod(0), pod(1), pod(2, { revision: 'r2' })] })),
    ).toEqual([]);
    expect(
      summary(plan({ updateRevision: 'r2', pods: [pod(0), pod(1), pod(2, { revision: 'r2', ready: false })] })),
    ).toEqual([]);
    expect(summary(plan({ updateRevision: 'r2', partition: undefined, pods: old }))).toEqual([]);
  });

  it('honours spec.ordinals.start', () => {
    expect(summary(plan({ start: 5, replicas: 2, pods: [pod(5)] }))).toEqual(['create 6']);
    expect(summary(plan({ start: 1, replicas: 2, pods: [pod(0), pod(1), pod(2)] }))).toEqual(['delete 0']);
  });
});
