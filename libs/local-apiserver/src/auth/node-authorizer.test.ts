import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../storage/types.js';
import type { Attributes, ResourceAttributes } from './attributes.js';
import { AuthorizerChain } from './authorizer.js';
import { NodeAuthorizer } from './node-authorizer.js';
import { hasPathFrom, type GraphSource, type VertexType } from './node-graph.js';

const pod = (name: string, nodeName: string, spec: KubeObject = {}, namespace = 'default'): [string, KubeObject] => [
  `/registry/core/pods/${namespace}/${name}`,
  {
    metadata: { name, namespace, uid: `uid-${name}` },
    spec: { nodeName, serviceAccountName: 'default', containers: [], ...spec },
  },
];

const objects = new Map<string, KubeObject>([
  pod('web', 'n1', {
    serviceAccountName: 'web-sa',
    imagePullSecrets: [{ name: 'pull' }],
    containers: [
      {
        name: 'c',
        envFrom: [{ secretRef: { name: 'env-all' } }],
        env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'settings', key: 'k' } } }],
      },
    ],
    volumes: [
      { name: 'creds', secret: { secretName: 'creds' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
      {
        name: 'api',
        projected: {
          sources: [{ serviceAccountToken: { path: 'token' } }, { configMap: { name: 'kube-root-ca.crt' } }],
        },
      },
    ],
  }),
  pod('db', 'n2', { volumes: [{ name: 'other', secret: { secretName: 'other-creds' } }] }),
  [
    '/registry/core/persistentvolumeclaims/default/data',
    { metadata: { name: 'data', namespace: 'default' }, spec: { volumeName: 'pv-data' } },
  ],
  [
    '/registry/core/persistentvolumes/pv-data',
    {
      metadata: { name: 'pv-data' },
      spec: { csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-creds', namespace: 'storage' } } },
    },
  ],
]);
const source: GraphSource = { list: (prefix) => [...objects].filter(([k]) => k.startsWith(prefix)).map(([, o]) => o) };
const graph = {
  hasPathFrom: (node: string, type: VertexType, ns: string, name: string) => hasPathFrom(source, node, type, ns, name),
};
const chain = new AuthorizerChain([new NodeAuthorizer(graph)]);

const node1 = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
function ask(
  verb: string,
  resource: string,
  r: Partial<ResourceAttributes> = {},
  user = node1,
): Promise<{ allowed: boolean; reason: string }> {
  const a: Attributes = {
    user,
    kind: 'resource',
    resource: { verb, resource, namespace: 'default', group: '', version: 'v1', subresource: '', name: '', ...r },
  };
  return chain.authorize(a);
}

describe('Node authorizer: the graph', () => {
  it('allows reading the secrets, configmaps, PVCs and PVs related to a pod on the node', async () => {
    for (const name of ['creds', 'pull', 'env-all'])
      expect((await ask('get', 'secrets', { name })).allowed, name).toBe(true);
    expect((await ask('get', 'configmaps', { name: 'settings' })).allowed).toBe(true);
    expect((await ask('get', 'configmaps', { name: 'kube-root-ca.crt' })).allowed).toBe(true);
    expect((await ask('get', 'persistentvolumeclaims', { name: 'data' })).allowed).toBe(true);
    expect((await ask('get', 'persistentvolumes', { name: 'pv-data', namespace: '' })).allowed).toBe(true);
    expect((await ask('get', 'secrets', { name: 'csi-creds', namespace: 'storage' })).allowed).toBe(true);
    expect((await ask('watch', 'secrets', { fieldSelector: 'metadata.name=creds' })).allowed).toBe(true);
  });

  it("denies a secret of a pod on another node and an unrelated secret, with kube's reason", async () => {
    expect(await ask('get', 'secrets', { name: 'other-creds' })).toEqual({
      allowed: false,
      reason: "no relationship found between node 'n1' and this object",
    });
    expect((await ask('get', 'secrets', { name: 'unrelated' })).allowed).toBe(false);
    expect((await ask('get', 'secrets', { name: 'creds', namespace: 'kube-system' })).allowed).toBe(false);
    expect(await ask('list', 'secrets')).toEqual({ allowed: false, reason: 'No Object name found' });
    expect(await ask('update', 'secrets', { name: 'creds' })).toEqual({
      allowed: false,
      reason: 'can only read resources of this type',
    });
    expect(
      (await ask('get', 'secrets', { name: 'other-creds' }, { username: 'system:node:n2', groups: ['system:nodes'] }))
        .allowed,
    ).toBe(true);
  });

  it("creates tokens only for the service accounts of the node's pods", async () => {
    expect((await ask('create', 'serviceaccounts', { name: 'web-sa', subresource: 'token' })).allowed).toBe(true);
    expect((await ask('create', 'serviceaccounts', { name: 'default', subresource: 'token' })).allowed).toBe(false);
    expect((await ask('get', 'serviceaccounts', { name: 'web-sa' })).reason).toBe(
      'can only create tokens for individual service accounts',
    );
  });
});

