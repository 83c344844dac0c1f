// The Pods bound to this node: list, then watch from the list's resourceVersion, relisting whenever the watch ends.
// A small stand-in for an informer; `upsert` sees every new version of a Pod, `remove` every Pod that is gone.
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import type { KubeClients } from './api/kube-client.js';

export interface PodHandler {
  upsert(pod: k8s.V1Pod): void;
  remove(pod: k8s.V1Pod): void;
}

export class PodSource {
  private readonly known = new Map<string, k8s.V1Pod>();
  private abort?: AbortController;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly clients: KubeClients,
    private readonly nodeName: string,
    private readonly handler: PodHandler,
    private readonly log: Logger,
    private readonly relistDelayMs = 1000,
  ) {}

  /** Resolves after the first list has been handed to the handler. */
  async start(): Promise<void> {
    await this.listAndWatch();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.abort?.abort();
  }

  private get fieldSelector(): string {
    return `spec.nodeName=${this.nodeName}`;
  }

  private async listAndWatch(): Promise<void> {
    const list = await this.clients.core.listPodForAllNamespaces({ fieldSelector: this.fieldSelector });
    const seen = new Set<string>();
    for (const pod of list.items) {
      seen.add(pod.metadata!.uid!);
      this.upsert(pod);
    }
    for (const [uid, pod] of this.known) {
      if (!seen.has(uid)) this.delete(pod);
    }
    if (this.stopped) return;
    const watch = new k8s.Watch(this.clients.config);
    this.abort = await watch.watch(
      '/api/v1/pods',
      { fieldSelector: this.fieldSelector, resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (type, pod: k8s.V1Pod) => {
        if (type === 'ADDED' || type === 'MODIFIED') this.upsert(pod);
        else if (type === 'DELETED') this.delete(pod);
      },
      (err) => this.restart(err),
    );
  }

  private restart(err: unknown): void {
    if (this.stopped) return;
    if (err) this.log.debug({ err }, 'Pod watch ended, relisting');
    this.retry = setTimeout(() => {
      this.listAndWatch().catch((e) => this.restart(e ?? new Error('relist failed')));
    }, this.relistDelayMs);
  }

  private upsert(pod: k8s.V1Pod): void {
    this.known.set(pod.metadata!.uid!, pod);
    this.handler.upsert(pod);
  }

  private delete(pod: k8s.V1Pod): void {
    this.known.delete(pod.metadata!.uid!);
    this.handler.remove(pod);
  }
}
