// The zone-aware NoExecute tainting of the node lifecycle controller against the local API server. Nodes report Ready
// True or False through their status; the monitor grace is long, so no node goes silent meanwhile. The eviction rate
// is high so tainting is immediate where a zone's state allows it at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Node, NodeKind } from '../../src/controllers/shared/kinds.js';
import { type Harness, startHarness } from './support/harness.js';

const NOT_READY = 'node.kubernetes.io/not-ready';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lifecycleTaintsOf = (node: Node) =>
  (node.spec?.taints ?? [])
    .filter((t) => t.key === NOT_READY)
    .map((t) => t.effect)
    .sort();

/** A cluster of its own for the describe block, with nodes reporting Ready True in the zones given (zone → names). */
function clusterWith(zones: Record<string, string[]>): () => Harness {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(['nodelifecycle'], {
      nodeMonitorGracePeriodMs: 600_000,
      nodeStartupGracePeriodMs: 600_000,
      nodeEvictionRate: 1000,
    });
    for (const [zone, names] of Object.entries(zones)) {
      for (const name of names) await h.kubelet.addNode(name, { labels: { 'topology.kubernetes.io/zone': zone } });
    }
  });
  afterAll(() => h?.stop());
  return () => h;
}

/** Sets the nodes not ready, one after the other, and waits for each to carry both not-ready taints. */
async function downAndTainted(h: Harness, names: string[]): Promise<void> {
  for (const name of names) await setReady(h, name, 'False');
  for (const name of names) await waitTaints(h, name, ['NoExecute', 'NoSchedule']);
}

/** Posts the node's Ready condition as its kubelet would. */
async function setReady(h: Harness, name: string, status: 'True' | 'False'): Promise<void> {
  const node = await h.api.get(NodeKind, { name });
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const conditions = (node.status?.conditions ?? []).map((c) =>
    c.type === 'Ready'
      ? {
          ...c,
          status,
          reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        }
      : c,
  );
  await h.api.updateStatus({ ...node, status: { ...node.status, conditions } });
}

const waitTaints = (h: Harness, name: string, effects: string[]) =>
  h.eventually(
    `${name} to carry not-ready ${effects.join('+') || 'nothing'}`,
    NodeKind,
    { name },
    (n) => lifecycleTaintsOf(n).join() === effects.join(),
    10_000,
  );

/** Waits for the nodes to carry only the NoSchedule not-ready taint, then checks for a while that no NoExecute one comes. */
async function noExecuteHeldBack(h: Harness, names: string[], ms: number): Promise<void> {
  for (const name of names) await waitTaints(h, name, ['NoSchedule']);
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) {
    for (const name of names)
      expect(lifecycleTaintsOf(await h.api.get(NodeKind, { name })), name).toEqual(['NoSchedule']);
  }
}

describe('a partially disrupted zone of a small cluster', () => {
  const cluster = clusterWith({ a: ['a1', 'a2', 'a3', 'a4', 'a5'] });

  it('stops NoExecute tainting once more than 2 and at least 55% of its nodes are not ready, and resumes when Normal again', async () => {
    const h = cluster();
    // Two of five not ready: the zone stays Normal and both are tainted at once.
    await downAndTainted(h, ['a1', 'a2']);

    // A third (3/5 ≥ 0.55): PartialDisruption, and a zone of at most 50 nodes gets rate 0. NoSchedule still comes at once.
    await setReady(h, 'a3', 'False');
    await noExecuteHeldBack(h, ['a3'], 1500);
    // Taints in place stay.
    expect(lifecycleTaintsOf(await h.api.get(NodeKind, { name: 'a1' }))).toEqual(['NoExecute', 'NoSchedule']);

    // a2 recovers: its taints go at once, the zone is Normal again and a3 gets its NoExecute taint.
    await setReady(h, 'a2', 'True');
    await waitTaints(h, 'a2', []);
    await waitTaints(h, 'a3', ['NoExecute', 'NoSchedule']);
  });
});

describe('every zone fully disrupted', () => {
  const cluster = clusterWith({ x: ['x1', 'x2'], y: ['y1'] });

  it('taints a fully disrupted zone while another is up, removes all NoExecute taints when every zone is down, and taints again once a node is Ready', async () => {
    const h = cluster();
    // Zone x is fully disrupted but y is not: x is tainted at the normal rate.
    await downAndTainted(h, ['x1', 'x2']);

    // y goes down too: master disruption. NoExecute taints go from every node and none is added; NoSchedule stays.
    await setReady(h, 'y1', 'False');
    await noExecuteHeldBack(h, ['x1', 'x2', 'y1'], 1500);

    // y1 is back: the controller leaves master disruption and taints zone x again.
    await setReady(h, 'y1', 'True');
    await waitTaints(h, 'y1', []);
    await waitTaints(h, 'x1', ['NoExecute', 'NoSchedule']);
    await waitTaints(h, 'x2', ['NoExecute', 'NoSchedule']);
  });
});
