// Resource quantities (`100m`, `1.5Gi`, `2e3`), in thousandths of the base unit so CPU millicores stay integers.
import { parseQuantity } from '@gardener-ts/api';

/** The quantity in milli-units (`100m` → 100, `1` → 1000, `1Ki` → 1024000). Throws on malformed input. */
export function milliValue(quantity: string | number): number {
  const value = parseQuantity(typeof quantity === 'string' ? quantity.trim() : quantity);
  if (value === undefined) throw new Error(`invalid quantity ${JSON.stringify(quantity)}`);
  return Math.ceil(value * 1000 - 1e-6);
}
