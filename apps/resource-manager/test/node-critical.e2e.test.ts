// End to end: the node critical components controller of the built app removes the
// `node.gardener.cloud/critical-components-not-ready` taint once the node-critical DaemonSet pods on the node are
// scheduled and ready, checking again after the configured backoff until then.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kind } from '@gardener-ts/controller-runtime';
import { PodK, startLandscape, waitFor, type Landscape } from './harness.js';

const NodeK = kind<{ metadata?: any; spec?: any; status?: any }>('v1', 'Node');
const EventK = kind<{ metadata?: any; reason?: string; message?: string; involvedObject?: any }>('v1', 'Event');
const TAINT = { key: 'node.gardener.cloud/critical-components-not-ready', effect: 'NoSchedule' };
const OTHER_TAINT = { key: 'example.com/other', value: 'x', effect: 'NoSchedule' };
const critical = { 'node.gardener.cloud/critical-component': 'true' };
let land: Landscape;

async function createNode(name: string, taints: unknown[]) {
  await land.tgt.create({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: { taints } });
}
const taints = async (name: string) =>
  ((await land.tgt.get(NodeK, { name })).spec?.taints ?? []) as Array<{ key: string }>;
const hasTaint = async (name: string) => (await taints(name)).some((t) => t.key === TAINT.key);

async function createDaemonSet(name: string) {
  return land.tgt.create({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system', labels: critical },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, ...critical } },
        spec: { tolerations: [{ operator: 'Exists' }], containers: [{ name, image: 'registry.k8s.io/pause:3.9' }] },
      },
    },
  });
}

async function createDaemonPod(ds: { metadata?: any }, node: string) {
  return land.tgt.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${ds.metadata.name}-${node}`,
      namespace: 'kube-system',
      labels: { app: ds.metadata.name, ...critical },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name, uid: ds.metadata.uid, controller: true },
      ],
    },
    spec: {
      nodeName: node,
      tolerations: [{ operator: 'Exists' }],
      containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }],
    },
  });
}

async function setReady(pod: { metadata?: any }, ready: boolean) {
  const current = await land.tgt.get(PodK, { namespace: 'kube-system', name: pod.metadata.name });
  await land.tgt.updateStatus({
    ...current,
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  } as any);
}

/** Stays true for `ms` (the controller had several backoff periods to act). */
async function stillTainted(name: string, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!(await hasTaint(name))) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
  return true;
}

beforeAll(async () => {
  land = await startLandscape((config) => {
    // The example config's node-agent reconciliation delay controller would write the Nodes these tests watch.
    config.controllers.nodeAgentReconciliationDelay = { enabled: false };
    config.controllers.nodeCriticalComponents = { enabled: true, concurrentSyncs: 5, backoff: '1s' };
  });
  await land.tgt
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } })
    .catch(() => undefined);
  await land.start();
}, 60_000);

afterAll(async () => {
  await land?.stop();
});

describe('node critical components', () => {
  it('keeps the taint until every critical DaemonSet has a Ready pod on the node, then removes only that taint', async () => {
    const calico = await createDaemonSet('calico-node');
    const proxy = await createDaemonSet('kube-proxy');
    await createNode('node-a', [TAINT, OTHER_TAINT]);
    const calicoPod = await createDaemonPod(calico, 'node-a');
    await setReady(calicoPod, true);
    // kube-proxy has no pod on the node yet.
    expect(await stillTainted('node-a', 2500)).toBe(true);
    const proxyPod = await createDaemonPod(proxy, 'node-a');
    await setReady(proxyPod, false);
    // Scheduled, but not ready.
    expect(await stillTainted('node-a', 2500)).toBe(true);

    await setReady(proxyPod, true);
    // No event on the pods: the controller finds out on its next check after the backoff.
    await waitFor('taint removed', async () => !(await hasTaint('node-a')), { timeoutMs: 10_000 });
    expect(await taints('node-a')).toEqual([OTHER_TAINT]);

    const events = await waitFor(
      'events on the node',
      async () => {
        const list = await land.tgt.list(EventK, { namespace: 'default' });
        const mine = list.items.filter((e) => e.involvedObject?.kind === 'Node' && e.involvedObject?.name === 'node-a');
        return mine.some((e) => e.reason === 'NodeCriticalComponentsReady') ? mine : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(events.map((e) => e.reason)).toEqual(
      expect.arrayContaining([
        'UnscheduledNodeCriticalDaemonSets',
        'UnreadyNodeCriticalPods',
        'NodeCriticalComponentsReady',
      ]),
    );
    expect(events.find((e) => e.reason === 'UnscheduledNodeCriticalDaemonSets')?.message).toBe(
      'Node-critical DaemonSets found that were not scheduled to Node yet: kube-system/kube-proxy',
    );
  });

  it('waits for the CSI drivers named by wait-for-csi-node annotations to be registered in the CSINode', async () => {
    await createNode('node-csi', [TAINT]);
    const pod = await land.tgt.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'csi-driver-node-csi',
        namespace: 'kube-system',
        labels: critical,
        annotations: { 'node.gardener.cloud/wait-for-csi-node-example': 'csi.example.com' },
      },
      spec: { nodeName: 'node-csi', containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }] },
    });
    // Pods of the DaemonSets of the first test must exist on this node too.
    for (const ds of ['calico-node', 'kube-proxy']) {
      const obj = await land.tgt.get(kind<{ metadata?: any }>('apps/v1', 'DaemonSet'), {
        namespace: 'kube-system',
        name: ds,
      });
      await setReady(await createDaemonPod(obj, 'node-csi'), true);
    }
    await setReady(pod, true);
    expect(await stillTainted('node-csi', 2500)).toBe(true);
    await land.tgt.create({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: 'node-csi' },
      spec: { drivers: [{ name: 'csi.example.com', nodeID: 'node-csi' }] },
    });
    await waitFor('taint removed', async () => !(await hasTaint('node-csi')), { timeoutMs: 10_000 });
  });

  it('leaves Nodes without the taint alone', async () => {
    await createNode('node-plain', [OTHER_TAINT]);
    const before = (await land.tgt.get(NodeK, { name: 'node-plain' })).metadata.resourceVersion;
    await new Promise((r) => setTimeout(r, 1500));
    const after = await land.tgt.get(NodeK, { name: 'node-plain' });
    expect(after.metadata.resourceVersion).toBe(before);
    expect(after.spec.taints).toEqual([OTHER_TAINT]);
  });
});
