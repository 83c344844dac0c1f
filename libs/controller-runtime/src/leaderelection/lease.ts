// The coordination.k8s.io/v1 Lease that serves as the lock: who holds it, for how long, since when.
import { kind } from '../client/gvk.js';
import type { KubernetesObject } from '../client/types.js';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime: RFC 3339 with microseconds. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease extends KubernetesObject {
  spec?: LeaseSpec;
}

export const LeaseKind = kind<Lease>('coordination.k8s.io/v1', 'Lease');

/** metav1.MicroTime's wire format: `2006-01-02T15:04:05.000000Z`. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
