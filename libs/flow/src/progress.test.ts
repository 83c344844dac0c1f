import { describe, expect, it } from 'vitest';
import { Graph } from './graph.js';
import { combineReporters, describeProgress, LastOperationReporter, type LastOperationProgress } from './progress.js';
import type { FlowStats } from './scheduler.js';

const base: FlowStats = {
  flowName: 'Shoot cluster reconciliation',
  all: ['a', 'b', 'c'],
  pending: [],
  running: [],
  succeeded: [],
  failed: [],
  skipped: [],
  progressPercent: 0,
};

describe('describeProgress', () => {
  it('describes as Gardener does: starting, the running tasks sorted, finished', () => {
    expect(describeProgress(base)).toBe('Starting Shoot cluster reconciliation');
    expect(
      describeProgress({
        ...base,
        progressPercent: 33,
        running: ['Waiting until the Kubernetes API server rolled out', 'Deploying etcd'],
      }),
    ).toBe('Deploying etcd, Waiting until the Kubernetes API server rolled out');
    expect(describeProgress({ ...base, progressPercent: 100 })).toBe('Shoot cluster reconciliation finished');
  });
});

describe('LastOperationReporter', () => {
  it('writes monotonic progress ending at 100 and never overlaps writes', async () => {
    const writes: LastOperationProgress[] = [];
    let inFlight = 0;
    let overlapped = false;
    const reporter = new LastOperationReporter(
      async (u) => {
        if (inFlight++ > 0) overlapped = true;
        await new Promise((resolve) => setImmediate(resolve));
        writes.push(u);
        inFlight--;
      },
      { now: () => new Date('2026-01-02T03:04:05.678Z') },
    );
    const g = new Graph('Shoot cluster reconciliation');
    const ns = g.add({ name: 'Deploying Shoot namespace in Seed', fn: () => {} });
    const ids = ['Deploying etcd', 'Deploying kube-apiserver', 'Deploying gardener-resource-manager'].map((name) =>
      g.add({ name, dependencies: [ns], fn: () => new Promise((resolve) => setImmediate(resolve)) }),
    );
    g.add({ name: 'Waiting until shoot is ready', dependencies: ids, fn: () => {} });
    await g.compile().run({ reporter });
    expect(overlapped).toBe(false);
    expect(writes[0]).toEqual({
      progress: 0,
      description: 'Starting Shoot cluster reconciliation',
      lastUpdateTime: '2026-01-02T03:04:05Z',
    });
    expect(writes.at(-1)).toMatchObject({ progress: 100, description: 'Shoot cluster reconciliation finished' });
    for (let i = 1; i < writes.length; i++) expect(writes[i].progress).toBeGreaterThanOrEqual(writes[i - 1].progress);
  });

  it('leaves the last progress of a failed flow below 100', async () => {
    const writes: LastOperationProgress[] = [];
    const reporter = new LastOperationReporter(async (u) => void writes.push(u));
    const g = new Graph('Shoot cluster deletion');
    g.add({ name: 'a', fn: () => {} });
    g.add({
      name: 'b',
      fn: () => {
        throw new Error('x');
      },
    });
    await expect(g.compile().run({ reporter })).rejects.toThrow();
    expect(writes.at(-1)!.progress).toBe(50);
  });
});

describe('combineReporters', () => {
  it('forwards every event to every reporter', async () => {
    const a: string[] = [];
    const b: string[] = [];
    const g = new Graph('f');
    g.add({ name: 't', fn: () => {} });
    await g.compile().run({
      reporter: combineReporters({ report: (e) => void a.push(e.type) }, { report: (e) => void b.push(e.type) }),
    });
    expect(a).toEqual(['flow-started', 'task-started', 'task-succeeded', 'flow-finished']);
    expect(b).toEqual(a);
  });
});
