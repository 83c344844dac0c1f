// Label selectors of the CloudProfile's and the Shoot's spec.seedSelector: a seed's labels must match both. An empty
// selector matches every seed; an invalid one fails the decision (Gardener cannot convert it either).
import type { Seed } from '@gardener-ts/api';
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
export function compileSeedSelector(selector: LabelSelectorLike | undefined, owner: string): CompiledSelector | undefined {
  if (!selector) return undefined;
  const requirements: { key: string; text: string; test: (labels: Record<string, string>) => boolean }[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    requirements.push({ key, text: `${key}=${value}`, test: (l) => l[key] === value });
  }
  for (const r of selector.matchExpressions ?? []) {
    const values = [...(r.values ?? [])].sort();
    const invalid = (why: string) => new SchedulingInputError(`label selector conversion failed for the seedSelector of '${owner}': ${r.key}: ${why}`);
    switch (r.operator) {
      case 'In':
      case 'NotIn': {
        if (values.length === 0) throw invalid(`values must be non-empty for operator ${r.operator}`);
        const set = new Set(values);
        const inSet = (l: Record<string, string>) => r.key in l && set.has(l[r.key]);
        requirements.push({
          key: r.key,
          text: `${r.key} ${r.operator === 'In' ? 'in' : 'notin'} (${values.join(',')})`,
          test: r.operator === 'In' ? inSet : (l) => !inSet(l),
        });
        break;
      }
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) throw invalid(`values must be empty for operator ${r.operator}`);
        requirements.push({
          key: r.key,
          text: r.operator === 'Exists' ? r.key : `!${r.key}`,
          test: r.operator === 'Exists' ? (l) => r.key in l : (l) => !(r.key in l),
        });
        break;
      default:
        throw invalid(`${JSON.stringify(r.operator)} is not a valid label selector operator`);
    }
  }
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    matches: (labels) => requirements.every((r) => r.test(labels ?? {})),
    text: requirements.map((r) => r.text).join(','),
  };
}

/** Why the seed's labels do not match, or undefined when they do. */
export function seedSelectorMismatch(seed: Seed, selector: CompiledSelector | undefined, owner: string): string | undefined {
  if (!selector || selector.matches(seed.metadata?.labels)) return undefined;
  return `labels do not match the seed selector of '${owner}' (selector: '${selector.text}')`;
}
