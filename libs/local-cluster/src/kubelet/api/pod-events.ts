// Events the kubelet reports about a Pod (core/v1 Events with source component "kubelet" and the node as host), as
// kube's kubelet does for failures a user must see in `kubectl describe pod`: bad volumes and container
// configuration, programs that cannot start. Each distinct reason and message is reported once per Pod.
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';

/** Records Warning Events for one Pod. */
export class PodEvents {
  private readonly sent = new Set<string>();

  constructor(
    private readonly core: Pick<k8s.CoreV1Api, 'createNamespacedEvent'>,
    private readonly nodeName: string,
    private readonly log: Logger,
  ) {}

  /** Creates a Warning Event for the Pod (or its container, with `fieldPath`) unless the same one was sent before. */
  async warning(pod: k8s.V1Pod, reason: string, message: string, fieldPath?: string): Promise<void> {
    const key = `${reason}\n${fieldPath ?? ''}\n${message}`;
    if (this.sent.has(key)) return;
    this.sent.add(key);
    const now = new Date();
    const namespace = pod.metadata!.namespace!;
    try {
      await this.core.createNamespacedEvent({
        namespace,
        body: {
          metadata: {
            name: `${pod.metadata!.name}.${now.getTime().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`,
            namespace,
          },
          involvedObject: {
            apiVersion: 'v1',
            kind: 'Pod',
            name: pod.metadata!.name,
            namespace,
            uid: pod.metadata!.uid,
            resourceVersion: pod.metadata!.resourceVersion,
            ...(fieldPath ? { fieldPath } : {}),
          },
          type: 'Warning',
          reason,
          message,
          source: { component: 'kubelet', host: this.nodeName },
          reportingComponent: 'kubelet',
          reportingInstance: this.nodeName,
          firstTimestamp: now,
          lastTimestamp: now,
          count: 1,
        },
      });
    } catch (err) {
      this.sent.delete(key);
      this.log.info({ err: (err as Error).message, reason }, 'Recording a Pod event failed');
    }
  }
}
