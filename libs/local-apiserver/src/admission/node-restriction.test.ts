import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../registry/types.js';
import type { RequestContext } from '../server/context.js';
import type { Operation, WriteRequest } from '../server/pipeline.js';
import type { KubeObject, Storage } from '../storage/types.js';
import { forbiddenNodeLabels, nodeRestriction, nodeTokenRequestAdmission } from './node-restriction.js';

const stored = new Map<string, KubeObject>([
  ['/registry/core/nodes/n1', { metadata: { name: 'n1', uid: 'node-uid-1' } }],
  [
    '/registry/core/pods/default/mine',
    { metadata: { name: 'mine', namespace: 'default', uid: 'pod-uid-1' }, spec: { nodeName: 'n1' } },
  ],
  [
    '/registry/core/pods/default/theirs',
    { metadata: { name: 'theirs', namespace: 'default', uid: 'pod-uid-2' }, spec: { nodeName: 'n2' } },
  ],
]);
const storage = {
  get: async (key: string) => (stored.has(key) ? { object: stored.get(key)!, revision: 1 } : undefined),
} as unknown as Storage;
const admit = nodeRestriction(storage);
const node1 = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

function request(
  resource: string,
  group: string,
  operation: Operation,
  fields: Partial<WriteRequest> = {},
): WriteRequest {
  return {
    operation,
    definition: { group, resource } as ResourceDefinition,
    namespace: '',
    name: '',
    subresource: '',
    object: {},
    ctx: { user: node1 } as RequestContext,
    ...fields,
  };
}
async function message(r: WriteRequest): Promise<string | undefined> {
  try {
    await admit(r);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
const node = (name: string, labels: Record<string, string> = {}, taints?: KubeObject[]) => ({
  metadata: { name, labels },
  spec: taints ? { taints } : {},
});

describe('NodeRestriction', () => {
  it("limits a node to its own Node object, with kube's message", async () => {
    expect(
      await message(request('nodes', '', 'CREATE', { object: node('n1', { 'kubernetes.io/hostname': 'n1' }) })),
    ).toBeUndefined();
    expect(await message(request('nodes', '', 'CREATE', { object: node('n2') }))).toBe(
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    );
    expect(
      await message(request('nodes', '', 'UPDATE', { name: 'n2', object: node('n2'), oldObject: node('n2') })),
    ).toBe('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    expect(
      await message(
        request('nodes', '', 'UPDATE', {
          name: 'n1',
          subresource: 'status',
          object: node('n1'),
          oldObject: node('n1'),
        }),
      ),
    ).toBeUndefined();
    expect(
      await message(
        request('nodes', '', 'UPDATE', {
          name: 'n1',
          object: node('n1', {}, [{ key: 'x', effect: 'NoSchedule' }]),
          oldObject: node('n1'),
        }),
      ),
    ).toBe('nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
    // Other users are not restricted.
    expect(
      await message(
        request('nodes', '', 'CREATE', {
          object: node('n2', { 'node-role.kubernetes.io/master': '' }),
          ctx: { user: { username: 'admin', groups: ['system:masters'] } } as RequestContext,
        }),
      ),
    ).toBeUndefined();
  });

  it("allows the kubelet's labels and refuses other kubernetes.io / k8s.io and node-restriction.kubernetes.io labels", async () => {
    const allowed = {
      'kubernetes.io/hostname': 'n1',
      'kubernetes.io/os': 'linux',
      'beta.kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/zone': 'z',
      'node.kubernetes.io/instance-type': 'local',
      'kubelet.kubernetes.io/x': 'y',
      'foo.node.kubernetes.io/y': 'z',
      'example.com/team': 'a',
    };
    expect(forbiddenNodeLabels(allowed)).toEqual([]);
    expect(
      forbiddenNodeLabels({
        'node-role.kubernetes.io/worker': '',
        'node-restriction.kubernetes.io/pool': 'a',
        'foo.k8s.io/x': 'y',
        'x.node-restriction.kubernetes.io/y': 'z',
      }),
    ).toEqual([
      'foo.k8s.io/x',
      'node-restriction.kubernetes.io/pool',
      'node-role.kubernetes.io/worker',
      'x.node-restriction.kubernetes.io/y',
    ]);
    // Unchanged labels do not count on update.
    expect(
      forbiddenNodeLabels({ 'node-role.kubernetes.io/worker': '' }, { 'node-role.kubernetes.io/worker': '' }),
    ).toEqual([]);
    expect(
      await message(
        request('nodes', '', 'CREATE', { object: node('n1', { 'node-restriction.kubernetes.io/pool': 'a' }) }),
      ),
    ).toBe(
      'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/pool',
    );
    expect(
      await message(
        request('nodes', '', 'UPDATE', {
          name: 'n1',
          object: node('n1', { 'node-role.kubernetes.io/worker': '' }),
          oldObject: node('n1'),
        }),
      ),
    ).toBe('nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/worker');
  });

  it('limits leases to its own in kube-node-lease', async () => {
    const lease = (name: string) => ({ metadata: { name } });
    expect(
      await message(
        request('leases', 'coordination.k8s.io', 'CREATE', { namespace: 'kube-node-lease', object: lease('n1') }),
      ),
    ).toBeUndefined();
    expect(
      await message(
        request('leases', 'coordination.k8s.io', 'CREATE', { namespace: 'kube-node-lease', object: lease('n2') }),
      ),
    ).toBe(
      'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
    );
    expect(
      await message(
        request('leases', 'coordination.k8s.io', 'UPDATE', { namespace: 'default', name: 'n1', object: lease('n1') }),
      ),
    ).toBe(
      'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace',
    );
  });

  it('limits pods to mirror pods bound to itself, and status and deletion to its pods', async () => {
    const mirror = (fields: KubeObject = {}) => ({
      metadata: {
        name: 'static-n1',
        annotations: { 'kubernetes.io/config.mirror': 'x' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid-1', controller: true }],
      },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] },
      ...fields,
    });
    expect(await message(request('pods', '', 'CREATE', { namespace: 'default', object: mirror() }))).toBeUndefined();
    expect(
      await message(
        request('pods', '', 'CREATE', {
          namespace: 'default',
          object: { metadata: { name: 'p' }, spec: { nodeName: 'n1' } },
        }),
      ),
    ).toBe(
      'pods "p" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
    );
    expect(
      await message(
        request('pods', '', 'CREATE', { namespace: 'default', object: mirror({ spec: { nodeName: 'n2' } }) }),
      ),
    ).toBe('pods "static-n1" is forbidden: node "n1" can only create pods with spec.nodeName set to itself');
    expect(
      await message(
        request('pods', '', 'CREATE', {
          namespace: 'default',
          object: mirror({ spec: { nodeName: 'n1', volumes: [{ name: 's', secret: { secretName: 's' } }] } }),
        }),
      ),
    ).toBe('pods "static-n1" is forbidden: node "n1" can not create pods that reference secrets');
    const theirs = stored.get('/registry/core/pods/default/theirs')!;
    const mine = stored.get('/registry/core/pods/default/mine')!;
    expect(
      await message(
        request('pods', '', 'UPDATE', {
          namespace: 'default',
          name: 'theirs',
          subresource: 'status',
          object: theirs,
          oldObject: theirs,
        }),
      ),
    ).toBe(
      'pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
    );
    expect(
      await message(
        request('pods', '', 'UPDATE', {
          namespace: 'default',
          name: 'mine',
          subresource: 'status',
          object: mine,
          oldObject: mine,
        }),
      ),
    ).toBeUndefined();
    expect(await message(request('pods', '', 'DELETE', { namespace: 'default', name: 'theirs', object: theirs }))).toBe(
      'pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
    );
    expect(
      await message(request('pods', '', 'DELETE', { namespace: 'default', name: 'mine', object: mine })),
    ).toBeUndefined();
  });

  it('lets a node request tokens only bound to a pod on itself', async () => {
    const tokens = nodeTokenRequestAdmission(storage);
    const body = (ref?: KubeObject) => ({ spec: { boundObjectRef: ref } });
    await expect(
      tokens(node1, 'default', 'default', body({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid-1' })),
    ).resolves.toBeUndefined();
    await expect(tokens(node1, 'default', 'default', body())).rejects.toThrow(
      'serviceaccounts "default" is forbidden: node requested token not bound to a pod',
    );
    await expect(
      tokens(node1, 'default', 'default', body({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'pod-uid-2' })),
    ).rejects.toThrow('node requested token bound to a pod scheduled on a different node');
    await expect(tokens({ username: 'alice', groups: [] }, 'default', 'default', body())).resolves.toBeUndefined();
  });
});
