// Kubernetes resource quantities ("250", "1k", "2Ki", "1e3") as integers, rounded up like resource.Quantity.Value():
// a seed's status.allocatable.shoots is one. Parsed by the one quantity implementation in @gardener-ts/api.
import { tryParseQuantity } from '@gardener-ts/api';

const known = new Map<string, number | undefined>();

/** The integer value of a quantity (rounded up), or undefined when the text is not a quantity. */
export function quantityValue(quantity: string | number | undefined): number | undefined {
  if (quantity === undefined) return undefined;
  if (typeof quantity === 'number') return integerQuantity(quantity);
  // Every seed reports its allocatable shoots and every decision reads them all: parse each text once.
  if (known.has(quantity)) return known.get(quantity);
  const value = integerQuantity(quantity);
  if (known.size >= 1000) known.clear();
  known.set(quantity, value);
  return value;
}

function integerQuantity(quantity: string | number): number | undefined {
  const parsed = tryParseQuantity(quantity);
  return parsed === undefined ? undefined : Number(parsed.value());
}
