// core/v1 Event, the fields a recorder writes.
import type { KubernetesObject } from '../client/types.js';

export type EventType = 'Normal' | 'Warning';

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface CoreEvent extends KubernetesObject {
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  type: EventType;
  source: { component: string; host?: string };
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
  reportingComponent?: string;
  reportingInstance?: string;
  action?: string;
  related?: ObjectReference;
}

/** events.k8s.io/v1 EventSeries: repeats of one event (client-go's new events API starts it at count 2). */
export interface EventSeries {
  count: number;
  /** MicroTime (RFC 3339 with microseconds). */
  lastObservedTime: string;
}

/** events.k8s.io/v1 Event, the fields a recorder writes. */
export interface EventsV1Event extends KubernetesObject {
  /** MicroTime (RFC 3339 with microseconds) of the first occurrence. */
  eventTime: string;
  series?: EventSeries;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  regarding: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type: EventType;
}
