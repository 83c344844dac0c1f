// Leader election between candidates against the local API server: one leads; a dead leader is replaced once its
// lease expires; a graceful stop hands over at once; a leader that cannot renew gives up.
import { Registry } from 'prom-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/testing';
import { ApiClient, Manager, type Runnable } from '../../src/index.js';
import {
  LeaderElector,
  LeaseKind,
  leaderElectorFromConfig,
  type LeaderElectorOptions,
} from '../../src/leaderelection/index.js';
import { useTestCluster } from '../fixtures.js';
import { proxiedClient } from './proxied-client.js';

const env = useTestCluster();
const timing = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 };
/** Longest a candidate waits between two attempts (retry period plus client-go's jitter). */
const maxRetryWait = timing.retryPeriodMs * 2.2;
const cleanup: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'garden' } });
});
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

interface Candidate {
  elector: LeaderElector;
  abort: AbortController;
  stopped: { lost: boolean }[];
  metrics: Registry;
  started: Promise<void>;
}

async function candidate(
  lease: string,
  identity: string,
  options: Partial<LeaderElectorOptions> = {},
): Promise<Candidate> {
  const client = await ApiClient.create(env.cluster.kubeconfigPath);
  const abort = new AbortController();
  const stopped: { lost: boolean }[] = [];
  const metrics = new Registry();
  const elector = new LeaderElector({
    client,
    lock: { namespace: 'garden', name: lease },
    identity,
    metrics,
    onStoppedLeading: (why) => stopped.push(why),
    ...timing,
    ...options,
  });
  cleanup.push(async () => {
    abort.abort();
    await elector.done();
    client.close();
  });
  return { elector, abort, stopped, metrics, started: elector.run(abort.signal) };
}

const holderOf = async (lease: string) => (await env.client.get(LeaseKind, { namespace: 'garden', name: lease })).spec;
const masterStatus = async (c: Candidate) =>
  (await c.metrics.getSingleMetric('leader_election_master_status')!.get()).values[0]?.value;

