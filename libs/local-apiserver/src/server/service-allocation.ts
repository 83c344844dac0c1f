// ClusterIP and NodePort allocation for Services, as kube-apiserver's service REST storage does: a free address
// from the service CIDR (10.0.0.0/24 by default, .1 is kept for the `kubernetes` Service) and free node ports from
// 30000-32767; both immutable once set, and kept when an update omits them (kubectl apply does). Node ports are
// picked at random as kube's allocator does, from the upper band first (the lower band is left for Services that ask
// for a port): several local clusters on one host then rarely want the same host port.
import { formatIPAddress, IPNet } from '@gardener-ts/api';
import { errors } from '../api/errors.js';
import type { FieldProblem } from '../schema/types.js';
import type { KubeObject, Storage } from '../storage/types.js';
import type { WriteStep } from './pipeline.js';

/** The service CIDR (kube-apiserver's `--service-cluster-ip-range`). */
export const SERVICE_CIDR = IPNet.parse('10.0.0.0/24');
const NODE_PORTS = { first: 30000, last: 32767 };

/** The address at `offset` in the service CIDR; offset 1 is the `kubernetes` Service's. */
export const ipAt = (offset: number) => formatIPAddress(SERVICE_CIDR.address(offset));

export function serviceAllocation(storage: Storage): WriteStep {
  // Addresses handed out to creates that are not stored yet, so concurrent creates never share one.
  const pendingIps = new Set<string>();
  const pendingPorts = new Set<number>();

  const inUse = async () => {
    const ips = new Set<string>(pendingIps);
    const ports = new Set<number>(pendingPorts);
    let after: string | undefined;
    for (;;) {
      const page = await storage.list({ prefix: '/registry/core/services/', limit: 500, after });
      for (const item of page.items) {
        for (const ip of item.object.spec?.clusterIPs ?? [item.object.spec?.clusterIP]) if (ip) ips.add(ip);
        for (const p of item.object.spec?.ports ?? []) if (p.nodePort) ports.add(p.nodePort);
      }
      if (!page.more || page.items.length === 0) break;
      after = page.items[page.items.length - 1].key;
    }
    return { ips, ports };
  };

  return async (r) => {
    const d = r.definition;
    if (
      d.group !== '' ||
      d.resource !== 'services' ||
      (r.operation !== 'CREATE' && r.operation !== 'UPDATE') ||
      r.subresource !== ''
    )
      return;
    const spec: KubeObject = (r.object.spec ??= {});
    const old: KubeObject | undefined = r.oldObject?.spec;
    const problems: FieldProblem[] = [];
    if (old) keepAllocated(spec, old, problems);
    if (problems.length > 0) throw errors.invalid('Service', '', r.name, problems);

    if (spec.clusterIP && !spec.clusterIPs) spec.clusterIPs = [spec.clusterIP];
    const wantsIp = spec.type !== 'ExternalName' && !spec.clusterIP;
    const wantsNodePorts =
      (spec.type === 'NodePort' || spec.type === 'LoadBalancer') &&
      (spec.ports ?? []).some((p: KubeObject) => !p.nodePort);
    const checksIp = r.operation === 'CREATE' && spec.clusterIP && spec.clusterIP !== 'None';
    if (!wantsIp && !wantsNodePorts && !checksIp) return;

    const used = await inUse();
    if (checksIp && used.ips.has(spec.clusterIP)) {
      throw errors.invalid('Service', '', r.name, [
        {
          field: 'spec.clusterIPs',
          reason: 'FieldValueInvalid',
          message: `Invalid value: ["${spec.clusterIP}"]: failed to allocate IP ${spec.clusterIP}: provided IP is already allocated`,
        },
      ]);
    }
    const claimed: { ip?: string; ports: number[] } = { ports: [] };
    if (wantsIp) {
      const offset = Array.from({ length: Number(SERVICE_CIDR.size()) - 3 }, (_, i) => i + 2).find(
        (o) => !used.ips.has(ipAt(o)),
      );
      if (offset === undefined) throw errors.internal('failed to allocate a serviceIP: range is full');
      spec.clusterIP = ipAt(offset);
      claimed.ip = spec.clusterIP;
    }
    if (spec.clusterIP) spec.clusterIPs = [spec.clusterIP];
    if (wantsNodePorts) {
      for (const p of spec.ports as KubeObject[]) {
        if (p.nodePort) continue;
        const port = freeNodePort((n) => used.ports.has(n) || claimed.ports.includes(n));
        if (port === undefined) throw errors.internal('failed to allocate a nodePort: range is full');
        p.nodePort = port;
        claimed.ports.push(port);
      }
    }
    if (r.ctx.dryRun || r.operation !== 'CREATE') return;
    // Held until the create has had time to be stored; a later scan then sees the address in storage.
    if (claimed.ip) pendingIps.add(claimed.ip);
    for (const p of claimed.ports) pendingPorts.add(p);
    setTimeout(() => {
      if (claimed.ip) pendingIps.delete(claimed.ip);
      for (const p of claimed.ports) pendingPorts.delete(p);
    }, 5_000).unref();
  };
}

/**
 * A free node port at random: kube's static subrange split (the lower band is min(max(16, size/32), 128) ports) —
 * dynamic allocation tries the upper band first, then the lower one.
 */
export function freeNodePort(taken: (port: number) => boolean, random: () => number = Math.random): number | undefined {
  const size = NODE_PORTS.last - NODE_PORTS.first + 1;
  const lower = Math.min(Math.max(16, Math.floor(size / 32)), 128);
  const bands = [
    { first: NODE_PORTS.first + lower, size: size - lower },
    { first: NODE_PORTS.first, size: lower },
  ];
  for (const band of bands) {
    const start = Math.floor(random() * band.size);
    for (let i = 0; i < band.size; i++) {
      const port = band.first + ((start + i) % band.size);
      if (!taken(port)) return port;
    }
  }
  return undefined;
}

/** clusterIP and nodePorts survive updates that omit them; changing an allocated clusterIP is refused. */
function keepAllocated(spec: KubeObject, old: KubeObject, problems: FieldProblem[]): void {
  if (spec.type === 'ExternalName') return;
  if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
  if (!spec.clusterIPs && old.clusterIPs) spec.clusterIPs = old.clusterIPs;
  if (old.clusterIP && spec.clusterIP !== old.clusterIP) {
    problems.push({
      field: 'spec.clusterIPs[0]',
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${spec.clusterIP}": may not change once set`,
    });
  }
  for (const p of spec.ports ?? []) {
    if (p.nodePort) continue;
    const before = (old.ports ?? []).find(
      (o: KubeObject) => o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'),
    );
    if (before?.nodePort && (spec.type === 'NodePort' || spec.type === 'LoadBalancer')) p.nodePort = before.nodePort;
  }
}
