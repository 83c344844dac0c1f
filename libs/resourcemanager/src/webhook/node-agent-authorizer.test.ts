// Gardener's node-agent authorizer decisions, case by case, over the objects a cluster would hold (given as data).
import { describe, expect, it } from 'vitest';
import { authorizeNodeAgent, type NodeAgentReads } from './node-agent-authorizer.js';
import {
  decodeSubjectAccessReview,
  parseFieldSelector,
  type AuthorizationAttributes,
} from './subject-access-review.js';

const machine = 'machine-a';
const user = {
  name: `gardener.cloud:node-agent:machine:${machine}`,
  groups: ['gardener.cloud:node-agents', 'system:authenticated'],
};
const notFound = (what: string) => new Error(`${what} not found`);

/** A cluster with machine-a → node-a (OSC Secret osc-a), a pod on node-a, one on node-b, and two CSRs. */
const reads: NodeAgentReads = {
  async machine(ns, name) {
    if (ns !== 'shoot--a' || name !== machine) throw notFound(`machines.machine.sapcloud.io "${name}"`);
    return {
      labels: { node: 'node-a' },
      nodeTemplateLabels: { 'worker.gardener.cloud/gardener-node-agent-secret-name': 'osc-a' },
    };
  },
  async node(name) {
    return name === machine
      ? { labels: { 'worker.gardener.cloud/gardener-node-agent-secret-name': 'osc-node' } }
      : undefined;
  },
  async podNodeName(ns, name) {
    const pods: Record<string, string> = { 'kube-system/mine': 'node-a', 'kube-system/other': 'node-b' };
    if (!(`${ns}/${name}` in pods)) throw notFound(`pods "${name}"`);
    return pods[`${ns}/${name}`]!;
  },
  async csrUsername(name) {
    return name === 'csr-own' ? user.name : 'gardener.cloud:node-agent:machine:other';
  },
  async secretNamesWithLabel() {
    return ['osc-pool-1', 'osc-pool-2'];
  },
};

function attrs(resource: string, verb: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  const [group, res] = resource.includes('/') ? (resource.split('/') as [string, string]) : ['', resource];
  return {
    user,
    resourceRequest: true,
    verb,
    namespace: '',
    group,
    version: 'v1',
    resource: res,
    subresource: '',
    name: '',
    path: '',
    fieldSelector: [],
    ...extra,
  };
}

const withMachines = { machineNamespace: 'shoot--a', authorizeWithSelectors: false, reads };
const decide = (a: AuthorizationAttributes, o: Partial<typeof withMachines> = {}) =>
  authorizeNodeAgent(a, { ...withMachines, ...o });
const allowed = { decision: 'Allow', reason: '' };
const ks = { namespace: 'kube-system' };

describe('node-agent authorizer: identity', () => {
  it('has no opinion on other users, also without the node-agents group', async () => {
    expect(await decide(attrs('nodes', 'get', { user: { name: 'system:node:a', groups: ['system:nodes'] } }))).toEqual({
      decision: 'NoOpinion',
      reason: '',
    });
    expect(
      await decide(attrs('nodes', 'get', { user: { name: user.name, groups: ['system:authenticated'] } })),
    ).toEqual({ decision: 'NoOpinion', reason: '' });
  });

  it('denies a node-agent without machine name, non-resource requests and other resources', async () => {
    expect(
      await decide(attrs('nodes', 'get', { user: { ...user, name: 'gardener.cloud:node-agent:machine:' } })),
    ).toEqual({ decision: 'Deny', reason: '' });
    expect(await decide({ ...attrs('', 'get'), resourceRequest: false, path: '/healthz' })).toEqual({
      decision: 'Deny',
      reason: '',
    });
    expect(await decide(attrs('configmaps', 'get', ks))).toEqual({ decision: 'Deny', reason: '' });
    expect(await decide(attrs('apps/deployments', 'list'))).toEqual({ decision: 'Deny', reason: '' });
  });
});

