// Kubernetes resource quantities ("250", "1k", "2Ki", "1e3") as integers, rounded up like resource.Quantity.Value():
// a seed's status.allocatable.shoots is one.
import { parseQuantity } from '@gardener-ts/api';

const known = new Map<string, number | undefined>();

/** The integer value of a quantity (rounded up), or undefined when the text is not a quantity. */
export function quantityValue(quantity: string | number | undefined): number | undefined {
  if (quantity === undefined) return undefined;
  if (typeof quantity === 'number') return Number.isFinite(quantity) ? Math.ceil(quantity) : undefined;
  // Every seed reports its allocatable shoots and every decision reads them all: parse each text once.
  if (known.has(quantity)) return known.get(quantity);
  const value = integerQuantity(quantity);
  if (known.size >= 1000) known.clear();
  known.set(quantity, value);
  return value;
}

function integerQuantity(quantity: string): number | undefined {
  const scaled = parseQuantity(quantity.trim());
  // Guard against binary floating point (0.1k = 100.00000000000001).
  return scaled === undefined ? undefined : Math.ceil(Number(scaled.toPrecision(15)));
}
