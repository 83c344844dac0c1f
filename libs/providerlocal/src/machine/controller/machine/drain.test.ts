import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PodObject } from '@gardener-ts/controller-runtime';
import {
  DrainWarnings,
  NodeNotReadyForceDrainMs,
  PodDeletionBufferMs,
  effectiveMaxEvictRetries,
  forceReason,
  isMisconfiguredBudget,
  nextPodStep,
  podDisposition,
  podRemovalTime,
  podsToDrain,
  restoredPodState,
  terminationCondition,
} from './drain.js';
import { DefaultMachineDrainTimeoutMs, DefaultMaxEvictRetries, PodEvictionRetryIntervalMs } from './settings.js';

const t0 = Date.parse('2026-11-29T10:00:00Z');
const pod = (over: {
  name?: string;
  owner?: string;
  mirror?: boolean;
  emptyDir?: boolean;
  phase?: string;
  node?: string;
  deleting?: boolean;
  grace?: number;
}): PodObject => ({
  metadata: {
    name: over.name ?? 'p',
    namespace: 'default',
    uid: `uid-${over.name ?? 'p'}`,
    ...(over.mirror ? { annotations: { 'kubernetes.io/config.mirror': 'x' } } : {}),
    ...(over.owner
      ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: over.owner, name: 'o', uid: 'o', controller: true }] }
      : {}),
    ...(over.deleting ? { deletionTimestamp: new Date(t0).toISOString() } : {}),
  },
  spec: {
    nodeName: over.node ?? 'n1',
    containers: [],
    ...(over.emptyDir ? { volumes: [{ name: 'tmp', emptyDir: {} }] } : {}),
    ...(over.grace !== undefined ? { terminationGracePeriodSeconds: over.grace } : {}),
  },
  status: { phase: over.phase ?? 'Running' },
});

describe('podDisposition (MCM: --ignore-daemonsets, --delete-local-data, --force)', () => {
  it('leaves mirror Pods and DaemonSet Pods, takes every other Pod with MCM warnings', () => {
    expect(podDisposition(pod({ owner: 'ReplicaSet' }))).toEqual({ drain: true, warnings: [] });
    expect(podDisposition(pod({ mirror: true }))).toEqual({ drain: false, warnings: [] });
    expect(podDisposition(pod({ owner: 'DaemonSet' }))).toEqual({ drain: false, warnings: [DrainWarnings.daemonSet] });
    expect(podDisposition(pod({ owner: 'ReplicaSet', emptyDir: true }))).toEqual({
      drain: true,
      warnings: [DrainWarnings.localStorage],
    });
    expect(podDisposition(pod({}))).toEqual({ drain: true, warnings: [DrainWarnings.unmanaged] });
    // A finished Pod without controller goes without a warning.
    expect(podDisposition(pod({ phase: 'Succeeded' }))).toEqual({ drain: true, warnings: [] });
  });

  it('never takes a mirror or DaemonSet Pod, whatever else it has (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          owner: fc.constantFrom(undefined, 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job'),
          mirror: fc.boolean(),
          emptyDir: fc.boolean(),
          phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed'),
        }),
        (p) => {
          const d = podDisposition(pod(p));
          expect(d.drain).toBe(!p.mirror && p.owner !== 'DaemonSet');
        },
      ),
    );
  });

  it('takes only the Pods of the Node and names the special ones', () => {
    const { drain, warnings } = podsToDrain(
      [
        pod({ name: 'web', owner: 'ReplicaSet' }),
        pod({ name: 'ds', owner: 'DaemonSet' }),
        pod({ name: 'static', mirror: true }),
        pod({ name: 'other', owner: 'ReplicaSet', node: 'n2' }),
        pod({ name: 'bare' }),
      ],
      'n1',
    );
    expect(drain.map((p) => p.metadata?.name)).toEqual(['web', 'bare']);
    expect(warnings).toEqual([`${DrainWarnings.daemonSet}: ds`, `${DrainWarnings.unmanaged}: bare`]);
  });
});

describe('forceReason (MCM drainNode)', () => {
  const base = { now: t0, deletedAt: t0 - 1000, drainTimeoutMs: 60_000 };
  const since = (ms: number) => new Date(t0 - ms).toISOString();
  it('forces after the drain timeout since the deletion, or with the force-deletion label', () => {
    expect(forceReason(base)).toBeUndefined();
    expect(forceReason({ ...base, deletedAt: t0 - 60_001 })).toBe('timeout');
    expect(forceReason({ ...base, forceLabel: true })).toBe('label');
  });

  it('forces for a Node NotReady or with a read-only file system for more than 5 minutes', () => {
    const notReady = (ms: number) => [{ type: 'Ready', status: 'Unknown', lastTransitionTime: since(ms) }];
    expect(forceReason({ ...base, nodeConditions: notReady(NodeNotReadyForceDrainMs) })).toBeUndefined();
    expect(forceReason({ ...base, nodeConditions: notReady(NodeNotReadyForceDrainMs + 1) })).toBe('NotReady');
    const readonly = [
      { type: 'Ready', status: 'True', lastTransitionTime: since(3_600_000) },
      { type: 'ReadonlyFilesystem', status: 'True', lastTransitionTime: since(NodeNotReadyForceDrainMs + 1) },
    ];
    expect(forceReason({ ...base, nodeConditions: readonly })).toBe('ReadonlyFilesystem');
    expect(
      forceReason({
        ...base,
        nodeConditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since(3_600_000) }],
      }),
    ).toBeUndefined();
  });
});