describe('Node authorizer: own objects and static rules', () => {
  it('allows its own Node and Lease only', async () => {
    expect((await ask('get', 'nodes', { name: 'n1', namespace: '' })).allowed).toBe(true);
    expect(await ask('get', 'nodes', { name: 'n2', namespace: '' })).toEqual({
      allowed: false,
      reason: "node 'n1' cannot read 'n2', only its own Node object",
    });
    expect((await ask('list', 'nodes', { namespace: '' })).reason).toBe(
      "node 'n1' cannot read all nodes, only its own Node object",
    );
    expect((await ask('patch', 'nodes', { name: 'n1', namespace: '', subresource: 'status' })).allowed).toBe(true);
    const lease = { group: 'coordination.k8s.io', namespace: 'kube-node-lease' };
    expect((await ask('update', 'leases', { ...lease, name: 'n1' })).allowed).toBe(true);
    expect(await ask('update', 'leases', { ...lease, name: 'n2' })).toEqual({
      allowed: false,
      reason: 'can only access node lease with the same name as the requesting node',
    });
    expect((await ask('get', 'leases', { ...lease, namespace: 'default', name: 'n1' })).reason).toBe(
      'can only access leases in the "kube-node-lease" system namespace',
    );
  });

  it('lists pods only with its spec.nodeName field selector and gets pods bound to it', async () => {
    expect((await ask('watch', 'pods', { namespace: '', fieldSelector: 'spec.nodeName=n1' })).allowed).toBe(true);
    expect((await ask('list', 'pods', { namespace: '', fieldSelector: 'spec.nodeName=n2' })).reason).toBe(
      'can only list/watch pods with spec.nodeName field selector',
    );
    expect((await ask('get', 'pods', { name: 'web' })).allowed).toBe(true);
    expect((await ask('get', 'pods', { name: 'db' })).allowed).toBe(false);
    expect((await ask('patch', 'pods', { name: 'db', subresource: 'status' })).allowed).toBe(true);
  });

  it("grants NodeRules' general permissions and has no opinion on other users and other requests", async () => {
    expect(
      (await ask('create', 'certificatesigningrequests', { group: 'certificates.k8s.io', namespace: '' })).allowed,
    ).toBe(true);
    expect((await ask('create', 'events')).allowed).toBe(true);
    expect((await ask('list', 'services')).allowed).toBe(true);
    expect(await ask('list', 'deployments', { group: 'apps' })).toEqual({ allowed: false, reason: '' });
    expect(
      (await ask('get', 'secrets', { name: 'creds' }, { username: 'system:node:n1', groups: ['system:authenticated'] }))
        .allowed,
    ).toBe(false);
    expect(
      (await ask('get', 'secrets', { name: 'creds' }, { username: 'alice', groups: ['system:nodes'] })).reason,
    ).toBe('');
  });
});
