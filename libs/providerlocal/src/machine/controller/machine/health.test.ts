import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Machine, MachinePhase } from '../../objects.js';
import {
  DefaultMachineHealthOptions,
  decideMachineHealth,
  mayMarkFailed,
  nodeHealthOf,
  type MachineHealthInput,
  type NodeHealth,
  type PodHealth,
  nodeStateOf,
} from './health.js';

const options = { creationTimeoutMs: 20 * 60_000, healthTimeoutMs: 10 * 60_000, healthCheckPeriodMs: 30_000 };
const t0 = Date.parse('2026-11-29T10:00:00Z');
const ready: PodHealth = { state: 'Ready' };
const input = (over: Partial<MachineHealthInput>): MachineHealthInput => ({
  name: 'm1',
  nodeName: 'machine-m1',
  phase: 'Running',
  phaseSince: t0,
  pod: ready,
  node: { state: 'Ready' },
  now: t0 + 1000,
  options,
  ...over,
});

describe('nodeStateOf', () => {
  it("adds the Machine's copy of the Node's conditions only when asked, keeping the fields MCM keeps", () => {
    const conditions = [
      { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: 'h', lastTransitionTime: 't' },
      { type: 'DiskPressure', status: 'True', message: 'full', extra: 'dropped' },
    ];
    expect(nodeStateOf(conditions, undefined, false)).toEqual({
      state: 'NotReady',
      conditions: 'DiskPressure=True',
    });
    expect(nodeStateOf(conditions, [], true)).toEqual({
      state: 'Ready',
      nodeConditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: 'h', lastTransitionTime: 't' },
        { type: 'DiskPressure', status: 'True', message: 'full' },
      ],
    });
  });
});

describe('nodeHealthOf', () => {
  it('is Ready when Ready is True and no failure condition is other than False', () => {
    expect(nodeHealthOf([{ type: 'Ready', status: 'True' }])).toEqual({ state: 'Ready' });
    expect(
      nodeHealthOf([
        { type: 'Ready', status: 'True' },
        { type: 'DiskPressure', status: 'False' },
        { type: 'MemoryPressure', status: 'True' },
      ]),
    ).toEqual({ state: 'Ready' });
  });

  it('names the conditions that make a Node unhealthy', () => {
    expect(nodeHealthOf([{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }])).toEqual({
      state: 'NotReady',
      conditions: 'Ready=False (KubeletNotReady)',
    });
    expect(
      nodeHealthOf([
        { type: 'Ready', status: 'True' },
        { type: 'NetworkUnavailable', status: 'True' },
      ]),
    ).toEqual({ state: 'NotReady', conditions: 'NetworkUnavailable=True' });
    expect(nodeHealthOf(undefined).state).toBe('NotReady');
    expect(nodeHealthOf([{ type: 'KernelDeadlock', status: 'Unknown' }], []).state).toBe('NotReady');
  });
});

