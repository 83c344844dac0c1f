// Resource quantities (`100m`, `1.5Gi`, `2e3`) in thousandths of the base unit, so CPU millicores stay integers:
// kube's `Quantity.MilliValue()` over the one quantity implementation in @gardener-ts/api.
import { quantityMilliValue } from '@gardener-ts/api';

/** The quantity in milli-units, rounded up (`100m` → 100, `1` → 1000, `1Ki` → 1024000). Throws QuantityError. */
export function milliValue(quantity: string | number): number {
  return quantityMilliValue(quantity);
}