describe('node-agent authorizer: resources', () => {
  const cases: [string, AuthorizationAttributes, { decision: string; reason: string }][] = [
    ['CSR create', attrs('certificates.k8s.io/certificatesigningrequests', 'create'), allowed],
    ['own CSR get', attrs('certificates.k8s.io/certificatesigningrequests', 'get', { name: 'csr-own' }), allowed],
    [
      'foreign CSR get',
      attrs('certificates.k8s.io/certificatesigningrequests', 'get', { name: 'csr-other' }),
      {
        decision: 'Deny',
        reason: `gardener-node-agent is only allowed to read or request CSRs for its own user "${user.name}"`,
      },
    ],
    [
      'CSR list',
      attrs('certificates.k8s.io/certificatesigningrequests', 'list'),
      { decision: 'Deny', reason: 'only the following verbs are allowed for this resource type: [get create]' },
    ],
    [
      'CSR approval',
      attrs('certificates.k8s.io/certificatesigningrequests', 'update', { subresource: 'approval', name: 'csr-own' }),
      { decision: 'Deny', reason: 'only the following subresources are allowed for this resource type: []' },
    ],
    ['core event create', attrs('events', 'create', { namespace: 'default' }), allowed],
    ['events.k8s.io patch', attrs('events.k8s.io/events', 'patch', ks), allowed],
    [
      'event delete',
      attrs('events', 'delete', ks),
      { decision: 'Deny', reason: 'only the following verbs are allowed for this resource type: [create patch]' },
    ],
    [
      'own lease update',
      attrs('coordination.k8s.io/leases', 'update', { ...ks, name: 'gardener-node-agent-node-a' }),
      allowed,
    ],
    ['lease create (any name)', attrs('coordination.k8s.io/leases', 'create', ks), allowed],
    [
      'foreign lease',
      attrs('coordination.k8s.io/leases', 'get', { ...ks, name: 'gardener-node-agent-node-b' }),
      {
        decision: 'Deny',
        reason:
          'this gardener-node-agent can only access lease "gardener-node-agent-node-a" in "kube-system" namespace',
      },
    ],
    [
      'own lease elsewhere',
      attrs('coordination.k8s.io/leases', 'create', { namespace: 'default' }),
      {
        decision: 'Deny',
        reason:
          'this gardener-node-agent can only access lease "gardener-node-agent-node-a" in "kube-system" namespace',
      },
    ],
    [
      'lease delete',
      attrs('coordination.k8s.io/leases', 'delete', ks),
      {
        decision: 'Deny',
        reason: 'only the following verbs are allowed for this resource type: [get list watch create update]',
      },
    ],
    ['node list', attrs('nodes', 'list'), allowed],
    ['node watch', attrs('nodes', 'watch'), allowed],
    ['own node patch', attrs('nodes', 'patch', { name: 'node-a' }), allowed],
    ['own node status', attrs('nodes', 'update', { name: 'node-a', subresource: 'status' }), allowed],
    [
      'foreign node',
      attrs('nodes', 'get', { name: 'node-b' }),
      { decision: 'Deny', reason: 'this gardener-node-agent can only access node "node-a"' },
    ],
    [
      'node delete',
      attrs('nodes', 'delete', { name: 'node-a' }),
      {
        decision: 'Deny',
        reason: 'only the following verbs are allowed for this resource type: [get list watch patch update]',
      },
    ],
    [
      'node proxy',
      attrs('nodes', 'get', { name: 'node-a', subresource: 'proxy' }),
      { decision: 'Deny', reason: 'only the following subresources are allowed for this resource type: [status]' },
    ],
    ['own OSC secret', attrs('secrets', 'get', { ...ks, name: 'osc-a' }), allowed],
    ['valitail secret', attrs('secrets', 'get', { ...ks, name: 'gardener-valitail' }), allowed],
    [
      'other secret',
      attrs('secrets', 'get', { ...ks, name: 'osc-b' }),
      {
        decision: 'Deny',
        reason: 'gardener-node-agent can only access secrets [gardener-valitail osc-a] in "kube-system" namespace',
      },
    ],
    [
      'OSC secret elsewhere',
      attrs('secrets', 'list', { namespace: 'default', name: 'osc-a' }),
      {
        decision: 'Deny',
        reason: 'gardener-node-agent can only access secrets [gardener-valitail osc-a] in "kube-system" namespace',
      },
    ],
    [
      'secret update',
      attrs('secrets', 'update', { ...ks, name: 'osc-a' }),
      { decision: 'Deny', reason: 'only the following verbs are allowed for this resource type: [get list watch]' },
    ],
    ['pod on own node', attrs('pods', 'get', { ...ks, name: 'mine' }), allowed],
    ['delete pod on own node', attrs('pods', 'delete', { ...ks, name: 'mine' }), allowed],
    [
      'pod on other node',
      attrs('pods', 'delete', { ...ks, name: 'other' }),
      { decision: 'Deny', reason: 'pod "kube-system/other" does not belong to node "node-a"' },
    ],
    ['pod list without selectors', attrs('pods', 'list'), allowed],
    [
      'pod create',
      attrs('pods', 'create', ks),
      {
        decision: 'Deny',
        reason: 'only the following verbs are allowed for this resource type: [get list watch delete]',
      },
    ],
  ];
  it.each(cases)('%s', async (_, a, expected) => {
    expect(await decide(a)).toEqual(expected);
  });

  it('denies everything that needs the node when the Machine names none', async () => {
    const noNode = { ...reads, machine: async () => ({ labels: {}, nodeTemplateLabels: {} }) };
    expect(await decide(attrs('nodes', 'get', { name: 'node-a' }), { reads: noNode })).toEqual({
      decision: 'Deny',
      reason: `no node for "${machine}" found`,
    });
    expect(await decide(attrs('nodes', 'list'), { reads: noNode })).toEqual(allowed);
  });

  it('fails (evaluation error, not a decision) when the Machine or a pod cannot be read', async () => {
    await expect(decide(attrs('nodes', 'get', { name: 'node-a' }), { machineNamespace: 'other' })).rejects.toThrow(
      `error getting machine "${machine}": machines.machine.sapcloud.io "${machine}" not found`,
    );
    await expect(decide(attrs('pods', 'get', { ...ks, name: 'missing' }))).rejects.toThrow(
      'error getting pod "kube-system/missing"',
    );
  });
});