describe('effectiveMaxEvictRetries', () => {
  it('is the machine’s, at most what fits into the drain timeout at one per 20 s; one when forced', () => {
    expect(DefaultMaxEvictRetries).toBe(360);
    expect(effectiveMaxEvictRetries(DefaultMaxEvictRetries, DefaultMachineDrainTimeoutMs, false)).toBe(360);
    expect(effectiveMaxEvictRetries(360, 60_000, false)).toBe(3);
    expect(effectiveMaxEvictRetries(2, 60_000, false)).toBe(2);
    expect(effectiveMaxEvictRetries(360, 60_000, true)).toBe(1);
  });

  it('never lets the retries outlast the drain timeout (property)', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10 * 3_600_000), (retries, timeout) => {
        const n = effectiveMaxEvictRetries(retries, timeout, false);
        expect(n).toBeLessThanOrEqual(retries);
        expect(n * PodEvictionRetryIntervalMs).toBeLessThanOrEqual(timeout);
      }),
    );
  });
});

describe('nextPodStep', () => {
  const step = (over: Partial<Parameters<typeof nextPodStep>[0]>) =>
    nextPodStep({
      pod: pod({ owner: 'ReplicaSet' }),
      state: undefined,
      now: t0,
      forced: false,
      maxEvictRetries: 3,
      drainTimeoutMs: 60_000,
      ...over,
    });

  it('evicts, evicts again after the retry interval, deletes once the evictions are used up', () => {
    expect(step({})).toEqual({ type: 'evict' });
    expect(step({ state: { refused: 1, nextAttemptAt: t0 + 20_000 } })).toEqual({
      type: 'retry-later',
      atMs: t0 + 20_000,
    });
    expect(step({ state: { refused: 1, nextAttemptAt: t0 } })).toEqual({ type: 'evict' });
    expect(step({ state: { refused: 3, nextAttemptAt: t0 + 20_000 } })).toEqual({ type: 'delete' });
  });

  it('waits for an evicted Pod its grace period (at most the drain timeout) plus 30 s, then fails', () => {
    const evicted = { refused: 0, nextAttemptAt: 0, removedAt: t0 };
    const graceful = pod({ owner: 'ReplicaSet', grace: 10 });
    expect(step({ pod: graceful, state: evicted, now: t0 + 5000 })).toEqual({
      type: 'wait',
      untilMs: t0 + 10_000 + PodDeletionBufferMs,
    });
    expect(step({ pod: graceful, state: evicted, now: t0 + 10_000 + PodDeletionBufferMs + 1 })).toEqual({
      type: 'timeout',
    });
    const long = pod({ owner: 'ReplicaSet', grace: 3600 });
    expect(step({ pod: long, state: evicted, now: t0 + 1 })).toEqual({
      type: 'wait',
      untilMs: t0 + 60_000 + PodDeletionBufferMs,
    });
    // A Pod terminating already is waited for too.
    expect(step({ pod: pod({ owner: 'ReplicaSet', deleting: true }) }).type).toBe('wait');
  });

  it('deletes at once when forced and never waits (property)', () => {
    fc.assert(
      fc.property(
        fc.option(
          fc.record({
            refused: fc.nat(10),
            nextAttemptAt: fc.nat(),
            removedAt: fc.option(fc.nat(), { nil: undefined }),
          }),
          {
            nil: undefined,
          },
        ),
        fc.boolean(),
        (state, deleting) => {
          const s = step({ pod: pod({ owner: 'ReplicaSet', deleting }), state, forced: true });
          expect(s.type).toBe(state?.removedAt !== undefined ? 'done' : 'delete');
        },
      ),
    );
  });

  it('never evicts a Pod whose evictions are used up (property)', () => {
    fc.assert(
      fc.property(fc.nat(5), fc.nat(5), fc.integer({ min: -50_000, max: 50_000 }), (refused, max, offset) => {
        const s = step({ state: { refused, nextAttemptAt: t0 + offset }, maxEvictRetries: max });
        if (refused >= max) expect(s.type).toBe('delete');
        else expect(s.type).not.toBe('delete');
      }),
    );
  });
});