describe('decideMachineHealth', () => {
  it('turns a Pending machine Running once its Pod is ready and its Node Ready (it joined)', () => {
    const joined = decideMachineHealth(input({ phase: 'Pending' }));
    expect(joined).toMatchObject({ phase: 'Running', joined: true, recheckAfterMs: options.healthCheckPeriodMs });
    expect(joined.operation).toEqual({
      type: 'Create',
      state: 'Successful',
      description: 'Machine m1 successfully joined the cluster',
    });
    const waiting = decideMachineHealth(input({ phase: undefined, node: { state: 'NotFound' } }));
    // The Node's joining is an event of the shoot's Node watch: looked at again at the resync at the latest.
    expect(waiting).toMatchObject({ phase: 'Pending', recheckAfterMs: options.healthCheckPeriodMs });
    expect(waiting.operation?.description).toContain('Node machine-m1');
    const podNotReady = decideMachineHealth(input({ phase: 'Pending', pod: { state: 'NotReady', name: 'p' } }));
    expect(podNotReady.phase).toBe('Pending');
    // Looked at again when the creation timeout runs out.
    expect(podNotReady.recheckAfterMs).toBe(options.creationTimeoutMs - 1000 + 1);
  });

  it('turns a Running machine Unknown when its Node is not Ready, missing, or its Pod is not ready', () => {
    const notReady = decideMachineHealth(input({ node: { state: 'NotReady', conditions: 'Ready=Unknown' } }));
    expect(notReady.phase).toBe('Unknown');
    expect(notReady.operation).toMatchObject({ type: 'HealthCheck', state: 'Processing' });
    expect(notReady.operation?.description).toContain('Ready=Unknown');
    const missing = decideMachineHealth(input({ node: { state: 'NotFound' } }));
    expect(missing.phase).toBe('Unknown');
    expect(missing.operation?.description).toContain('not in the shoot');
    const pod = decideMachineHealth(input({ pod: { state: 'NotReady', name: 'machine-m1' }, node: undefined }));
    expect(pod.phase).toBe('Unknown');
    expect(pod.operation?.description).toContain('machine Pod machine-m1 is not ready');
    expect(decideMachineHealth(input({ pod: { state: 'Missing' }, node: undefined })).phase).toBe('Unknown');
  });

  it('brings an Unknown machine back to Running when it is healthy again (re-joined)', () => {
    const back = decideMachineHealth(input({ phase: 'Unknown', lastOperation: { type: 'HealthCheck' } }));
    expect(back.phase).toBe('Running');
    expect(back.joined).toBeFalsy();
    expect(back.operation).toMatchObject({
      type: 'HealthCheck',
      description: 'Machine m1 successfully re-joined the cluster',
    });
  });

  it('fails an Unknown machine after the health timeout and a Pending one after the creation timeout', () => {
    const unhealthy: Partial<MachineHealthInput> = { phase: 'Unknown', node: { state: 'NotFound' } };
    const before = decideMachineHealth(input({ ...unhealthy, now: t0 + options.healthTimeoutMs - 5000 }));
    expect(before).toEqual({ phase: 'Unknown', recheckAfterMs: 5001 });
    const after = decideMachineHealth(
      input({ ...unhealthy, lastOperation: { type: 'HealthCheck' }, now: t0 + options.healthTimeoutMs + 1 }),
    );
    expect(after.phase).toBe('Failed');
    expect(after.operation).toMatchObject({ type: 'HealthCheck', state: 'Failed' });
    expect(after.operation?.description).toContain('health checks failing since last 10m0s');

    const pending = decideMachineHealth(
      input({ phase: 'Pending', node: { state: 'NotFound' }, now: t0 + options.creationTimeoutMs + 1 }),
    );
    expect(pending.phase).toBe('Failed');
    expect(pending.operation?.description).toBe('Machine m1 failed to join the cluster in 20m0s.');
    const ended = decideMachineHealth(input({ phase: 'Pending', pod: { state: 'Ended', name: 'p', phase: 'Failed' } }));
    expect(ended.phase).toBe('Failed');
  });

  it('decides nothing while the shoot cannot be reached, and restarts the health timeout after an outage', () => {
    const unreachable: NodeHealth = { state: 'Unreachable', error: 'connect ECONNREFUSED' };
    const late = t0 + options.healthTimeoutMs * 3;
    expect(decideMachineHealth(input({ node: unreachable, now: late }))).toEqual({
      phase: 'Running',
      recheckAfterMs: options.healthCheckPeriodMs,
    });
    expect(decideMachineHealth(input({ phase: 'Unknown', node: unreachable, now: late })).phase).toBe('Unknown');
    const pending = decideMachineHealth(input({ phase: 'Pending', node: unreachable, now: late }));
    expect(pending.phase).toBe('Pending');
    expect(pending.operation?.description).toContain('ECONNREFUSED');
    const unknown: Partial<MachineHealthInput> = { phase: 'Unknown', node: { state: 'NotFound' }, now: late };
    expect(decideMachineHealth(input(unknown)).phase).toBe('Failed');
    expect(decideMachineHealth(input({ ...unknown, shootBackSince: late - 1000 })).phase).toBe('Unknown');
  });

  it('leaves Failed and Terminating machines alone', () => {
    expect(decideMachineHealth(input({ phase: 'Failed' }))).toEqual({ phase: 'Failed' });
    expect(decideMachineHealth(input({ phase: 'Terminating', node: { state: 'NotFound' } }))).toEqual({
      phase: 'Terminating',
    });
  });

  const pods = fc.constantFrom<PodHealth>(
    { state: 'Ready' },
    { state: 'NotReady', name: 'p' },
    { state: 'Missing' },
    { state: 'Ended', name: 'p', phase: 'Failed' },
  );
  const nodes = fc.constantFrom<NodeHealth | undefined>(
    undefined,
    { state: 'Ready' },
    { state: 'NotReady', conditions: 'Ready=False' },
    { state: 'NotFound' },
    { state: 'Unreachable', error: 'timeout' },
  );
  const observations = fc.array(fc.record({ after: fc.integer({ min: 1, max: 8 * 60_000 }), pod: pods, node: nodes }), {
    maxLength: 40,
  });

  it('never fails a Running machine without it being Unknown for the health timeout first (property)', () => {
    fc.assert(
      fc.property(observations, (steps) => {
        let phase: MachinePhase = 'Running';
        let since = t0;
        let now = t0;
        let unknownSince: number | undefined;
        for (const step of steps) {
          now += step.after;
          const next = decideMachineHealth(input({ phase, phaseSince: since, pod: step.pod, node: step.node, now }));
          if (next.phase === 'Failed') {
            expect(phase).toBe('Unknown');
            expect(now - unknownSince!).toBeGreaterThanOrEqual(options.healthTimeoutMs);
            return;
          }
          if (next.phase !== phase) {
            since = now;
            unknownSince = next.phase === 'Unknown' ? now : undefined;
          }
          phase = next.phase;
          expect(['Running', 'Unknown']).toContain(phase);
        }
      }),
    );
  });

  it('is Running only with a ready Pod and a Ready Node, or kept Running while the shoot is away (property)', () => {
    const phases = fc.constantFrom<MachinePhase | undefined>(undefined, 'Pending', 'Running', 'Unknown', 'Failed');
    fc.assert(
      fc.property(phases, pods, nodes, fc.integer({ min: 0, max: 60 * 60_000 }), (phase, pod, node, elapsed) => {
        const next = decideMachineHealth(input({ phase, pod, node, now: t0 + elapsed }));
        if (next.phase === 'Running') {
          expect(pod.state).toBe('Ready');
          const healthyNode = node === undefined || node.state === 'Ready';
          expect(healthyNode || (phase === 'Running' && node?.state === 'Unreachable')).toBe(true);
        }
        // An unanswered shoot never fails a machine with a ready Pod.
        if (pod.state === 'Ready' && node?.state === 'Unreachable') expect(next.phase).toBe(phase ?? 'Pending');
        if (next.phase === 'Failed' && phase !== 'Failed') {
          const timeout = phase === 'Unknown' ? options.healthTimeoutMs : options.creationTimeoutMs;
          expect(elapsed > timeout || (phase !== 'Unknown' && pod.state === 'Ended')).toBe(true);
        }
        // A machine that may still change is looked at again.
        if (next.phase !== 'Failed') expect(next.recheckAfterMs).toBeGreaterThan(0);
      }),
    );
  });

  it('has machine-controller-manager timeouts by default', () => {
    expect(DefaultMachineHealthOptions).toMatchObject({ creationTimeoutMs: 1_200_000, healthTimeoutMs: 600_000 });
  });
});

