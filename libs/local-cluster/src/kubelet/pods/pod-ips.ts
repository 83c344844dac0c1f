// Pod addresses: each Pod of the node gets its own loopback address from the node's pod CIDR (127.X.0.0/16, or a node's /20 slice of it), so
// replicas can listen on the same port. hostNetwork Pods, and every Pod when no CIDR is set, share the host address.
// A Pod that runs a node itself (a local machine: its kubelet runs the Pods of a shoot) asks with the annotation
// `local.gardener.cloud/pod-range-prefix: "24"` for a whole /24 block of the node's pod CIDR: its own address is the
// block's first, and the block is its kubelet's pod CIDR (env GARDENER_LOCAL_POD_CIDR), so the shoot's Pods get
// addresses of their own too, as a real node's Pods get theirs from the node's pod CIDR.
import type * as k8s from '@kubernetes/client-node';
import { inPodCIDR, podAddress, podAddressCount, podAddresses, podBlocks } from '../../network/pod-network.js';
import { HOST_IP } from './field-path.js';

/** The annotation by which a Pod that runs a node asks for a /24 of pod addresses for its own Pods (value `24`). */
export const PodRangePrefixAnnotation = 'local.gardener.cloud/pod-range-prefix';

export class PodIPs {
  private readonly byUid = new Map<string, string>();
  private readonly rangeByUid = new Map<string, string>();
  private readonly taken = new Set<string>();
  private next = 1;

  /**
   * @param podCIDR the node's pod CIDR (none: every Pod shares the host address).
   * @param reserved addresses never handed out (the kubelet's own when it runs inside a Pod that has one).
   */
  constructor(
    readonly podCIDR?: string,
    reserved: readonly string[] = [],
  ) {
    if (podCIDR) podAddress(podCIDR, 1); // validates the CIDR now rather than at the first Pod
    for (const ip of reserved) this.taken.add(ip);
  }

  /** The Pod's address; a Pod that had one in this CIDR (before a kubelet restart) keeps it while it is free. */
  assign(pod: k8s.V1Pod): string {
    const uid = pod.metadata!.uid!;
    const known = this.byUid.get(uid);
    if (known) return known;
    if (!this.podCIDR || pod.spec?.hostNetwork) return HOST_IP;
    const previous = pod.status?.podIP;
    if (pod.metadata?.annotations?.[PodRangePrefixAnnotation] === '24') {
      const range = this.freeBlock(previous);
      if (range) {
        const addresses = podAddresses(range);
        for (const ip of addresses) this.taken.add(ip);
        this.rangeByUid.set(uid, range);
        this.byUid.set(uid, addresses[0]!);
        return addresses[0]!;
      }
      // No whole block is free (or the node's CIDR is a single /24): the Pod gets one address and no range.
    }
    const ip = previous && this.inRange(previous) && !this.taken.has(previous) ? previous : this.free();
    this.byUid.set(uid, ip);
    this.taken.add(ip);
    return ip;
  }

  /** The /24 block a Pod was given for its own Pods (see `PodRangePrefixAnnotation`), if any. */
  rangeOf(uid: string): string | undefined {
    return this.rangeByUid.get(uid);
  }

  release(uid: string): void {
    const ip = this.byUid.get(uid);
    if (!ip) return;
    this.byUid.delete(uid);
    const range = this.rangeByUid.get(uid);
    if (range) {
      this.rangeByUid.delete(uid);
      for (const address of podAddresses(range)) this.taken.delete(address);
    } else {
      this.taken.delete(ip);
    }
  }

  private inRange(ip: string): boolean {
    return inPodCIDR(this.podCIDR!, ip) && ip !== HOST_IP;
  }

  // A /24 block none of whose addresses is taken, never the node's only one; the block the Pod had before a restart
  // (its address is the block's first) when it is still free.
  private freeBlock(previous: string | undefined): string | undefined {
    const blocks = podBlocks(this.podCIDR!);
    if (blocks.length < 2) return undefined;
    const free = (block: string) => podAddresses(block).every((ip) => !this.taken.has(ip));
    const before = previous ? blocks.find((b) => podAddress(b, 1) === previous) : undefined;
    if (before && free(before)) return before;
    // From the end of the CIDR: single addresses are handed out from its start.
    return [...blocks].reverse().find(free);
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
