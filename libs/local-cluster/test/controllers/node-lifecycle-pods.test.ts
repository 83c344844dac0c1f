// kube's MarkPodsNotReady against the local API server: when a node goes silent, the node lifecycle controller sets
// its pods' Ready condition to False, so the EndpointSlice controller takes them out of service and the disruption
// controller stops counting them healthy — long before taint eviction would delete them.
import { waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EndpointSliceKind,
  EventKind,
  NodeKind,
  type Pod,
  type PodDisruptionBudget,
  PodDisruptionBudgetKind,
  PodKind,
} from '../../src/controllers/shared/kinds.js';
import { pod } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';
import { renewLease } from './support/leases.js';

// Leases are renewed every 200 ms; the grace period leaves room for renewals delayed by a loaded machine (with 1 s, a
// CI run with the landscape beside it saw the nodes go NotReady before the pods were ever ready).
const GRACE_MS = 3000;
let h: Harness;
const renewing = new Map<string, () => Promise<void>>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function keepRenewing(name: string): void {
  let running = true;
  const loop = (async () => {
    while (running) {
      await renewLease(h.api, name);
      await sleep(200);
    }
  })();
  renewing.set(name, async () => {
    running = false;
    await loop;
  });
}

beforeAll(async () => {
  h = await startHarness(['nodelifecycle', 'endpointslice', 'disruption'], {
    nodeMonitorGracePeriodMs: GRACE_MS,
    nodeStartupGracePeriodMs: 3 * GRACE_MS,
  });
  for (const name of ['worker', 'other']) {
    await h.kubelet.addNode(name);
    keepRenewing(name);
  }
});
afterAll(async () => {
  for (const stop of renewing.values()) await stop();
  await h?.stop();
});

const key = (name: string) => ({ namespace: 'default', name });
const ready = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'Ready');
const sliceReadiness = async () => {
  const slices = (
    await h.api.list(EndpointSliceKind, { namespace: 'default', labelSelector: 'kubernetes.io/service-name=app' })
  ).items;
  return Object.fromEntries(
    slices.flatMap((s) => s.endpoints ?? []).map((e) => [e.targetRef!.name!, e.conditions?.ready]),
  );
};

describe('pods of a node gone silent', () => {
  it('are marked not ready, leave the EndpointSlice as not ready and stop counting toward their budget', async () => {
    await h.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'app', namespace: 'default' },
      spec: { selector: { app: 'app' }, ports: [{ port: 80, targetPort: 8080 }] },
    });
    const budget: PodDisruptionBudget = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'app', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'app' } } },
    };
    await h.api.create(budget);
    for (const [name, nodeName] of [
      ['app-1', 'worker'],
      ['app-2', 'worker'],
      ['app-3', 'other'],
    ])
      await h.api.create(pod(name, { app: 'app' }, { nodeName }));
    await waitFor(
      '3 ready endpoints',
      async () => {
        const r = await sliceReadiness();
        return r['app-1'] && r['app-2'] && r['app-3'] ? r : undefined;
      },
      { timeoutMs: 20_000 },
    );
    await h.eventually(
      'the budget to allow 2',
      PodDisruptionBudgetKind,
      key('app'),
      (b) => b.status?.disruptionsAllowed === 2,
    );
    const before = ready(await h.api.get(PodKind, key('app-1')))!;

    // The kubelet of worker stops: no more lease renewals.
    await renewing.get('worker')!();
    renewing.delete('worker');
    await h.eventually(
      'worker to turn Unknown',
      NodeKind,
      { name: 'worker' },
      (n) => n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown',
      15_000,
    );

    for (const name of ['app-1', 'app-2']) {
      const p = await h.eventually(
        `${name} not ready`,
        PodKind,
        key(name),
        (x) => ready(x)?.status === 'False',
        10_000,
      );
      // Only the status moves (and its transition time); the rest of the pod's status stays as the kubelet wrote it.
      expect(ready(p)).toMatchObject({ type: 'Ready', status: 'False' });
      expect(Date.parse(ready(p)!.lastTransitionTime!)).toBeGreaterThanOrEqual(Date.parse(before.lastTransitionTime!));
      expect(p.status?.conditions?.find((c) => c.type === 'ContainersReady')?.status).toBe('True');
      expect(p.status?.phase).toBe('Running');
      expect(p.metadata?.deletionTimestamp).toBeUndefined();
    }
    const readiness = await waitFor(
      'app-1 and app-2 not ready in the EndpointSlice',
      async () => {
        const r = await sliceReadiness();
        return r['app-1'] === false && r['app-2'] === false ? r : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(readiness).toEqual({ 'app-1': false, 'app-2': false, 'app-3': true });
    expect(ready(await h.api.get(PodKind, key('app-3')))?.status).toBe('True');

    const b = await h.eventually(
      'the budget to count 1 healthy',
      PodDisruptionBudgetKind,
      key('app'),
      (x) => x.status?.currentHealthy === 1,
    );
    expect(b.status?.disruptionsAllowed).toBe(0);

    const events = await waitFor('NodeNotReady events on the pods', async () => {
      const list = (await h.api.list(EventKind, { namespace: 'default' })).items.filter(
        (e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Pod',
      );
      return list.length >= 2 ? list : undefined;
    });
    expect(events.map((e) => [e.involvedObject.name, e.type, e.message]).sort()).toEqual([
      ['app-1', 'Warning', 'Node is not ready'],
      ['app-2', 'Warning', 'Node is not ready'],
    ]);
  });
});
