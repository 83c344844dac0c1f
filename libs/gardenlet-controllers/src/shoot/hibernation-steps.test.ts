import { describe, expect, it } from 'vitest';
import {
  ApiError,
  type Client,
  type Kind,
  type KubernetesObject,
  type ObjectKey,
} from '@gardener-ts/controller-runtime';
import { exampleValues } from '../component/testdata/fixtures.js';
import {
  hibernateControlPlane,
  hibernationPlan,
  notHibernatedYet,
  replicasWhileHibernating,
  withReplicasWhileHibernating,
  type HibernationDeps,
} from './hibernation-steps.js';

const hibernated = () => exampleValues((shoot) => (shoot.spec.hibernation = { enabled: true }));
const wait = { interval: 1, timeout: 2_000 };

/**
 * A seed holding the control plane of the example shoot: Deployments and the StatefulSets of the Etcds at 1 replica.
 * A controller lag is played by `lag`: the status follows a scale-down only after that many reads.
 */
function fakeSeed(lag = 2) {
  const namespace = hibernated().namespace;
  const objects = new Map<string, { spec: { replicas: number }; status: { replicas: number }; reads: number }>();
  const key = (kind: string, name: string) => `${kind}/${name}`;
  for (const name of ['gardener-resource-manager', 'kube-controller-manager', 'kube-scheduler', 'kube-apiserver'])
    objects.set(key('Deployment', name), { spec: { replicas: 1 }, status: { replicas: 1 }, reads: 0 });
  for (const name of ['etcd-main', 'etcd-events']) {
    objects.set(key('Etcd', name), { spec: { replicas: 1 }, status: { replicas: 1 }, reads: 0 });
    objects.set(key('StatefulSet', name), { spec: { replicas: 1 }, status: { replicas: 1 }, reads: 0 });
  }
  const patches: string[] = [];
  const notFound = () => new ApiError(404, 'NotFound', 'not found');
  const seed: HibernationDeps['seed'] = {
    get: (async (kind: Kind, k: ObjectKey) => {
      expect(k.namespace).toBe(namespace);
      const obj = objects.get(key(kind.kind, k.name));
      if (!obj) throw notFound();
      if (obj.status.replicas !== obj.spec.replicas && ++obj.reads >= lag) obj.status.replicas = obj.spec.replicas;
      return { metadata: { name: k.name, namespace }, ...structuredClone(obj) } as KubernetesObject;
    }) as Client['get'],
    list: (async () => ({ items: [] })) as unknown as Client['list'],
    patch: (async (
      kind: Kind,
      k: ObjectKey,
      patch: { patch: { metadata?: { annotations?: Record<string, string> }; spec: { replicas: number } } },
    ) => {
      const obj = objects.get(key(kind.kind, k.name));
      if (!obj) throw notFound();
      const operation = patch.patch.metadata?.annotations?.['gardener.cloud/operation'];
      patches.push(`${kind.kind} ${k.name}=${patch.patch.spec.replicas}${operation ? ` (${operation})` : ''}`);
      obj.spec.replicas = patch.patch.spec.replicas;
      // The etcd controller carries the Etcd's replicas to its StatefulSet.
      if (kind.kind === 'Etcd') objects.get(key('StatefulSet', k.name))!.spec.replicas = obj.spec.replicas;
      return {} as KubernetesObject;
    }) as unknown as Client['patch'],
  };
  return { seed, patches, objects, key };
}

describe('hibernationPlan', () => {
  it("scales the controllers before the API server and etcd last, to the etcd component's hibernated replicas", () => {
    expect(hibernationPlan(hibernated())).toEqual({
      deployments: ['gardener-resource-manager', 'kube-controller-manager', 'kube-scheduler', 'kube-apiserver'],
      etcds: [
        { name: 'etcd-main', replicas: 0 },
        { name: 'etcd-events', replicas: 0 },
      ],
    });
  });

  it('refuses a shoot that is not to be hibernated', () => {
    expect(() => hibernationPlan(exampleValues())).toThrow(/spec\.hibernation\.enabled/);
  });
});

describe('notHibernatedYet', () => {
  it('names what still runs and accepts missing workloads', () => {
    expect(notHibernatedYet([{ name: 'a', desired: 0, current: 0 }, { name: 'gone' }])).toBeUndefined();
    expect(
      notHibernatedYet([
        { name: 'a', desired: 0, current: 1 },
        { name: 'b', desired: 1, current: 0 },
      ]),
    ).toBe('still running: a (1 replicas), b (0 replicas)');
  });
});

