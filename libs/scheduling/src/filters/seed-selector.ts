// Label selectors of the CloudProfile's and the Shoot's spec.seedSelector: a seed's labels must match both. An empty
// selector matches every seed; an invalid one fails the decision (Gardener cannot convert it either).
import { LabelSelectorError, labelSelectorAsSelector, type Seed } from '@gardener-ts/api';
import { SchedulingInputError } from '../errors.js';

interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: Requirement[];
}

export interface CompiledSelector {
  matches(labels: Record<string, string> | undefined): boolean;
  /** The selector as Kubernetes prints it: sorted by key, `a=b`, `k in (x,y)`, `k notin (x)`, `k`, `!k`. */
  text: string;
}

/** Compiles the label part of a seedSelector; undefined when there is no selector. Throws SchedulingInputError. */
export function compileSeedSelector(
  selector: LabelSelectorLike | undefined,
  owner: string,
): CompiledSelector | undefined {
  if (!selector) return undefined;
  try {
    const converted = labelSelectorAsSelector(selector);
    return { matches: (labels) => converted.matches(labels), text: converted.toString() };
  } catch (err) {
    if (!(err instanceof LabelSelectorError)) throw err;
    throw new SchedulingInputError(
      `label selector conversion failed for the seedSelector of '${owner}': ${err.message}`,
      { cause: err },
    );
  }
}

/** Why the seed's labels do not match, or undefined when they do. */
export function seedSelectorMismatch(
  seed: Seed,
  selector: CompiledSelector | undefined,
  owner: string,
): string | undefined {
  if (!selector || selector.matches(seed.metadata?.labels)) return undefined;
  return `labels do not match the seed selector of '${owner}' (selector: '${selector.text}')`;
}
