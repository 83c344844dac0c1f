// provider-local's node webhook (Gardener's): on updates of `nodes/status` in seed and shoot clusters, capacity and
// allocatable CPU and memory become 100 and 100Gi, so the many Pods Gardener schedules with high requests fit on
// local nodes whose real resources are shared by everything on the machine.
import { allowed, patched, type AdmissionHandler, type NodeObject } from '@gardener-ts/controller-runtime';

/** The CPU and memory every local node reports. */
export const LocalNodeResources = { cpu: '100', memory: '100Gi' } as const;

/** The node with capacity and allocatable CPU/memory set; undefined when it already has them. */
export function withLocalNodeResources(node: NodeObject): NodeObject | undefined {
  const status = (node.status ?? {}) as Record<string, unknown> & {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
  };
  const same = (r: Record<string, string> | undefined) =>
    r?.cpu === LocalNodeResources.cpu && r?.memory === LocalNodeResources.memory;
  if (same(status.capacity) && same(status.allocatable)) return undefined;
  return {
    ...node,
    status: {
      ...status,
      capacity: { ...status.capacity, ...LocalNodeResources },
      allocatable: { ...status.allocatable, ...LocalNodeResources },
    },
  };
}

/** The admission handler for `nodes/status` (register it as a mutating webhook on UPDATE of nodes/status). */
export const nodeMutator: AdmissionHandler<NodeObject> = (request) => {
  if (request.operation !== 'UPDATE' || request.subResource !== 'status' || !request.object) return allowed();
  const changed = withLocalNodeResources(request.object);
  return changed ? patched(changed) : allowed();
};
