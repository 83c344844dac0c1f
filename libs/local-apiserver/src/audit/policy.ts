// The audit policy (audit.k8s.io/v1 Policy): loading, kube's validation with its field-path errors, and kube's rule
// matching — rules in order, the first match decides the level, no match is None.
import { readFile } from 'node:fs/promises';
import { dns1123SubdomainErrors } from '@gardener-ts/api';
import { parse as parseYaml } from 'yaml';
import type { ResourceAttributes } from '../auth/attributes.js';
import {
  LEVELS,
  STAGES,
  type AuditAttributes,
  type GroupResources,
  type Level,
  type Policy,
  type PolicyRule,
  type Stage,
} from './types.js';

const API_VERSIONS = ['audit.k8s.io/v1', 'audit.k8s.io/v1beta1'];

/** What the policy says for one request. */
export interface AuditDecision {
  level: Level;
  omitStages: ReadonlySet<Stage>;
  omitManagedFields: boolean;
}

/** Go's `%#v`-like rendering of a field value in a field error (strings quoted, string lists as `[]string{...}`). */
function goValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return `[]string{${value.map((v) => JSON.stringify(v)).join(', ')}}`;
  return JSON.stringify(value) ?? String(value);
}

const invalid = (path: string, value: unknown, detail: string) =>
  `${path}: Invalid value: ${goValue(value)}: ${detail}`;
const unsupported = (path: string, value: unknown, supported: readonly string[]) =>
  `${path}: Unsupported value: ${goValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`;

/** kube's aggregate error text: one error as itself, several as `[a, b]`. */
function aggregate(errors: string[]): string {
  return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A list of strings at `path`, or an error; absent is fine. */
function stringList(value: unknown, path: string, errors: string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    errors.push(invalid(path, value, 'must be a list of strings'));
    return undefined;
  }
  return value as string[];
}

function optionalBool(value: unknown, path: string, errors: string[]): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    errors.push(invalid(path, value, 'must be a boolean'));
    return undefined;
  }
  return value;
}

function stages(value: unknown, path: string, errors: string[]): Stage[] | undefined {
  const list = stringList(value, path, errors);
  list?.forEach((s, i) => {
    if (!(STAGES as readonly string[]).includes(s))
      errors.push(invalid(`${path}[${i}]`, s, `allowed stages are ${STAGES.join(',')}`));
  });
  return list as Stage[] | undefined;
}

function level(value: unknown, path: string, errors: string[]): Level {
  if (value === undefined || value === null || value === '') errors.push(`${path}: Required value`);
  else if (!(LEVELS as readonly unknown[]).includes(value)) errors.push(unsupported(path, value, LEVELS));
  return value as Level;
}