describe('leader election', () => {
  it('elects exactly one of two candidates and records it in the Lease', async () => {
    const a = await candidate('one-leader', 'a');
    const b = await candidate('one-leader', 'b');
    await Promise.race([a.started, b.started]);
    const [leader, follower] = a.elector.isLeader ? [a, b] : [b, a];
    expect(leader.elector.isLeader).toBe(true);
    // Two more retry periods: the follower keeps finding a valid lease.
    await new Promise((r) => setTimeout(r, 2 * maxRetryWait));
    expect(follower.elector.isLeader).toBe(false);
    expect(follower.elector.leader).toBe(leader.elector.identity);
    const spec = await holderOf('one-leader');
    expect(spec).toMatchObject({
      holderIdentity: leader.elector.identity,
      leaseDurationSeconds: 3,
      leaseTransitions: 0,
    });
    expect(spec!.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(await masterStatus(leader)).toBe(1);
    expect(await masterStatus(follower)).toBe(0);
  });

  it('replaces a leader that died (no release) once its lease expired, not before', async () => {
    const a = await candidate('dead-leader', 'a', { releaseOnCancel: false });
    await a.started;
    const b = await candidate('dead-leader', 'b');
    await waitFor('b to observe a as leader', () => b.elector.leader === 'a');
    const killedAt = performance.now();
    a.abort.abort(); // the process is gone: no more renewals, no release
    await b.started;
    const takeover = performance.now() - killedAt;
    // a renewed at most one retry period before it died; b needs a full lease duration of silence from its view.
    expect(takeover).toBeGreaterThanOrEqual(timing.leaseDurationMs - timing.retryPeriodMs - 400);
    expect(takeover).toBeLessThan(timing.leaseDurationMs + maxRetryWait + 2000);
    expect(await holderOf('dead-leader')).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(a.stopped).toEqual([{ lost: false }]);
  });

  it('measures expiry on its own clock from when it saw the Lease change, not from the renewTime inside it', async () => {
    const longAgo = new Date(Date.now() - 3600_000).toISOString();
    await env.client.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { namespace: 'garden', name: 'skewed' },
      spec: {
        holderIdentity: 'ghost',
        leaseDurationSeconds: 3,
        acquireTime: longAgo,
        renewTime: longAgo,
        leaseTransitions: 4,
      },
    });
    const startedAt = performance.now();
    const b = await candidate('skewed', 'b');
    await b.started;
    // By its timestamps the Lease expired an hour ago; b still waits a full lease duration after first seeing it.
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(timing.leaseDurationMs - 100);
    expect(await holderOf('skewed')).toMatchObject({ holderIdentity: 'b', leaseTransitions: 5 });
  });

  it('hands over within a retry period when the leader stops gracefully (release on cancel)', async () => {
    const a = await candidate('graceful', 'a');
    await a.started;
    const b = await candidate('graceful', 'b');
    await waitFor('b to observe a as leader', () => b.elector.leader === 'a');
    const stoppedAt = performance.now();
    a.abort.abort();
    await a.elector.done();
    expect(await holderOf('graceful')).toMatchObject({ holderIdentity: '' });
    await b.started;
    expect(performance.now() - stoppedAt).toBeLessThan(maxRetryWait + 1500);
    expect(performance.now() - stoppedAt).toBeLessThan(timing.leaseDurationMs);
    expect(a.stopped).toEqual([{ lost: false }]);
    expect(await masterStatus(a)).toBe(0);
  });

  it('takes a released Lease at once, not at its next retry, when its client can watch', async () => {
    // b tries once right after a leads, so without the watch its next try would come 6–13.2 s later.
    const slow = { leaseDurationMs: 10_000, renewDeadlineMs: 8000, retryPeriodMs: 6000 };
    const a = await candidate('watched', 'a', slow);
    await a.started;
    const b = await candidate('watched', 'b', slow);
    await waitFor('b to observe a as leader', () => b.elector.leader === 'a');
    const stoppedAt = performance.now();
    a.abort.abort();
    await a.elector.done();
    await b.started;
    expect(b.elector.isLeader).toBe(true);
    expect(performance.now() - stoppedAt).toBeLessThan(2000);
  });

  it('stops leading when the Lease is taken by someone else and it cannot renew', async () => {
    const a = await candidate('stolen', 'a');
    await a.started;
    const lease = await env.client.get(LeaseKind, { namespace: 'garden', name: 'stolen' });
    await env.client.update({
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 60 },
    });
    await waitFor('a to give up leadership', () => a.stopped.length > 0, {
      timeoutMs: timing.renewDeadlineMs + 3 * maxRetryWait + 5000,
    });
    expect(a.stopped).toEqual([{ lost: true }]);
    expect(a.elector.isLeader).toBe(false);
    expect(await masterStatus(a)).toBe(0);
    expect((await holderOf('stolen'))!.holderIdentity).toBe('intruder');
  });

  it('fences: a leader cut off from the API server stops leading before another candidate takes over', async () => {
    const { client, proxy } = await proxiedClient(env.cluster);
    cleanup.push(async () => {
      client.close();
      await proxy.close();
    });
    let lostAt = 0;
    const a = await candidate('partitioned', 'a', {
      client,
      onStoppedLeading: ({ lost }) => void (lost && (lostAt = performance.now())),
    });
    await a.started;
    const b = await candidate('partitioned', 'b');
    await waitFor('b to observe a as leader', () => b.elector.leader === 'a');
    proxy.pause(); // a can no longer renew
    await b.started;
    const bLeadsAt = performance.now();
    expect(lostAt).toBeGreaterThan(0);
    expect(lostAt).toBeLessThan(bLeadsAt);
    expect(a.elector.isLeader).toBe(false);
  });

  it('plugs into the manager: leader-only runnables start once elected and stop when leadership is lost', async () => {
    const events: string[] = [];
    const runnable: Runnable = {
      needLeaderElection: true,
      start: () => void events.push('started'),
      stop: async () => void events.push('stopped'),
    };
    const client = await ApiClient.create(env.cluster.kubeconfigPath);
    // The elector runs only once the manager starts, so it may refer to the manager declared before it.
    const mgr = await Manager.create({
      clusters: { main: env.cluster.kubeconfigPath },
      leaderElection: (signal) => elector.run(signal),
    });
    const elector = new LeaderElector({
      client,
      lock: { namespace: 'garden', name: 'manager' },
      identity: 'mgr',
      ...timing,
      onStoppedLeading: () => void mgr.stop(),
    });
    cleanup.push(async () => {
      await mgr.stop();
      await elector.done();
      client.close();
    });
    mgr.add(runnable);
    await mgr.start();
    await waitFor('the runnable to start after election', () => events.includes('started'));
    expect(elector.isLeader).toBe(true);

    const lease = await env.client.get(LeaseKind, { namespace: 'garden', name: 'manager' });
    await env.client.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'other' } });
    await waitFor('the manager to stop its runnables', () => events.includes('stopped'), { timeoutMs: 15_000 });
    expect(elector.isLeader).toBe(false);
  });
});

describe('leaderElectorFromConfig', () => {
  const config = {
    leaderElect: true,
    leaseDuration: '15s',
    renewDeadline: '10s',
    retryPeriod: '2s',
    resourceLock: 'leases',
    resourceName: 'gardenlet-leader-election',
    resourceNamespace: 'garden',
  };
  const client = {
    get: async () => Promise.reject(new Error('unused')),
    create: async () => Promise.reject(new Error('unused')),
    update: async () => Promise.reject(new Error('unused')),
  };

  it('builds an elector from the configuration, or none when leaderElect is false', () => {
    expect(leaderElectorFromConfig(config, { client, identity: 'x' })).toBeInstanceOf(LeaderElector);
    expect(leaderElectorFromConfig({ ...config, leaderElect: false }, { client })).toBeUndefined();
  });

  it('rejects timings client-go would reject and unknown locks, naming the field', () => {
    expect(() => leaderElectorFromConfig({ ...config, renewDeadline: '20s' }, { client })).toThrow(
      /leaseDuration .* must be greater than renewDeadline/,
    );
    expect(() => leaderElectorFromConfig({ ...config, retryPeriod: '9s' }, { client })).toThrow(
      /renewDeadline .* must be greater than 1.2 × retryPeriod/,
    );
    expect(() => leaderElectorFromConfig({ ...config, resourceLock: 'configmaps' }, { client })).toThrow(
      /resourceLock/,
    );
    expect(() => leaderElectorFromConfig({ ...config, leaseDuration: 'soon' }, { client })).toThrow(
      /leaderElection.leaseDuration/,
    );
  });
});
