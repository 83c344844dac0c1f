// Pod addresses: each Pod of the node gets its own loopback address from the node's pod CIDR (127.X.0.0/16, or a node's /20 slice of it), so
// replicas can listen on the same port. hostNetwork Pods, and every Pod when no CIDR is set, share the host address.
import type * as k8s from '@kubernetes/client-node';
import { inPodCIDR, podAddress, podAddressCount } from '../../network/pod-network.js';
import { HOST_IP } from './field-path.js';

export class PodIPs {
  private readonly byUid = new Map<string, string>();
  private readonly taken = new Set<string>();
  private next = 1;

  constructor(readonly podCIDR?: string) {
    if (podCIDR) podAddress(podCIDR, 1); // validates the CIDR now rather than at the first Pod
  }

  /** The Pod's address; a Pod that had one in this CIDR (before a kubelet restart) keeps it while it is free. */
  assign(pod: k8s.V1Pod): string {
    const uid = pod.metadata!.uid!;
    const known = this.byUid.get(uid);
    if (known) return known;
    if (!this.podCIDR || pod.spec?.hostNetwork) return HOST_IP;
    const previous = pod.status?.podIP;
    const ip = previous && this.inRange(previous) && !this.taken.has(previous) ? previous : this.free();
    this.byUid.set(uid, ip);
    this.taken.add(ip);
    return ip;
  }

  release(uid: string): void {
    const ip = this.byUid.get(uid);
    if (!ip) return;
    this.byUid.delete(uid);
    this.taken.delete(ip);
  }

  private inRange(ip: string): boolean {
    return inPodCIDR(this.podCIDR!, ip) && ip !== HOST_IP;
  }

  // Round robin over the range, so a just-released address is not handed out again at once.
  private free(): string {
    const count = podAddressCount(this.podCIDR!);
    for (let tried = 0; tried < count; tried++) {
      const ip = podAddress(this.podCIDR!, this.next);
      this.next = this.next >= count ? 1 : this.next + 1;
      if (!this.taken.has(ip)) return ip;
    }
    throw new Error(`pod CIDR ${this.podCIDR} has no free address`);
  }
}