describe('node-agent authorizer: authorizeWithSelectors', () => {
  const o = { authorizeWithSelectors: true };
  it('lists/watches pods only with spec.nodeName of its own node', async () => {
    expect(
      await decide(attrs('pods', 'list', { fieldSelector: parseFieldSelector('spec.nodeName=node-a') }), o),
    ).toEqual(allowed);
    expect(
      await decide(
        attrs('pods', 'watch', { fieldSelector: parseFieldSelector('metadata.name=x,spec.nodeName==node-a') }),
        o,
      ),
    ).toEqual(allowed);
    expect(
      await decide(attrs('pods', 'list', { fieldSelector: parseFieldSelector('spec.nodeName!=node-a') }), o),
    ).toEqual({ decision: 'Deny', reason: 'can only list/watch pods with spec.nodeName=node-a field selector' });
    expect(await decide(attrs('pods', 'list'), o)).toEqual({
      decision: 'Deny',
      reason: 'can only list/watch pods with spec.nodeName=node-a field selector',
    });
    expect(await decide(attrs('pods', 'watch', { ...ks, name: 'mine' }), o)).toEqual(allowed);
    await expect(
      decide(
        attrs('pods', 'list', { fieldSelector: [], fieldSelectorError: 'fieldSelectors do not yet support Exists' }),
        o,
      ),
    ).rejects.toThrow('error parsing field selector');
  });
});

describe('node-agent authorizer without machine namespace (machine name = node name)', () => {
  const o = { machineNamespace: undefined };
  it('takes the Node of the same name, its OSC label, and all OSC Secrets while the Node does not exist', async () => {
    expect(await decide(attrs('nodes', 'get', { name: machine }), o)).toEqual(allowed);
    expect(await decide(attrs('secrets', 'get', { ...ks, name: 'osc-node' }), o)).toEqual(allowed);
    const bootstrapping = { ...user, name: 'gardener.cloud:node-agent:machine:new-node' };
    expect(await decide(attrs('secrets', 'get', { ...ks, name: 'osc-pool-2', user: bootstrapping }), o)).toEqual(
      allowed,
    );
    expect(await decide(attrs('secrets', 'get', { ...ks, name: 'other', user: bootstrapping }), o)).toEqual({
      decision: 'Deny',
      reason:
        'gardener-node-agent can only access secrets [gardener-valitail osc-pool-1 osc-pool-2] in "kube-system" namespace',
    });
    expect(await decide(attrs('nodes', 'get', { name: 'new-node', user: bootstrapping }), o)).toEqual({
      decision: 'Deny',
      reason: 'no node for "new-node" found',
    });
  });
});

describe('SubjectAccessReview decoding', () => {
  it('reads v1 groups and v1beta1 group, resource and non-resource attributes, raw and structured field selectors', () => {
    const v1 = decodeSubjectAccessReview(
      JSON.stringify({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: 'u',
          groups: ['g'],
          resourceAttributes: { verb: 'list', resource: 'pods', fieldSelector: { rawSelector: 'spec.nodeName=n\\,x' } },
        },
      }),
    );
    expect(v1.attributes).toMatchObject({
      user: { name: 'u', groups: ['g'] },
      resourceRequest: true,
      verb: 'list',
      resource: 'pods',
      fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'n,x' }],
    });
    const beta = decodeSubjectAccessReview(
      JSON.stringify({
        apiVersion: 'authorization.k8s.io/v1beta1',
        kind: 'SubjectAccessReview',
        spec: { user: 'u', group: ['g'], nonResourceAttributes: { path: '/healthz', verb: 'get' } },
      }),
    );
    expect(beta).toMatchObject({
      apiVersion: 'authorization.k8s.io/v1beta1',
      attributes: { user: { groups: ['g'] }, resourceRequest: false, path: '/healthz' },
    });
    const structured = decodeSubjectAccessReview(
      JSON.stringify({
        spec: {
          resourceAttributes: {
            fieldSelector: {
              requirements: [
                { key: 'spec.nodeName', operator: 'In', values: ['n'] },
                { key: 'a', operator: 'Exists' },
              ],
            },
          },
        },
      }),
    );
    expect(structured.attributes).toMatchObject({
      fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'n' }],
      fieldSelectorError: 'fieldSelectors do not yet support Exists',
    });
    expect(() => decodeSubjectAccessReview('{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1"}')).toThrow(
      /expected a SubjectAccessReview/,
    );
    expect(() => parseFieldSelector('spec.nodeName')).toThrow(/invalid selector/);
  });
});
