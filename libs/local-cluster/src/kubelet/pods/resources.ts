// Container resources for the downward API (`resourceFieldRef`): the limit or request, divided and rounded up; an
// unset limit reads as the node's allocatable amount, as in Kubernetes.
import type * as k8s from '@kubernetes/client-node';
import { parseQuantity } from '@gardener-ts/api';

function quantity(text: string): number {
  const value = parseQuantity(text.trim());
  if (value === undefined) throw new Error(`invalid quantity ${JSON.stringify(text)}`);
  return value;
}

export function resourceFieldValue(
  pod: k8s.V1Pod,
  ref: k8s.V1ResourceFieldSelector,
  defaultContainer: string | undefined,
  allocatable: Record<string, string>,
): string {
  const name = ref.containerName || defaultContainer;
  const container = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((c) => c.name === name);
  if (!container) throw new Error(`resourceFieldRef: no container ${JSON.stringify(name)}`);
  const [kind, resource] = ref.resource.split('.', 2) as [string, string];
  if ((kind !== 'limits' && kind !== 'requests') || !resource) throw new Error(`unsupported resource ${JSON.stringify(ref.resource)}`);
  const set = (kind === 'limits' ? container.resources?.limits : container.resources?.requests)?.[resource];
  const amount = set ?? (kind === 'limits' ? allocatable[resource] : undefined) ?? '0';
  const divisor = quantity(ref.divisor ?? '1');
  if (divisor <= 0) throw new Error(`resourceFieldRef divisor must be positive, got ${JSON.stringify(ref.divisor)}`);
  return String(Math.ceil(quantity(amount) / divisor - 1e-9));
}
