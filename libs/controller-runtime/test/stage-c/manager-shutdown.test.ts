// The manager's shutdown order and leadership loss against the local API server: on stop it takes no new work, lets
// reconciles in progress finish (bounded by the grace period) and only then releases the leader Lease; when it loses
// the Lease it stops itself and its controllers.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/testing';
import { Registry } from 'prom-client';
import { createLogger } from '@gardener-ts/logging';
import { ApiClient, Checks, ConfigMapKind, Manager, controllerFor, type Runnable } from '../../src/index.js';
import { LeaderElector, LeaseKind } from '../../src/leaderelection/index.js';
import { useTestCluster } from '../fixtures.js';

const env = useTestCluster();
const timing = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 };
const cleanup: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'garden' } });
  await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'work' } });
});
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const leaseSpec = async (name: string) => (await env.client.get(LeaseKind, { namespace: 'garden', name })).spec ?? {};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Member {
  mgr: Manager;
  elector: LeaderElector;
  stoppedLeading: { lost: boolean }[];
  reconciled: string[];
}

async function member(
  lease: string,
  identity: string,
  reconcile: (name: string) => Promise<void> = async () => undefined,
  extra: { gracefulShutdownTimeoutMs?: number; fail?: (err: unknown) => void } = {},
): Promise<Member> {
  const electorClient = await ApiClient.create(env.cluster.kubeconfigPath);
  const stoppedLeading: { lost: boolean }[] = [];
  const reconciled: string[] = [];
  const elector = new LeaderElector({
    client: electorClient,
    lock: { namespace: 'garden', name: lease },
    identity,
    ...timing,
    onStoppedLeading: (why) => stoppedLeading.push(why),
  });
  const { fail, ...managerOptions } = extra;
  const options = { clusters: { main: env.cluster.kubeconfigPath }, leaderElection: elector.run, ...managerOptions };
  const mgr = fail
    ? await Manager.forComponent(
        {
          log: createLogger({ name: 'test', level: 'silent' }),
          metrics: new Registry(),
          ready: new Checks(),
          signal: new AbortController().signal,
          fail,
        },
        options,
      )
    : await Manager.create(options);
  controllerFor(mgr, `cm-${identity}`)
    .for(ConfigMapKind, {
      predicates: [(e) => e.object.metadata?.namespace === 'work' && e.object.metadata.name!.startsWith(lease)],
    })
    .complete(async ({ name }) => {
      reconciled.push(name);
      await reconcile(name);
    });
  cleanup.push(async () => {
    await mgr.stop();
    await elector.done();
    electorClient.close();
  });
  return { mgr, elector, stoppedLeading, reconciled };
}

async function configMap(name: string): Promise<void> {
  await env.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'work', name }, data: {} });
}

describe('manager shutdown order', () => {
  it('holds the Lease while a reconcile is in flight and releases it only after the reconcile finished', async () => {
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    let holderAtFinish: string | undefined;
    const m = await member('inflight', 'mgr-a', async () => {
      await gate;
      holderAtFinish = (await leaseSpec('inflight')).holderIdentity; // read through the test's own client
    });
    await m.mgr.start();
    await waitFor('leadership', () => m.elector.isLeader, { timeoutMs: 15_000 });
    await configMap('inflight-1');
    await waitFor('the reconcile to start', () => m.reconciled.includes('inflight-1'), { timeoutMs: 15_000 });

    let stopped = false;
    const stopping = m.mgr.stop().then(() => void (stopped = true));
    // Longer than a release would take: the Lease must still be ours while the reconcile runs.
    await sleep(4 * timing.retryPeriodMs);
    expect(stopped).toBe(false);
    expect(m.elector.isLeader).toBe(true);
    expect((await leaseSpec('inflight')).holderIdentity).toBe('mgr-a');
    // No new work is taken while stopping.
    await configMap('inflight-2');
    await sleep(1000);
    expect(m.reconciled).toEqual(['inflight-1']);

    finish();
    await stopping;
    expect(holderAtFinish).toBe('mgr-a');
    // client-go's ReleaseOnCancel: holder cleared, lease duration 1 s, renewTime set to the release time.
    const released = await leaseSpec('inflight');
    expect(released.holderIdentity ?? '').toBe('');
    expect(released.leaseDurationSeconds).toBe(1);
    expect(Date.parse(released.renewTime!)).toBeGreaterThan(Date.now() - 60_000);
    expect(m.stoppedLeading).toEqual([{ lost: false }]);
    await expect(m.mgr.done()).resolves.toBeUndefined();
  });

  it('releases the Lease once the graceful shutdown timeout has passed, and reports it', async () => {
    const never = new Promise<void>(() => undefined);
    const m = await member('grace', 'mgr-g', () => never, { gracefulShutdownTimeoutMs: 1500 });
    await m.mgr.start();
    await waitFor('leadership', () => m.elector.isLeader, { timeoutMs: 15_000 });
    await configMap('grace-1');
    await waitFor('the reconcile to start', () => m.reconciled.includes('grace-1'), { timeoutMs: 15_000 });
    const started = performance.now();
    await m.mgr.stop();
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
    expect((await leaseSpec('grace')).holderIdentity ?? '').toBe('');
    await expect(m.mgr.done()).rejects.toThrow(/failed waiting for all runnables to end within grace period of 1.5s/);
  });
});