describe('mayMarkFailed', () => {
  const m = (phase?: string): Machine => ({ status: phase ? { currentStatus: { phase } } : {} }) as Machine;
  it('lets one machine of a deployment be replaced at a time (MCM maxReplacements 1)', () => {
    expect(mayMarkFailed([m('Running'), m('Unknown'), m('Unknown')])).toBe(true);
    expect(mayMarkFailed([m('Running'), m('Unknown'), m('Failed')])).toBe(false);
    expect(mayMarkFailed([m('Unknown'), m('Pending')])).toBe(false);
    expect(mayMarkFailed([m('Unknown'), m()])).toBe(false);
    expect(mayMarkFailed([m('Unknown'), m('Terminating')], 2)).toBe(false);
    expect(mayMarkFailed([m('Unknown'), m('Pending')], 2)).toBe(true);
  });
});

describe('decideMachineHealth of a machine whose Node is kept from before its VM (restored after a migration)', () => {
  const created = t0 + 60_000;
  const restored = (over: Partial<MachineHealthInput>) =>
    input({ phase: undefined, vmCreatedAt: created, now: created + 5_000, ...over });

  it('stays Pending while the Node only says Ready from before the machine Pod, and joins once its kubelet reports', () => {
    const waiting = decideMachineHealth(restored({ nodeReadyHeartbeat: t0 }));
    expect(waiting.phase).toBe('Pending');
    expect(waiting.joined).toBeUndefined();
    expect(waiting.operation?.description).toContain('register Node machine-m1 again');
    expect(waiting.recheckAfterMs).toBeGreaterThan(0);
    // The new kubelet's first status (same second as the Pod's creation counts).
    const joined = decideMachineHealth(restored({ nodeReadyHeartbeat: created - (created % 1000) }));
    expect(joined).toMatchObject({ phase: 'Running', joined: true });
  });

  it('fails it only after the creation timeout, like a machine being created; never turns it Unknown', () => {
    const phaseSince = created;
    const within = decideMachineHealth(
      restored({ nodeReadyHeartbeat: t0, phaseSince, now: phaseSince + options.creationTimeoutMs - 1 }),
    );
    expect(within.phase).toBe('Pending');
    const after = decideMachineHealth(
      restored({ nodeReadyHeartbeat: t0, phaseSince, now: phaseSince + options.creationTimeoutMs + 1 }),
    );
    expect(after.phase).toBe('Failed');
    expect(after.operation?.description).toContain('failed to join the cluster');
  });

  it('does not look at heartbeats of a Running machine (a quiet kubelet is the node lifecycle controller’s matter)', () => {
    expect(decideMachineHealth(restored({ phase: 'Running', nodeReadyHeartbeat: t0 })).phase).toBe('Running');
  });
});
