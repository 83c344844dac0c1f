// Records core/v1 Events about objects, as `kubectl describe` shows them. Best effort: a failed write is logged.
import type { Client, KubernetesObject } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { rfc3339 } from './time.js';

export type EventType = 'Normal' | 'Warning';

export class EventRecorder {
  constructor(
    private readonly client: Client,
    private readonly component: string,
    private readonly log: Logger,
  ) {}

  event(obj: KubernetesObject, type: EventType, reason: string, message: string): void {
    const m = obj.metadata ?? {};
    const now = rfc3339();
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { generateName: `${m.name}.`, namespace: m.namespace || 'default' },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name: m.name,
        namespace: m.namespace,
        uid: m.uid,
        resourceVersion: m.resourceVersion,
      },
      reason,
      message,
      type,
      source: { component: this.component },
      reportingComponent: this.component,
      reportingInstance: this.component,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    };
    this.client.create(event).catch((err: unknown) => this.log.warn({ err, reason }, 'Could not record event'));
  }
}
