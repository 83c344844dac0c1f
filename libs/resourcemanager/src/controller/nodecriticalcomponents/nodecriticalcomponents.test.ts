import { describe, expect, it } from 'vitest';
import { nodeShouldRunDaemonPod, tolerates, type DaemonSetLike, type NodeLike } from './daemon.js';
import {
  criticalComponentsFindings,
  hasCriticalComponentsTaint,
  withoutCriticalComponentsTaint,
  type PodLike,
} from './rules.js';

const taint = { key: 'node.gardener.cloud/critical-components-not-ready', effect: 'NoSchedule' };
const node: NodeLike = { metadata: { name: 'n1', labels: { zone: 'a', size: '4' } }, spec: { taints: [taint] } };
const tolerateAll = [{ operator: 'Exists' }];
const ds = (name: string, spec: Record<string, unknown> = {}, critical = true): DaemonSetLike => ({
  metadata: { namespace: 'kube-system', name, uid: `uid-${name}` },
  spec: {
    template: {
      metadata: { labels: critical ? { 'node.gardener.cloud/critical-component': 'true' } : {} },
      spec: { tolerations: tolerateAll, ...spec },
    },
  },
});
const pod = (name: string, owner?: string, ready = true, annotations?: Record<string, string>): PodLike => ({
  metadata: {
    namespace: 'kube-system',
    name,
    annotations,
    ownerReferences: owner ? [{ apiVersion: 'apps/v1', kind: 'DaemonSet', uid: `uid-${owner}`, controller: true }] : [],
  },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});
const noDrivers = async () => new Set<string>();

describe('nodeShouldRunDaemonPod', () => {
  it('needs the taint tolerated', () => {
    expect(nodeShouldRunDaemonPod(node, ds('a'))).toBe(true);
    expect(nodeShouldRunDaemonPod(node, ds('a', { tolerations: [] }))).toBe(false);
    expect(
      nodeShouldRunDaemonPod(
        node,
        ds('a', { tolerations: [{ key: taint.key, operator: 'Exists', effect: 'NoSchedule' }] }),
      ),
    ).toBe(true);
    expect(
      nodeShouldRunDaemonPod(
        node,
        ds('a', { tolerations: [{ key: taint.key, operator: 'Exists', effect: 'NoExecute' }] }),
      ),
    ).toBe(false);
  });
  it('honours node name, node selector and required node affinity', () => {
    expect(nodeShouldRunDaemonPod(node, ds('a', { nodeName: 'n2' }))).toBe(false);
    expect(nodeShouldRunDaemonPod(node, ds('a', { nodeSelector: { zone: 'b' } }))).toBe(false);
    expect(nodeShouldRunDaemonPod(node, ds('a', { nodeSelector: { zone: 'a' } }))).toBe(true);
    const affinity = (matchExpressions: unknown[]) => ({
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions }] } },
      },
    });
    expect(nodeShouldRunDaemonPod(node, ds('a', affinity([{ key: 'zone', operator: 'In', values: ['a'] }])))).toBe(
      true,
    );
    expect(nodeShouldRunDaemonPod(node, ds('a', affinity([{ key: 'zone', operator: 'NotIn', values: ['a'] }])))).toBe(
      false,
    );
    expect(nodeShouldRunDaemonPod(node, ds('a', affinity([{ key: 'size', operator: 'Gt', values: ['8'] }])))).toBe(
      false,
    );
    expect(nodeShouldRunDaemonPod(node, ds('a', affinity([{ key: 'gpu', operator: 'DoesNotExist' }])))).toBe(true);
  });
  it('matches tolerations like Kubernetes', () => {
    expect(tolerates({ key: 'k', value: 'v' }, { key: 'k', value: 'v', effect: 'NoSchedule' })).toBe(true);
    expect(tolerates({ key: 'k', value: 'w' }, { key: 'k', value: 'v', effect: 'NoSchedule' })).toBe(false);
    expect(tolerates({ operator: 'Exists' }, { key: 'any', effect: 'NoExecute' })).toBe(true);
  });
});

describe('criticalComponentsFindings', () => {
  it('is ready (no findings) when every critical DaemonSet has a Ready pod on the node', async () => {
    expect(
      await criticalComponentsFindings(
        node,
        [ds('calico'), ds('proxy')],
        [pod('calico-x', 'calico'), pod('proxy-y', 'proxy')],
        noDrivers,
      ),
    ).toEqual([]);
  });
  it('waits for a critical DaemonSet without a pod on the node', async () => {
    expect(
      await criticalComponentsFindings(node, [ds('calico'), ds('proxy')], [pod('calico-x', 'calico')], noDrivers),
    ).toEqual([
      {
        reason: 'UnscheduledNodeCriticalDaemonSets',
        message: 'Node-critical DaemonSets found that were not scheduled to Node yet: kube-system/proxy',
      },
    ]);
  });
  it('ignores DaemonSets whose pod template is not critical or that do not run on the node', async () => {
    expect(
      await criticalComponentsFindings(
        node,
        [ds('other', {}, false), ds('elsewhere', { nodeSelector: { zone: 'b' } })],
        [],
        noDrivers,
      ),
    ).toEqual([]);
  });
  it('waits for unready critical pods', async () => {
    expect(
      await criticalComponentsFindings(
        node,
        [ds('calico')],
        [pod('calico-x', 'calico', false), pod('standalone', undefined, false)],
        noDrivers,
      ),
    ).toEqual([
      {
        reason: 'UnreadyNodeCriticalPods',
        message: 'Unready node-critical Pods found on Node: kube-system/calico-x, kube-system/standalone',
      },
    ]);
  });
  it('waits for the CSI drivers the pods name in wait-for-csi-node annotations', async () => {
    const csi = pod('csi', undefined, true, { 'node.gardener.cloud/wait-for-csi-node-ebs': 'ebs.csi.aws.com' });
    expect(await criticalComponentsFindings(node, [], [csi], noDrivers)).toEqual([
      { reason: 'UnreadyRequiredCSIDrivers', message: 'Unready required CSI drivers for Node: [ebs.csi.aws.com]' },
    ]);
    expect(await criticalComponentsFindings(node, [], [csi], async () => new Set(['ebs.csi.aws.com']))).toEqual([]);
  });
});

describe('taint', () => {
  it('is detected and removed without touching other taints', () => {
    expect(hasCriticalComponentsTaint(node)).toBe(true);
    expect(hasCriticalComponentsTaint({ spec: { taints: [{ key: 'x' }] } })).toBe(false);
    expect(withoutCriticalComponentsTaint([taint, { key: 'x', effect: 'NoExecute' }])).toEqual([
      { key: 'x', effect: 'NoExecute' },
    ]);
  });
});
