import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicyFile, parsePolicy, PolicyEvaluator, ruleMatches } from './policy.js';
import type { AuditAttributes, PolicyRule } from './types.js';

const alice = { username: 'alice', groups: ['devs', 'system:authenticated'] };

function resource(
  overrides: Partial<{
    verb: string;
    namespace: string;
    group: string;
    resource: string;
    subresource: string;
    name: string;
  }> = {},
  user = alice,
): AuditAttributes {
  return {
    user,
    kind: 'resource',
    resource: {
      verb: 'get',
      namespace: 'default',
      group: '',
      version: 'v1',
      resource: 'pods',
      subresource: '',
      name: 'p',
      ...overrides,
    },
  };
}

const path = (p: string, verb = 'get'): AuditAttributes => ({ user: alice, kind: 'path', verb, path: p });
const rule = (r: Omit<PolicyRule, 'level'>): PolicyRule => ({ level: 'Metadata', ...r });

describe('audit policy rule matching', () => {
  const cases: { field: string; rule: PolicyRule; matches: AuditAttributes; misses: AuditAttributes }[] = [
    {
      field: 'users',
      rule: rule({ users: ['alice'] }),
      matches: resource(),
      misses: resource({}, { username: 'bob', groups: ['devs'] }),
    },
    {
      field: 'userGroups',
      rule: rule({ userGroups: ['devs'] }),
      matches: resource(),
      misses: resource({}, { username: 'alice', groups: ['ops'] }),
    },
    {
      field: 'verbs',
      rule: rule({ verbs: ['get', 'list'] }),
      matches: resource({ verb: 'list' }),
      misses: resource({ verb: 'delete' }),
    },
    {
      field: 'namespaces',
      rule: rule({ namespaces: ['kube-system'] }),
      matches: resource({ namespace: 'kube-system' }),
      misses: resource({ namespace: 'default' }),
    },
    {
      field: 'namespaces "" (cluster scope)',
      rule: rule({ namespaces: [''] }),
      matches: resource({ namespace: '', resource: 'nodes' }),
      misses: resource(),
    },
    {
      field: 'resources (core group)',
      rule: rule({ resources: [{ group: '', resources: ['pods'] }] }),
      matches: resource(),
      misses: resource({ resource: 'secrets' }),
    },
    {
      field: 'resources (group)',
      rule: rule({ resources: [{ group: 'apps', resources: ['deployments'] }] }),
      matches: resource({ group: 'apps', resource: 'deployments' }),
      misses: resource({ resource: 'deployments' }),
    },
    {
      field: 'resources (whole group)',
      rule: rule({ resources: [{ group: 'apps' }] }),
      matches: resource({ group: 'apps', resource: 'statefulsets' }),
      misses: resource(),
    },
    {
      field: 'resources pods/log',
      rule: rule({ resources: [{ resources: ['pods/log'] }] }),
      matches: resource({ subresource: 'log' }),
      misses: resource(),
    },
    {
      field: 'resources pods does not cover pods/status',
      rule: rule({ resources: [{ resources: ['pods'] }] }),
      matches: resource(),
      misses: resource({ subresource: 'status' }),
    },
    {
      field: 'resources pods/*',
      rule: rule({ resources: [{ resources: ['pods/*'] }] }),
      matches: resource({ subresource: 'exec' }),
      misses: resource({ resource: 'services', subresource: 'proxy' }),
    },
    {
      field: 'resources */status',
      rule: rule({ resources: [{ resources: ['*/status'] }] }),
      matches: resource({ resource: 'nodes', subresource: 'status' }),
      misses: resource({ resource: 'nodes' }),
    },
    {
      field: 'resources *',
      rule: rule({ resources: [{ resources: ['*'] }] }),
      matches: resource({ subresource: 'status' }),
      misses: resource({ group: 'apps', resource: 'deployments' }),
    },
    {
      field: 'resourceNames',
      rule: rule({ resources: [{ resources: ['configmaps'], resourceNames: ['cfg'] }] }),
      matches: resource({ resource: 'configmaps', name: 'cfg' }),
      misses: resource({ resource: 'configmaps', name: 'other' }),
    },
    {
      field: 'nonResourceURLs exact',
      rule: rule({ nonResourceURLs: ['/healthz'] }),
      matches: path('/healthz'),
      misses: path('/healthz/ping'),
    },
    {
      field: 'nonResourceURLs prefix',
      rule: rule({ nonResourceURLs: ['/healthz*'] }),
      matches: path('/healthz/etcd'),
      misses: path('/livez'),
    },
    {
      field: 'nonResourceURLs never a resource',
      rule: rule({ nonResourceURLs: ['*'] }),
      matches: path('/version'),
      misses: resource(),
    },
    {
      field: 'resources never a path',
      rule: rule({ resources: [{ resources: ['*'] }] }),
      matches: resource(),
      misses: path('/api'),
    },
  ];
  for (const c of cases) {
    it(`${c.field}: matches and misses`, () => {
      expect(ruleMatches(c.rule, c.matches)).toBe(true);
      expect(ruleMatches(c.rule, c.misses)).toBe(false);
    });
  }

  it('a rule with users or groups never matches a request without a user (failed authentication)', () => {
    expect(ruleMatches(rule({ users: ['alice'] }), { ...resource(), user: undefined })).toBe(false);
    expect(ruleMatches(rule({ userGroups: ['devs'] }), { ...resource(), user: undefined })).toBe(false);
    expect(ruleMatches(rule({}), { ...resource(), user: undefined })).toBe(true);
  });

  it('takes the first matching rule; no match is None', () => {
    const evaluator = new PolicyEvaluator(
      parsePolicy({
        apiVersion: 'audit.k8s.io/v1',
        kind: 'Policy',
        rules: [
          { level: 'None', namespaces: ['kube-system'] },
          { level: 'Metadata', resources: [{ resources: ['secrets'] }] },
          { level: 'RequestResponse', resources: [{ resources: ['secrets', 'configmaps'] }] },
        ],
      }),
    );
    expect(evaluator.evaluate(resource({ resource: 'secrets', namespace: 'kube-system' })).level).toBe('None');
    expect(evaluator.evaluate(resource({ resource: 'secrets' })).level).toBe('Metadata');
    expect(evaluator.evaluate(resource({ resource: 'configmaps' })).level).toBe('RequestResponse');
    expect(evaluator.evaluate(resource({ resource: 'pods' })).level).toBe('None');
  });

  it('joins the policy’s and the rule’s omitStages, and lets the rule’s omitManagedFields override the policy’s', () => {
    const evaluator = new PolicyEvaluator(
      parsePolicy({
        apiVersion: 'audit.k8s.io/v1',
        kind: 'Policy',
        omitStages: ['RequestReceived'],
        omitManagedFields: true,
        rules: [
          { level: 'Request', verbs: ['watch'], omitStages: ['ResponseStarted'], omitManagedFields: false },
          { level: 'Metadata' },
        ],
      }),
    );
    const watch = evaluator.evaluate(resource({ verb: 'watch' }));
    expect([...watch.omitStages].sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(watch.omitManagedFields).toBe(false);
    const get = evaluator.evaluate(resource());
    expect([...get.omitStages]).toEqual(['RequestReceived']);
    expect(get.omitManagedFields).toBe(true);
  });
});

describe('audit policy validation', () => {
  const valid = { apiVersion: 'audit.k8s.io/v1', kind: 'Policy' };

  it('accepts v1 and v1beta1 policies', () => {
    expect(parsePolicy({ ...valid, rules: [{ level: 'None' }] }).rules).toHaveLength(1);
    expect(
      parsePolicy({ ...valid, apiVersion: 'audit.k8s.io/v1beta1', rules: [{ level: 'Metadata' }] }).rules[0].level,
    ).toBe('Metadata');
  });

  it('names the field of each error, as kube does', () => {
    expect(() =>
      parsePolicy({ ...valid, rules: [{ level: 'None' }, { level: 'Metadata' }, { level: 'Everything' }] }),
    ).toThrow(
      'rules[2].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
    expect(() => parsePolicy({ ...valid, rules: [{}] })).toThrow('rules[0].level: Required value');
    expect(() => parsePolicy({ ...valid, rules: [{ level: 'None', nonResourceURLs: ['healthz'] }] })).toThrow(
      `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
    );
    expect(() => parsePolicy({ ...valid, rules: [{ level: 'None', nonResourceURLs: ['/a*b'] }] })).toThrow(
      `rules[0].nonResourceURLs[0]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule`,
    );
    expect(() =>
      parsePolicy({ ...valid, rules: [{ level: 'None', nonResourceURLs: ['/x'], namespaces: ['a'] }] }),
    ).toThrow(
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    );
    expect(() => parsePolicy({ ...valid, rules: [{ level: 'None', omitStages: ['Done'] }] })).toThrow(
      'rules[0].omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    );
    expect(() =>
      parsePolicy({ ...valid, rules: [{ level: 'None', resources: [{ group: 'rbac.authorization.k8s.io/v1' }] }] }),
    ).toThrow('rules[0].resources.group: Invalid value: "rbac.authorization.k8s.io/v1"');
    expect(() => parsePolicy({ ...valid, rules: [{ level: 'None', resources: [{ resourceNames: ['x'] }] }] })).toThrow(
      'rules[0].resources.resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource',
    );
  });

  it('lists several errors as kube’s aggregate, and refuses a policy without rules or of another kind', () => {
    expect(() => parsePolicy({ ...valid, rules: [{ level: 'x' }, {}] })).toThrow(
      /^\[rules\[0\]\.level: Unsupported value: "x": .*, rules\[1\]\.level: Required value\]$/,
    );
    expect(() => parsePolicy({ ...valid, rules: [] })).toThrow('loaded illegal policy with 0 rules');
    expect(() => parsePolicy({ apiVersion: 'v1', kind: 'ConfigMap', rules: [{ level: 'None' }] })).toThrow(
      'apiVersion: Unsupported value: "v1"',
    );
  });

  it('loads YAML files and names the file in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-policy-'));
    const good = join(dir, 'policy.yaml');
    await writeFile(
      good,
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  resources:\n  - group: ""\n    resources: ["secrets"]\n',
    );
    expect((await loadPolicyFile(good)).rules[0].resources).toEqual([
      { group: '', resources: ['secrets'], resourceNames: undefined },
    ]);
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({ ...valid, rules: [{ level: 'None' }, { level: 'None' }, { level: 'Everything' }] }),
    );
    await expect(loadPolicyFile(bad)).rejects.toThrow(
      `rules[2].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${bad}`,
    );
    await expect(loadPolicyFile(join(dir, 'missing.yaml'))).rejects.toThrow('failed to read audit policy file');
  });
});
