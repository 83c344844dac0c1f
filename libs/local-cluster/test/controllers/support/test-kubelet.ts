// Plays the kubelet of test Nodes: pods bound to them become Running and Ready, pods being deleted go away. That is
// the node's job in a real cluster; no kubelet runs next to the in-process API server.
import { ApiClient, SharedInformer } from '@gardener-ts/controller-runtime';
import { type Node, type Pod, PodKind } from '../../../src/controllers/shared/kinds.js';

const rfc3339 = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface TestNodeOptions {
  labels?: Record<string, string>;
  taints?: NonNullable<Node['spec']>['taints'];
  allocatable?: Record<string, string>;
  ready?: boolean;
  unschedulable?: boolean;
}

export class TestKubelet {
  private readonly abort = new AbortController();
  private readonly informer: SharedInformer<Pod>;
  private readonly nodes = new Set<string>();
  /** Pods the kubelet leaves Pending/not ready (names), to test what controllers do with them. */
  readonly holdBack = new Set<string>();
  /** When false, the kubelet leaves pods as they are (for tests that drive pod status by hand). */
  running = true;

  constructor(private readonly api: ApiClient) {
    this.informer = new SharedInformer(api, PodKind);
    this.informer.addEventHandler({ onAdd: (p) => this.handle(p), onUpdate: (_o, p) => this.handle(p) });
  }

  static async start(kubeconfigPath: string): Promise<TestKubelet> {
    const kubelet = new TestKubelet(await ApiClient.create(kubeconfigPath));
    kubelet.informer.start(kubelet.abort.signal);
    await kubelet.informer.waitForSync();
    return kubelet;
  }

  async addNode(name: string, o: TestNodeOptions = {}): Promise<Node> {
    this.nodes.add(name);
    const node = await this.api.create<Node>({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
      spec: { taints: o.taints, unschedulable: o.unschedulable },
    });
    const allocatable = o.allocatable ?? { cpu: '4', memory: '8Gi', pods: '110' };
    const conditions = [
      {
        type: 'Ready',
        status: o.ready === false ? 'False' : 'True',
        reason: 'KubeletReady',
        lastHeartbeatTime: rfc3339(),
        lastTransitionTime: rfc3339(),
      },
    ];
    return this.api.updateStatus({ ...node, status: { allocatable, capacity: allocatable, conditions } });
  }

  /** Marks a pod Ready (or not) through pods/status, as a kubelet's readiness probe would. */
  async setReady(namespace: string, name: string, ready: boolean): Promise<void> {
    const pod = await this.api.get(PodKind, { namespace, name });
    await this.api.updateStatus(withStatus(pod, 'Running', ready));
  }

  /** Ends a pod's containers: Succeeded (exit 0) or Failed (exit 1). */
  async finish(namespace: string, name: string, phase: 'Succeeded' | 'Failed'): Promise<void> {
    const pod = await this.api.get(PodKind, { namespace, name });
    const exitCode = phase === 'Succeeded' ? 0 : 1;
    const containerStatuses = (pod.spec?.containers ?? []).map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { terminated: { exitCode, reason: phase === 'Succeeded' ? 'Completed' : 'Error', finishedAt: rfc3339() } },
    }));
    const notReady = (pod.status?.conditions ?? []).map((c) =>
      c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False' } : c,
    );
    await this.api.updateStatus({ ...pod, status: { ...pod.status, phase, conditions: notReady, containerStatuses } });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.informer.stop();
    this.api.close();
  }

  private handle(pod: Pod): void {
    if (!this.running || !pod.spec?.nodeName || !this.nodes.has(pod.spec.nodeName)) return;
    const key = { namespace: pod.metadata!.namespace!, name: pod.metadata!.name! };
    if (pod.metadata?.deletionTimestamp) {
      void this.api.delete(PodKind, key, { gracePeriodSeconds: 0 }).catch(() => undefined);
      return;
    }
    if (this.holdBack.has(key.name) || pod.status?.phase !== 'Pending') return;
    void this.api.updateStatus(withStatus(pod, 'Running', true)).catch(() => undefined);
  }
}

function withStatus(pod: Pod, phase: string, ready: boolean): Pod {
  const at = rfc3339();
  const conditions = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
    type,
    status: type === 'Ready' || type === 'ContainersReady' ? (ready ? 'True' : 'False') : 'True',
    lastTransitionTime:
      pod.status?.conditions?.find((c) => c.type === type && c.status === (ready ? 'True' : 'False'))
        ?.lastTransitionTime ?? at,
  }));
  return {
    ...pod,
    status: {
      ...pod.status,
      phase,
      conditions,
      podIP: pod.status?.podIP ?? podIP(pod),
      startTime: pod.status?.startTime ?? at,
    },
  };
}

/** A stable fake IP per pod name. */
function podIP(pod: Pod): string {
  let h = 0;
  for (const ch of pod.metadata?.name ?? '') h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `10.${(h >> 16) & 255}.${(h >> 8) & 255}.${(h & 254) + 1}`;
}
