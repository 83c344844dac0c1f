// kubectl's Pod STATUS column, as kube's printPod computes it.
import { describe, expect, it } from 'vitest';
import { podStatus } from './printers.js';

const running = { running: { startedAt: '2026-01-01T00:00:00Z' } };
const pod = (status: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'p' },
  spec: { initContainers: [{ name: 'i1' }, { name: 'i2' }], containers: [{ name: 'a' }, { name: 'b' }] },
  status,
  ...extra,
});

describe('pod STATUS', () => {
  it('shows Completed for a pod whose containers exited 0, and Error or ExitCode for failures', () => {
    const done = { reason: 'Completed', exitCode: 0 };
    expect(
      podStatus(
        pod({
          phase: 'Succeeded',
          containerStatuses: [{ state: { terminated: done } }, { state: { terminated: done } }],
        }),
      ),
    ).toBe('Completed');
    expect(
      podStatus(
        pod({ phase: 'Failed', containerStatuses: [{ state: { terminated: { reason: 'Error', exitCode: 2 } } }] }),
      ),
    ).toBe('Error');
    expect(
      podStatus(pod({ phase: 'Failed', containerStatuses: [{ state: { terminated: { exitCode: 137, signal: 9 } } }] })),
    ).toBe('Signal:9');
    expect(podStatus(pod({ phase: 'Failed', containerStatuses: [{ state: { terminated: { exitCode: 3 } } }] }))).toBe(
      'ExitCode:3',
    );
  });

  it('shows the waiting reason of a container, and Running or NotReady when one finished but another still runs', () => {
    expect(
      podStatus(pod({ phase: 'Pending', containerStatuses: [{ state: { waiting: { reason: 'ImagePullBackOff' } } }] })),
    ).toBe('ImagePullBackOff');
    const mixed = [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }, { state: running, ready: true }];
    expect(
      podStatus(
        pod({
          phase: 'Running',
          containerStatuses: mixed.slice().reverse(),
          conditions: [{ type: 'Ready', status: 'True' }],
        }),
      ),
    ).toBe('Running');
    expect(podStatus(pod({ phase: 'Running', containerStatuses: mixed.slice().reverse() }))).toBe('NotReady');
    expect(podStatus(pod({ phase: 'Running', containerStatuses: [{ state: running, ready: true }] }))).toBe('Running');
  });

  it('shows init progress and init failures', () => {
    const first = { state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    expect(podStatus(pod({ phase: 'Pending', initContainerStatuses: [first, { state: running }] }))).toBe('Init:1/2');
    expect(
      podStatus(
        pod({ phase: 'Pending', initContainerStatuses: [{ state: { terminated: { exitCode: 1, reason: 'Error' } } }] }),
      ),
    ).toBe('Init:Error');
    expect(
      podStatus(
        pod({ phase: 'Pending', initContainerStatuses: [{ state: { waiting: { reason: 'CrashLoopBackOff' } } }] }),
      ),
    ).toBe('Init:CrashLoopBackOff');
    expect(
      podStatus(
        pod({ phase: 'Pending', initContainerStatuses: [{ state: { waiting: { reason: 'PodInitializing' } } }] }),
      ),
    ).toBe('Init:0/2');
  });

  it('shows Terminating for a pod being deleted, and the pod-level reason (Evicted) over the phase', () => {
    expect(
      podStatus(pod({ phase: 'Running' }, { metadata: { name: 'p', deletionTimestamp: '2026-01-01T00:00:00Z' } })),
    ).toBe('Terminating');
    expect(podStatus(pod({ phase: 'Failed', reason: 'Evicted' }))).toBe('Evicted');
  });
});