function nonResourceURLs(value: unknown, path: string, errors: string[]): string[] | undefined {
  const urls = stringList(value, path, errors);
  urls?.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/'))
      errors.push(invalid(`${path}[${i}]`, url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*'))
      errors.push(
        invalid(`${path}[${i}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"),
      );
  });
  return urls;
}

function groupResources(value: unknown, path: string, errors: string[]): GroupResources[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    errors.push(invalid(path, value, 'must be a list'));
    return undefined;
  }
  return value.map((entry, i) => {
    if (!isRecord(entry)) {
      errors.push(invalid(`${path}[${i}]`, entry, 'must be an object'));
      return {};
    }
    const group = entry.group ?? '';
    if (typeof group !== 'string') errors.push(invalid(`${path}.group`, group, 'must be a string'));
    // kube's paths here lack the index (`rules[0].resources.group`), as its validation writes them.
    else if (group !== '' && dns1123SubdomainErrors(group).length > 0) {
      errors.push(invalid(`${path}.group`, group, dns1123SubdomainErrors(group).join(',')));
    }
    const resources = stringList(entry.resources, `${path}[${i}].resources`, errors);
    const resourceNames = stringList(entry.resourceNames, `${path}[${i}].resourceNames`, errors);
    if (resourceNames?.length && !resources?.length)
      errors.push(
        invalid(`${path}.resourceNames`, resourceNames, 'using resourceNames requires at least one resource'),
      );
    return { group: typeof group === 'string' ? group : '', resources, resourceNames };
  });
}

function rule(value: unknown, path: string, errors: string[]): PolicyRule {
  if (!isRecord(value)) {
    errors.push(invalid(path, value, 'must be an object'));
    return { level: 'None' };
  }
  const r: PolicyRule = {
    level: level(value.level, `${path}.level`, errors),
    users: stringList(value.users, `${path}.users`, errors),
    userGroups: stringList(value.userGroups, `${path}.userGroups`, errors),
    verbs: stringList(value.verbs, `${path}.verbs`, errors),
    nonResourceURLs: nonResourceURLs(value.nonResourceURLs, `${path}.nonResourceURLs`, errors),
    resources: groupResources(value.resources, `${path}.resources`, errors),
    namespaces: stringList(value.namespaces, `${path}.namespaces`, errors),
    omitStages: stages(value.omitStages, `${path}.omitStages`, errors),
    omitManagedFields: optionalBool(value.omitManagedFields, `${path}.omitManagedFields`, errors),
  };
  if (r.nonResourceURLs?.length && (r.resources?.length || r.namespaces?.length)) {
    errors.push(
      invalid(
        `${path}.nonResourceURLs`,
        r.nonResourceURLs,
        'rules cannot apply to both regular resources and non-resource URLs',
      ),
    );
  }
  return r;
}

/** Checks a decoded policy document; throws one Error listing every field error (kube's aggregate). */
export function parsePolicy(document: unknown): Policy {
  const errors: string[] = [];
  if (!isRecord(document)) throw new Error('failed decoding: the audit policy must be an object');
  if (!API_VERSIONS.includes(document.apiVersion as string))
    errors.push(unsupported('apiVersion', document.apiVersion ?? '', API_VERSIONS));
  if (document.kind !== 'Policy') errors.push(unsupported('kind', document.kind ?? '', ['Policy']));
  let rules: PolicyRule[] = [];
  if (document.rules !== undefined && document.rules !== null && !Array.isArray(document.rules))
    errors.push(invalid('rules', document.rules, 'must be a list'));
  else rules = ((document.rules as unknown[] | undefined) ?? []).map((r, i) => rule(r, `rules[${i}]`, errors));
  const policy: Policy = {
    apiVersion: document.apiVersion as string,
    kind: 'Policy',
    rules,
    omitStages: stages(document.omitStages, 'omitStages', errors),
    omitManagedFields: optionalBool(document.omitManagedFields, 'omitManagedFields', errors),
  };
  if (errors.length > 0) throw new Error(aggregate(errors));
  if (rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return policy;
}

/** Reads and checks a policy file (YAML or JSON), with the file named in any error, as kube-apiserver does at startup. */
export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read audit policy file ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message}: from file ${path}`);
  }
  try {
    return parsePolicy(document);
  } catch (err) {
    throw new Error(`${(err as Error).message}: from file ${path}`);
  }
}

/** kube's policy checker over a checked policy. */
export class PolicyEvaluator {
  private readonly rules: { rule: PolicyRule; decision: AuditDecision }[];
  private readonly fallback: AuditDecision;

  constructor(policy: Policy) {
    const policyStages = policy.omitStages ?? [];
    this.rules = policy.rules.map((rule) => ({
      rule,
      decision: {
        level: rule.level,
        omitStages: new Set([...policyStages, ...(rule.omitStages ?? [])]),
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
      },
    }));
    this.fallback = {
      level: 'None',
      omitStages: new Set(policyStages),
      omitManagedFields: policy.omitManagedFields ?? false,
    };
  }

  evaluate(attributes: AuditAttributes): AuditDecision {
    for (const { rule, decision } of this.rules) {
      if (ruleMatches(rule, attributes)) return decision;
    }
    return this.fallback;
  }
}

/** A policy that records nothing. */
export const NO_POLICY = new PolicyEvaluator({ rules: [] });

export function ruleMatches(rule: PolicyRule, a: AuditAttributes): boolean {
  if (rule.users?.length && (!a.user || !rule.users.includes(a.user.username))) return false;
  if (rule.userGroups?.length && (!a.user || !a.user.groups.some((g) => rule.userGroups!.includes(g)))) return false;
  const verb = a.kind === 'resource' ? a.resource.verb : a.verb;
  if (rule.verbs?.length && !rule.verbs.includes(verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length)
    return a.kind === 'resource' && matchesResource(rule, a.resource);
  if (rule.nonResourceURLs?.length)
    return a.kind === 'path' && rule.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function matchesResource(rule: PolicyRule, r: ResourceAttributes): boolean {
  // Cluster-scoped resources have the empty namespace.
  if (rule.namespaces?.length && !rule.namespaces.includes(r.namespace)) return false;
  if (!rule.resources?.length) return true;
  const combined = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  return rule.resources.some((gr) => {
    if ((gr.group ?? '') !== r.group) return false;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(r.name)) return false;
    return gr.resources.some(
      (res) =>
        res === '*' ||
        res === combined ||
        (r.subresource !== '' && res.startsWith('*/') && res.slice(2) === r.subresource) ||
        (res.endsWith('/*') && res.slice(0, -2) === r.resource),
    );
  });
}
