// Container resources for the downward API (`resourceFieldRef`): the limit or request, divided and rounded up; an
// unset limit reads as the node's allocatable amount, as in Kubernetes. Exact, as kube's
// `ExtractContainerResourceValue`: CPU divides milli-values, every other resource divides Value()s.
import type * as k8s from '@kubernetes/client-node';
import { parseQuantityStrict } from '@gardener-ts/api';

/** ceil(a / b) for b > 0. */
function ceilDivide(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b < a ? q + 1n : q;
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
  if ((kind !== 'limits' && kind !== 'requests') || !resource)
    throw new Error(`unsupported resource ${JSON.stringify(ref.resource)}`);
  const set = (kind === 'limits' ? container.resources?.limits : container.resources?.requests)?.[resource];
  const amount = set ?? (kind === 'limits' ? allocatable[resource] : undefined) ?? '0';
  const divisor = parseQuantityStrict(ref.divisor ?? '1');
  if (divisor.sign() <= 0)
    throw new Error(`resourceFieldRef divisor must be positive, got ${JSON.stringify(ref.divisor)}`);
  const value = parseQuantityStrict(amount);
  const [numerator, denominator] =
    resource === 'cpu' ? [value.milliValue(), divisor.milliValue()] : [value.value(), divisor.value()];
  return String(ceilDivide(numerator, denominator));
}