describe('losing leadership', () => {
  it('stops the manager and its controllers by itself when the Lease is taken, and calls onStoppedLeading', async () => {
    const a = await member('stolen', 'mgr-1');
    const b = await member('stolen', 'mgr-2');
    const events: string[] = [];
    const runnable: Runnable = {
      needLeaderElection: true,
      start: () => void events.push('started'),
      stop: async () => void events.push('stopped'),
    };
    a.mgr.add(runnable);
    await a.mgr.start();
    await waitFor('a to lead', () => a.elector.isLeader, { timeoutMs: 15_000 });
    await b.mgr.start();
    await waitFor('b to see a as leader', () => b.elector.leader === 'mgr-1', { timeoutMs: 15_000 });
    await configMap('stolen-1');
    await waitFor('a to reconcile', () => a.reconciled.includes('stolen-1'), { timeoutMs: 15_000 });
    expect(b.reconciled).toEqual([]);

    // Hand the Lease to b behind a's back: a cannot renew and must give up within its renew deadline.
    const lease = await env.client.get(LeaseKind, { namespace: 'garden', name: 'stolen' });
    await env.client.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'mgr-2' } });

    // Nobody calls a.mgr.stop(): the manager ends itself.
    await expect(a.mgr.done()).rejects.toThrow('leader election lost');
    expect(a.stoppedLeading).toEqual([{ lost: true }]);
    expect(events).toEqual(['started', 'stopped']);
    expect(a.mgr.hasSynced).toBe(false);

    await waitFor('b to lead', () => b.elector.isLeader, { timeoutMs: 15_000 });
    await configMap('stolen-2');
    await waitFor('b to reconcile', () => b.reconciled.includes('stolen-2'), { timeoutMs: 15_000 });
    expect(a.reconciled).not.toContain('stolen-2');
    // a did not clear the holder on its way out: the Lease was not its to release.
    expect((await leaseSpec('stolen')).holderIdentity).toBe('mgr-2');
  });

  it('fails the component it runs in (runComponent then exits 1) when another holder took the Lease', async () => {
    const failures: unknown[] = [];
    const a = await member('expired', 'mgr-x', undefined, { fail: (err) => failures.push(err) });
    await a.mgr.start();
    await waitFor('a to lead', () => a.elector.isLeader, { timeoutMs: 15_000 });
    const lease = await env.client.get(LeaseKind, { namespace: 'garden', name: 'expired' });
    await env.client.update({
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'someone-else', leaseDurationSeconds: 60 },
    });
    await expect(a.mgr.done()).rejects.toThrow('leader election lost');
    expect(a.stoppedLeading).toEqual([{ lost: true }]);
    await waitFor('the component to be failed', () => failures.length > 0);
    expect(String(failures[0])).toMatch(/leader election lost/);
  });
});