describe('restoredPodState (a restarted controller continues the drain)', () => {
  const started = t0 - 90_000;
  /** A Pod whose eviction the API server accepted at `at` with `grace` seconds. */
  const evictedAt = (at: number, grace: number): PodObject => {
    const p = pod({ owner: 'ReplicaSet', grace });
    p.metadata = {
      ...p.metadata,
      deletionTimestamp: new Date(at + grace * 1000).toISOString(),
      deletionGracePeriodSeconds: grace,
    } as PodObject['metadata'];
    return p;
  };

  it('reads when a Pod was evicted from its deletion timestamp, and waits for it from then, not from the restart', () => {
    const evicted = evictedAt(t0 - 60_000, 30);
    expect(podRemovalTime(evicted)).toBe(t0 - 60_000);
    expect(podRemovalTime(pod({}))).toBeUndefined();
    const state = restoredPodState(evicted, { startedAt: started, now: t0 });
    expect(state.removedAt).toBe(t0 - 60_000);
    const step = (now: number) =>
      nextPodStep({ pod: evicted, state, now, forced: false, maxEvictRetries: 3, drainTimeoutMs: 3_600_000 });
    // Evicted 60 s ago with 30 s grace: 30 s + 30 s buffer are over, the drain fails for it now.
    expect(step(t0 + 1)).toEqual({ type: 'timeout' });
    expect(step(t0)).toEqual({ type: 'wait', untilMs: t0 });
    // A Pod deleted before this drain began (an earlier one failed) is waited for from the drain's start.
    expect(restoredPodState(evictedAt(started - 600_000, 30), { startedAt: started, now: t0 }).removedAt).toBe(started);
  });

  it('counts a Pod still there as refused once per retry interval since the drain began', () => {
    expect(restoredPodState(pod({}), { startedAt: started, now: t0 })).toEqual({ refused: 4, nextAttemptAt: 0 });
    expect(restoredPodState(pod({}), { startedAt: t0, now: t0 })).toEqual({ refused: 0, nextAttemptAt: 0 });
    const step = (refused: number) =>
      nextPodStep({
        pod: pod({ owner: 'ReplicaSet' }),
        state: { refused, nextAttemptAt: 0 },
        now: t0,
        forced: false,
        maxEvictRetries: 4,
        drainTimeoutMs: 3_600_000,
      });
    expect(step(restoredPodState(pod({}), { startedAt: started, now: t0 }).refused)).toEqual({ type: 'delete' });
    expect(step(restoredPodState(pod({}), { startedAt: started + 10_001, now: t0 }).refused)).toEqual({
      type: 'evict',
    });
  });

  it('uses up the evictions when the uninterrupted drain would have: max evictions × 20 s after it began (property)', () => {
    fc.assert(
      fc.property(fc.nat(3_600_000), fc.nat(200), (elapsed, maxEvictRetries) => {
        const state = restoredPodState(pod({}), { startedAt: t0, now: t0 + elapsed });
        const s = nextPodStep({
          pod: pod({ owner: 'ReplicaSet' }),
          state,
          now: t0 + elapsed,
          forced: false,
          maxEvictRetries,
          drainTimeoutMs: 7_200_000,
        });
        expect(s.type).toBe(elapsed >= maxEvictRetries * PodEvictionRetryIntervalMs ? 'delete' : 'evict');
      }),
    );
  });
});

describe('terminationCondition (MCM UpdateNodeTerminationCondition)', () => {
  const now = new Date(t0).toISOString();
  it('is Unhealthy for a Failed machine, ScaleDown otherwise; kept when the Node has one and the machine terminates', () => {
    expect(terminationCondition([], 'Failed', now)).toMatchObject({
      type: 'Terminating',
      status: 'True',
      reason: 'Unhealthy',
    });
    expect(terminationCondition([], 'Running', now)).toMatchObject({ reason: 'ScaleDown' });
    expect(terminationCondition([], 'Terminating', now)).toMatchObject({ reason: 'ScaleDown' });
    expect(
      terminationCondition([{ type: 'Terminating', status: 'True', reason: 'Unhealthy' }], 'Terminating', now),
    ).toBeUndefined();
    expect(terminationCondition([], undefined, now)).toBeUndefined();
    expect(terminationCondition([], 'CrashLoopBackOff', now)).toBeUndefined();
  });
});

describe('isMisconfiguredBudget (MCM isMisconfiguredPdb)', () => {
  const pdb = (status: object, generation = 1, observed = 1) => ({
    metadata: { name: 'b', generation },
    status: { observedGeneration: observed, ...status },
  });
  it('is a budget that can never allow an eviction: all Pods healthy, none disrupted, still none allowed', () => {
    expect(isMisconfiguredBudget(pdb({ expectedPods: 2, currentHealthy: 2, disruptionsAllowed: 0 }))).toBe(true);
    expect(isMisconfiguredBudget(pdb({ expectedPods: 2, currentHealthy: 1, disruptionsAllowed: 0 }))).toBe(false);
    expect(isMisconfiguredBudget(pdb({ expectedPods: 2, currentHealthy: 2, disruptionsAllowed: 1 }))).toBe(false);
    expect(
      isMisconfiguredBudget(
        pdb({ expectedPods: 2, currentHealthy: 2, disruptionsAllowed: 0, disruptedPods: { p: 'x' } }),
      ),
    ).toBe(false);
    expect(isMisconfiguredBudget(pdb({ expectedPods: 2, currentHealthy: 2, disruptionsAllowed: 0 }, 2, 1))).toBe(false);
    expect(isMisconfiguredBudget(pdb({ expectedPods: 0, currentHealthy: 0, disruptionsAllowed: 0 }))).toBe(false);
  });
});
