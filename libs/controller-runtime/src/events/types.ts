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
}
