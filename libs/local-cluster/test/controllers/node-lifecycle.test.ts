// The node lifecycle controller against the local API server, with a grace period of one second. The tests play the
// kubelet: they post node status and renew (or stop renewing) the node Lease in kube-node-lease.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaseKind, type Node, NodeKind, type Taint } from '../../src/controllers/shared/kinds.js';
import { type Harness, startHarness } from './support/harness.js';
import { renewLease } from './support/leases.js';
import { postNodeStatus, registerNode as registerNodeWith } from './support/nodes.js';

const GRACE_MS = 1000;
/** Longer than the monitor grace, so a node that never posted status shows it is judged by this one. */
const STARTUP_GRACE_MS = 3000;
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const NOT_READY = 'node.kubernetes.io/not-ready';
const FOREIGN: Taint[] = [
  { key: 'example.com/dedicated', value: 'gpu', effect: 'NoSchedule' },
  { key: 'example.com/maintenance', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' },
];

let h: Harness;
let stopAnchor: (() => Promise<void>) | undefined;

// NoExecute tainting is rate-limited per zone and stops in a partially disrupted small zone: the rates here let every
// node be tainted at once, and a node kept Ready throughout keeps the zone from being fully disrupted (which would
// take all NoExecute taints away). The zone behaviour itself is tested in node-lifecycle-zones.test.ts.
beforeAll(async () => {
  h = await startHarness(['nodelifecycle'], {
    nodeMonitorGracePeriodMs: GRACE_MS,
    nodeStartupGracePeriodMs: STARTUP_GRACE_MS,
    nodeEvictionRate: 1000,
    secondaryNodeEvictionRate: 1000,
    largeClusterSizeThreshold: 0,
  });
  await registerNode('anchor', 'True');
  stopAnchor = keepRenewing('anchor');
});
afterAll(async () => {
  await stopAnchor?.();
  await h?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const postStatus = (name: string, ready: 'True' | 'False') => postNodeStatus(h.api, name, ready);

/** Renews the lease every 200 ms until the returned function is called. */
function keepRenewing(name: string): () => Promise<void> {
  let running = true;
  const loop = (async () => {
    while (running) {
      await renewLease(h.api, name);
      await sleep(200);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

const registerNode = (name: string, ready: 'True' | 'False', taints: Taint[] = []) =>
  registerNodeWith(h.api, name, ready, taints);

const condition = (node: Node, type: string) => node.status?.conditions?.find((c) => c.type === type);
const readyStatus = (node: Node) => condition(node, 'Ready')?.status;
/** The taints as `key:effect`, sorted. */
const taintsOf = (node: Node) => (node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
const lifecycleTaintsOf = (node: Node) => taintsOf(node).filter((t) => t.startsWith('node.kubernetes.io/'));
const both = (key: string) => [`${key}:NoExecute`, `${key}:NoSchedule`];
const foreignOf = (node: Node) => (node.spec?.taints ?? []).filter((t) => t.key.startsWith('example.com/'));
const waitNode = (what: string, name: string, check: (n: Node) => boolean) =>
  h.eventually(what, NodeKind, { name }, check, 5_000);

describe('node lifecycle', () => {
  it.concurrent(
    'keeps a node whose lease is renewed Ready and untainted, though its status heartbeat is old',
    async () => {
      await registerNode('fresh', 'True', FOREIGN);
      const stop = keepRenewing('fresh');
      try {
        await sleep(3 * GRACE_MS);
        const node = await h.api.get(NodeKind, { name: 'fresh' });
        // Only the lease kept it alive: the status heartbeat alone is past the grace period.
        expect(Date.now() - Date.parse(condition(node, 'Ready')!.lastHeartbeatTime!)).toBeGreaterThan(GRACE_MS);
        expect(node.status?.conditions?.map((c) => `${c.type}=${c.status}`).sort()).toEqual([
          'DiskPressure=False',
          'MemoryPressure=False',
          'PIDPressure=False',
          'Ready=True',
        ]);
        expect(taintsOf(node)).toEqual(FOREIGN.map((t) => `${t.key}:${t.effect}`).sort());
      } finally {
        await stop();
      }
    },
  );

  it.concurrent(
    'marks a node Unknown and unreachable once its lease stops, and untaints it when it reports Ready again',
    async () => {
      const registered = await registerNode('silent', 'True', FOREIGN);
      const heartbeat = condition(registered, 'Ready')!.lastHeartbeatTime;
      const lease = await h.api.get(LeaseKind, { namespace: 'kube-node-lease', name: 'silent' });
      // Nothing happens to the node from here on: only the controller's own requeue can notice the silence.
      const node = await waitNode(
        'silent to turn Unknown and unreachable',
        'silent',
        (n) => readyStatus(n) === 'Unknown' && lifecycleTaintsOf(n).length === 2,
      );
      expect(Date.now() - Date.parse(lease.spec!.renewTime!)).toBeGreaterThan(GRACE_MS);
      for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
        const c = condition(node, type)!;
        expect(c, type).toMatchObject({
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastHeartbeatTime: heartbeat,
        });
        expect(Date.parse(c.lastTransitionTime!), type).toBeGreaterThanOrEqual(Date.parse(heartbeat!));
      }
      expect(lifecycleTaintsOf(node)).toEqual(both(UNREACHABLE));
      const noExecute = node.spec!.taints!.find((t) => t.key === UNREACHABLE && t.effect === 'NoExecute')!;
      expect(Date.now() - Date.parse(noExecute.timeAdded!)).toBeLessThan(10_000);
      expect(foreignOf(node)).toEqual(FOREIGN);

      // The kubelet is back: Ready True on its next status update, and the lease renewed.
      await postStatus('silent', 'True');
      await renewLease(h.api, 'silent');
      const recovered = await waitNode(
        'silent to lose its unreachable taints',
        'silent',
        (n) => lifecycleTaintsOf(n).length === 0,
      );
      expect(readyStatus(recovered)).toBe('True');
      expect(foreignOf(recovered)).toEqual(FOREIGN);
    },
  );

  it.concurrent(
    'taints a node reporting Ready False not-ready, swaps to unreachable when it goes silent, and untaints it when Ready',
    async () => {
      await registerNode('sick', 'False', [FOREIGN[0]]);
      const stop = keepRenewing('sick');
      let node: Node;
      try {
        node = await waitNode('sick to get not-ready taints', 'sick', (n) => lifecycleTaintsOf(n).length === 2);
        expect(lifecycleTaintsOf(node)).toEqual(both(NOT_READY));
        expect(node.spec!.taints!.find((t) => t.key === NOT_READY && t.effect === 'NoExecute')?.timeAdded).toBeTruthy();
        expect(condition(node, 'Ready')).toMatchObject({ status: 'False', reason: 'KubeletNotReady' });
      } finally {
        await stop();
      }
      node = await waitNode(
        'sick to turn unreachable',
        'sick',
        (n) => readyStatus(n) === 'Unknown' && lifecycleTaintsOf(n).includes(`${UNREACHABLE}:NoExecute`),
      );
      expect(lifecycleTaintsOf(node)).toEqual(both(UNREACHABLE));
      expect(foreignOf(node)).toEqual([FOREIGN[0]]);

      await postStatus('sick', 'True');
      await renewLease(h.api, 'sick');
      node = await waitNode('sick to lose its taints', 'sick', (n) => lifecycleTaintsOf(n).length === 0);
      expect(foreignOf(node)).toEqual([FOREIGN[0]]);
    },
  );

  it.concurrent(
    'marks a node that never posted status Unknown after the startup grace period from its creation',
    async () => {
      const created = await h.api.create<Node>({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'mute' },
        spec: {},
      });
      const node = await waitNode(
        'mute to turn Unknown',
        'mute',
        (n) => readyStatus(n) === 'Unknown' && lifecycleTaintsOf(n).length === 2,
      );
      // creationTimestamp has whole seconds: it may be up to 1 s earlier than the creation.
      expect(Date.now() - Date.parse(created.metadata!.creationTimestamp!)).toBeGreaterThanOrEqual(STARTUP_GRACE_MS);
      expect(node.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.lastHeartbeatTime])).toEqual(
        ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => [
          type,
          'Unknown',
          'NodeStatusNeverUpdated',
          created.metadata!.creationTimestamp,
        ]),
      );
      expect(lifecycleTaintsOf(node)).toEqual(both(UNREACHABLE));
    },
  );
});