describe('hibernateControlPlane', () => {
  it('scales everything to zero in order and returns only once no replica is left', async () => {
    const { seed, patches, objects, key } = fakeSeed();
    await hibernateControlPlane({ seed, values: hibernated(), wait }, new AbortController().signal);
    expect(patches).toEqual([
      'Deployment gardener-resource-manager=0',
      'Deployment kube-controller-manager=0',
      'Deployment kube-scheduler=0',
      'Deployment kube-apiserver=0',
      'Etcd etcd-main=0 (reconcile)',
      'Etcd etcd-events=0 (reconcile)',
    ]);
    for (const [name, obj] of objects) if (!name.startsWith('Etcd/')) expect(obj.status.replicas).toBe(0);
    expect(objects.get(key('StatefulSet', 'etcd-main'))!.spec.replicas).toBe(0);
  });

  it('tolerates a control plane that is partly gone, and fails naming what does not scale down', async () => {
    const { seed, objects, key } = fakeSeed(Number.POSITIVE_INFINITY);
    objects.delete(key('Deployment', 'kube-scheduler'));
    await expect(
      hibernateControlPlane(
        { seed, values: hibernated(), wait: { interval: 1, timeout: 20 } },
        new AbortController().signal,
      ),
    ).rejects.toThrow(/still running: Deployment gardener-resource-manager \(1 replicas\)/);
  });

  it('waits for the Nodes of the shoot to be gone before scaling anything', async () => {
    const { seed, patches } = fakeSeed();
    let nodes = 2;
    const shoot = {
      list: async () => {
        const items = Array.from({ length: nodes }, (_, i) => ({ metadata: { name: `machine-${i}` } }));
        nodes = Math.max(0, nodes - 1);
        expect(patches).toEqual([]);
        return { items };
      },
    } as unknown as Pick<Client, 'list'>;
    await hibernateControlPlane({ seed, values: hibernated(), wait, shoot: () => shoot }, new AbortController().signal);
    expect(nodes).toBe(0);
    expect(patches).toHaveLength(6);

    const stuck = { list: async () => ({ items: [{ metadata: { name: 'machine-0' } }] }) } as unknown as Pick<
      Client,
      'list'
    >;
    await expect(
      hibernateControlPlane(
        { seed: fakeSeed().seed, values: hibernated(), wait: { interval: 1, timeout: 20 }, shoot: () => stuck },
        new AbortController().signal,
      ),
    ).rejects.toThrow('Nodes of shoot shoot--local--local: 1 Node(s) left: machine-0');
  });
});

describe('replicasWhileHibernating', () => {
  const awake = exampleValues().shoot;
  const hibernating = hibernated().shoot;
  const asleep = exampleValues((shoot) => {
    shoot.spec.hibernation = { enabled: true };
    shoot.status = { ...shoot.status, hibernated: true } as typeof shoot.status;
  }).shoot;

  it('keeps a running workload while the shoot is on its way to hibernation, so the machines can go first', () => {
    expect(replicasWhileHibernating(hibernating, 0, 1)).toBe(1);
    expect(replicasWhileHibernating(hibernating, 0, 3)).toBe(3);
    // Not running (or not there): nothing to keep.
    expect(replicasWhileHibernating(hibernating, 0, 0)).toBe(0);
    expect(replicasWhileHibernating(hibernating, 0, undefined)).toBe(0);
  });

  it('keeps what the delete flow woke up of a hibernated shoot being deleted, even when a step runs again', () => {
    const deleting = { ...asleep, metadata: { ...asleep.metadata, deletionTimestamp: '2026-11-29T00:00:00Z' } };
    expect(replicasWhileHibernating(deleting, 0, 1)).toBe(1);
    expect(replicasWhileHibernating(deleting, 0, 0)).toBe(0);
  });

  it('renders what it renders for an awake, a hibernated and a waking shoot', () => {
    expect(replicasWhileHibernating(asleep, 0, 1)).toBe(0);
    expect(replicasWhileHibernating(awake, 1, 0)).toBe(1);
    expect(replicasWhileHibernating(awake, 3, 1)).toBe(3);
  });

  it('reads the current object only when the rule needs it', async () => {
    const reads: string[] = [];
    const seed = {
      get: (async (_kind: Kind, k: ObjectKey) => {
        reads.push(k.name);
        return { metadata: { name: k.name }, spec: { replicas: 2 } } as KubernetesObject;
      }) as Client['get'],
    };
    const deployment = { metadata: { name: 'kube-apiserver', namespace: 'ns' }, spec: { replicas: 0, paused: false } };
    const kind = { apiVersion: 'apps/v1', kind: 'Deployment' } as unknown as Kind;
    expect(await withReplicasWhileHibernating(seed, kind, deployment, hibernating)).toEqual({
      ...deployment,
      spec: { replicas: 2, paused: false },
    });
    expect(await withReplicasWhileHibernating(seed, kind, deployment, asleep)).toBe(deployment);
    expect(reads).toEqual(['kube-apiserver']);
  });
});
