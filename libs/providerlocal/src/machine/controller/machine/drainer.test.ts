import { describe, expect, it } from 'vitest';
import { ApiError, type Client, type PodObject } from '@gardener-ts/controller-runtime';
import { NodeDrainer, type DrainRequest, type DrainShoot } from './drainer.js';
import { MachineReconciler } from './reconciler.js';

const t0 = Date.parse('2026-11-29T10:00:00Z');

/**
 * A shoot with Node `n1` and the given Pods on it: an accepted eviction marks the Pod deleted as the API server does
 * (`deletionTimestamp` = now + its grace period), `refuse` names Pods whose evictions a PodDisruptionBudget refuses
 * (429); deletions remove the Pod. Records evictions and deletions.
 */
function fakeShoot(pods: PodObject[], opts: { now: () => number; refuse?: string[] }) {
  const evicted: string[] = [];
  const deleted: string[] = [];
  const shoot: DrainShoot = {
    client: {
      get: async () => ({ metadata: { name: 'n1' }, spec: { unschedulable: true }, status: { conditions: [] } }),
      patch: async () => ({}),
      list: async (kind: { kind: string }) => ({ items: kind.kind === 'Pod' ? structuredClone(pods) : [] }),
      delete: async (_kind: unknown, key: { name: string }) => {
        deleted.push(key.name);
        pods.splice(
          pods.findIndex((p) => p.metadata?.name === key.name),
          1,
        );
      },
    } as unknown as DrainShoot['client'],
    evict: async (_namespace, name) => {
      if (opts.refuse?.includes(name)) throw new ApiError(429, 'TooManyRequests', 'Cannot evict pod');
      evicted.push(name);
      const pod = pods.find((p) => p.metadata?.name === name)!;
      const grace = (pod.spec?.terminationGracePeriodSeconds as number | undefined) ?? 30;
      pod.metadata = {
        ...pod.metadata,
        deletionTimestamp: new Date(opts.now() + grace * 1000).toISOString(),
        deletionGracePeriodSeconds: grace,
      } as PodObject['metadata'];
    },
  };
  return { shoot, evicted, deleted };
}

/** A Pod of a ReplicaSet on `n1` with a 60 s grace period. */
const replicaPod = (name: string): PodObject => ({
  metadata: {
    name,
    namespace: 'default',
    uid: `uid-${name}`,
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs', controller: true }],
  },
  spec: { nodeName: 'n1', containers: [], terminationGracePeriodSeconds: 60 },
  status: { phase: 'Running' },
});

describe('NodeDrainer after a restart (what it remembered is rebuilt from the drain start and the Pods)', () => {
  const request = (now: number, startedAt?: number): DrainRequest => ({
    machine: 'shoot--p--s/m1',
    nodeName: 'n1',
    phase: 'Running',
    deletedAt: t0,
    now,
    drainTimeoutMs: 7_200_000,
    maxEvictRetries: 3,
    ...(startedAt !== undefined ? { startedAt } : {}),
  });

  it('waits for a Pod evicted before the restart only what is left of its grace period and buffer', async () => {
    let now = t0;
    const pods = [replicaPod('web')];
    const { shoot, evicted } = fakeShoot(pods, { now: () => now });
    expect((await new NodeDrainer().step(shoot, request(now))).state).toBe('Draining');
    expect(evicted).toEqual(['web']);

    // A new controller, 60 s grace + 30 s buffer after the eviction: the Pod's wait is over, the drain fails for it.
    now = t0 + 90_001;
    const restarted = await new NodeDrainer().step(shoot, request(now, t0));
    expect(restarted).toMatchObject({ state: 'Failed' });
    expect(restarted.message).toContain('timeout expired while waiting for pod "web"');
    // Just before, it still waits — and looks again at the end of the wait, not a full grace period later.
    now = t0 + 85_000;
    const waiting = await new NodeDrainer().step(shoot, request(now, t0));
    expect(waiting).toMatchObject({ state: 'Draining', recheckAfterMs: 5_000 });
    expect(evicted).toEqual(['web']);
  });

  it('deletes a Pod whose evictions ran out while the controller was away, instead of counting again', async () => {
    const now = t0 + 60_000; // three refusals at one per 20 s since the drain began
    const { shoot, evicted, deleted } = fakeShoot([replicaPod('guarded')], { now: () => now, refuse: ['guarded'] });
    await new NodeDrainer().step(shoot, request(now, t0));
    expect(evicted).toEqual([]);
    expect(deleted).toEqual(['guarded']);
  });

  it('starts counting afresh for a drain that begins now (no start recorded)', async () => {
    const now = t0 + 60_000;
    const { shoot, deleted } = fakeShoot([replicaPod('guarded')], { now: () => now, refuse: ['guarded'] });
    const outcome = await new NodeDrainer().step(shoot, request(now));
    expect(deleted).toEqual([]);
    expect(outcome).toMatchObject({ state: 'Draining', recheckAfterMs: 20_000 });
  });
});

describe('a restarted machine controller continues the drain of a deleted Machine', () => {
  /** A seed with Machine m1 (Node n1) deleted at t0 and its Pod; status patches are applied to the Machine. */
  const seed = () => {
    const machine: any = {
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'Machine',
      metadata: {
        name: 'm1',
        namespace: 'shoot--p--s',
        finalizers: ['machine.sapcloud.io/machine-controller-manager'],
        deletionTimestamp: new Date(t0).toISOString(),
        labels: { node: 'n1' },
      },
      spec: { class: { name: 'c' } },
      status: { currentStatus: { phase: 'Running' } },
    };
    const client = {
      get: async (kind: { kind: string }) => {
        if (kind.kind === 'Machine') return structuredClone(machine);
        if (kind.kind === 'Pod') return { metadata: { name: 'machine-m1' }, status: { phase: 'Running' } };
        throw new ApiError(404, 'NotFound', 'not found');
      },
      patch: async (_kind: unknown, _key: unknown, patch: any) => {
        if (patch.patch?.status) machine.status = { ...machine.status, ...patch.patch.status };
        return structuredClone(machine);
      },
      list: async () => ({ items: [] }),
      create: async () => undefined,
      delete: async () => undefined,
    } as unknown as Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;
    return { client, machine };
  };
  const req = { namespace: 'shoot--p--s', name: 'm1' };
  /** A machine controller (a new process: its own drainer) at `now()` draining through `shoot`. */
  const controller = (client: ReturnType<typeof seed>['client'], shoot: DrainShoot, now: () => number) => {
    const drainer = new NodeDrainer();
    return new MachineReconciler(client, () => new Date(now()), undefined, undefined, undefined, undefined, {
      drain: (_namespace, request) => drainer.step(shoot, request),
    });
  };

  it('keeps the time the drain began in lastOperation and waits out only the rest of an evicted Pod', async () => {
    let now = t0 + 1_000;
    const { client, machine } = seed();
    const { shoot, evicted } = fakeShoot([replicaPod('web'), replicaPod('api')], { now: () => now });
    await controller(client, shoot, () => now).reconcile(req);
    expect(evicted).toEqual(['web', 'api']);
    expect(machine.status.lastOperation).toMatchObject({
      type: 'Delete',
      state: 'Processing',
      description: 'Draining: 2 Pod(s) left on Node n1. Initiate node drain',
      lastUpdateTime: new Date(t0 + 1_000).toISOString(),
    });

    // The first controller goes on: one Pod went, the description changes, the drain's start stays.
    shoot.client.delete(undefined as never, { name: 'api' });
    now = t0 + 30_000;
    const first = controller(client, shoot, () => now);
    await first.reconcile(req);
    expect(machine.status.lastOperation).toMatchObject({
      description: 'Draining: 1 Pod(s) left on Node n1. Initiate node drain',
      lastUpdateTime: new Date(t0 + 1_000).toISOString(),
    });

    // Restarted 80 s after the eviction: 10 s of the 60 s grace + 30 s buffer are left.
    now = t0 + 81_000;
    expect(await controller(client, shoot, () => now).reconcile(req)).toEqual({ requeueAfter: 5_000 });
    expect(machine.status.lastOperation.state).toBe('Processing');
    now = t0 + 91_001;
    await controller(client, shoot, () => now).reconcile(req);
    expect(machine.status.lastOperation).toMatchObject({ type: 'Delete', state: 'Failed' });
    expect(machine.status.lastOperation.description).toContain('timeout expired while waiting for pod "web"');
    expect(evicted).toEqual(['web', 'api']);
  });
});

describe('NodeDrainer: Pods with volumes one by one (PV-aware drain)', () => {
  /** A StatefulSet Pod on `n1` with claim `data-<name>` (bound to `pv-<name>`), 30 s grace. */
  const statefulPod = (name: string, priority = 0): PodObject => ({
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts', controller: true }],
    },
    spec: {
      nodeName: 'n1',
      containers: [],
      priority,
      terminationGracePeriodSeconds: 30,
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `data-${name}` } }],
    },
    status: { phase: 'Running' },
  });

  /**
   * A shoot where an accepted eviction removes the Pod at once (a fast kubelet) but leaves its volume's
   * VolumeAttachment on `n1` until `detach` is called; `refuse` names Pods whose evictions a PodDisruptionBudget
   * refuses; without `attachmentsServed` listing VolumeAttachments answers 404.
   */
  function volumeShoot(pods: PodObject[], opts: { refuse?: string[]; attachmentsServed?: boolean } = {}) {
    const attachments: { metadata: { name: string }; spec: Record<string, unknown> }[] = [];
    for (const p of pods) {
      attachments.push({
        metadata: { name: `va-${p.metadata!.name}` },
        spec: { nodeName: 'n1', attacher: 'csi', source: { persistentVolumeName: `pv-${p.metadata!.name}` } },
      });
    }
    const claims = pods.map((p) => ({
      metadata: { name: `data-${p.metadata!.name}`, namespace: 'default' },
      spec: { volumeName: `pv-${p.metadata!.name}` },
    }));
    const log: string[] = [];
    const gone = (name: string) =>
      pods.splice(
        pods.findIndex((p) => p.metadata?.name === name),
        1,
      );
    const shoot: DrainShoot = {
      client: {
        get: async () => ({ metadata: { name: 'n1' }, spec: { unschedulable: true }, status: { conditions: [] } }),
        patch: async () => ({}),
        list: async (kind: { kind: string }) => {
          if (kind.kind === 'Pod') return { items: structuredClone(pods) };
          if (kind.kind === 'PersistentVolumeClaim') return { items: structuredClone(claims) };
          if (kind.kind === 'VolumeAttachment') {
            if (opts.attachmentsServed === false) throw new ApiError(404, 'NotFound', 'the server could not find it');
            return { items: structuredClone(attachments) };
          }
          return { items: [] };
        },
        delete: async (_kind: unknown, key: { name: string }) => {
          log.push(`delete ${key.name}`);
          gone(key.name);
        },
      } as unknown as DrainShoot['client'],
      evict: async (_namespace, name) => {
        if (opts.refuse?.includes(name)) throw new ApiError(429, 'TooManyRequests', 'Cannot evict pod');
        log.push(`evict ${name}`);
        gone(name);
      },
    };
    const detach = (name: string) =>
      attachments.splice(
        attachments.findIndex((a) => a.metadata.name === `va-${name}`),
        1,
      );
    return { shoot, log, detach };
  }

  const request = (now: number, extra: Partial<DrainRequest> = {}): DrainRequest => ({
    machine: 'shoot--p--s/m1',
    nodeName: 'n1',
    phase: 'Running',
    deletedAt: t0,
    now,
    drainTimeoutMs: 7_200_000,
    maxEvictRetries: 10,
    ...extra,
  });

  it('evicts Pods without volumes at once, those with volumes by priority, each after the previous detached', async () => {
    const { shoot, log, detach } = volumeShoot([
      statefulPod('db-low', 1),
      replicaPod('web'),
      statefulPod('db-high', 9),
    ]);
    const drainer = new NodeDrainer();
    const first = await drainer.step(shoot, request(t0));
    expect(log).toEqual(['evict web', 'evict db-high']);
    expect(first.state).toBe('Draining');

    // db-high is gone, its volume still attached to n1: db-low waits.
    const waiting = await drainer.step(shoot, request(t0 + 5_000));
    expect(log).toEqual(['evict web', 'evict db-high']);
    expect(waiting).toMatchObject({ state: 'Draining', recheckAfterMs: 5_000 });
    expect(waiting.message).toBe(
      '1 Pod(s) left on Node n1; volume(s) pv-db-high of Pod default/db-high still attached',
    );

    detach('db-high');
    await drainer.step(shoot, request(t0 + 10_000));
    expect(log).toEqual(['evict web', 'evict db-high', 'evict db-low']);
    // The last one's volume is waited for too before the drain is done.
    expect((await drainer.step(shoot, request(t0 + 15_000))).state).toBe('Draining');
    detach('db-low');
    expect(await drainer.step(shoot, request(t0 + 20_000))).toMatchObject({ state: 'Done' });
  });

  it('tries the next Pod with volumes when a PodDisruptionBudget refuses one, and the refused one later', async () => {
    const { shoot, log, detach } = volumeShoot([statefulPod('a', 5), statefulPod('b', 1)], { refuse: ['a'] });
    const drainer = new NodeDrainer();
    await drainer.step(shoot, request(t0));
    expect(log).toEqual(['evict b']);
    detach('b');
    // a's retry is due after the retry interval; it is refused again and stays.
    const later = await drainer.step(shoot, request(t0 + 25_000));
    expect(log).toEqual(['evict b']);
    expect(later).toMatchObject({ state: 'Draining', message: '1 Pod(s) left on Node n1', recheckAfterMs: 20_000 });
  });

  it('fails the drain for a Pod whose volumes stay attached past grace period and detach timeout, then goes on', async () => {
    const { shoot, log } = volumeShoot([statefulPod('a', 5), statefulPod('b', 1)]);
    const drainer = new NodeDrainer(undefined, { pvDetachTimeoutMs: 60_000 });
    await drainer.step(shoot, request(t0));
    expect((await drainer.step(shoot, request(t0 + 90_000))).state).toBe('Draining'); // 30 s grace + 60 s: not yet
    const failed = await drainer.step(shoot, request(t0 + 90_001));
    expect(failed.state).toBe('Failed');
    expect(failed.message).toBe('timeout while waiting for PVs pv-a of pod "default/a" to detach from node n1');
    // As MCM's serial loop: the failure is reported and the next Pod with volumes goes at once.
    expect(log).toEqual(['evict a', 'evict b']);
    expect((await drainer.step(shoot, request(t0 + 95_000))).message).toContain('pv-b of Pod default/b still attached');
  });

  it('after a restart takes a Pod with volumes that is already terminating as the one in flight', async () => {
    const terminating = statefulPod('a', 1);
    terminating.metadata = {
      ...terminating.metadata,
      deletionTimestamp: new Date(t0 + 30_000).toISOString(),
      deletionGracePeriodSeconds: 30,
    } as PodObject['metadata'];
    const pods = [terminating, statefulPod('b', 5)];
    const { shoot, log, detach } = volumeShoot(pods);
    const drainer = new NodeDrainer();
    const outcome = await drainer.step(shoot, request(t0 + 10_000, { startedAt: t0 }));
    expect(log).toEqual([]); // b (higher priority) waits for a
    expect(outcome).toMatchObject({ state: 'Draining', message: '2 Pod(s) left on Node n1' });
    pods.splice(0, 1); // a is gone; its volume detaches later
    await drainer.step(shoot, request(t0 + 15_000));
    expect(log).toEqual([]);
    detach('a');
    await drainer.step(shoot, request(t0 + 20_000));
    expect(log).toEqual(['evict b']);
  });

  it('does not wait for volumes where the shoot serves no VolumeAttachments', async () => {
    const { shoot, log } = volumeShoot([statefulPod('a', 5), statefulPod('b', 1)], { attachmentsServed: false });
    const drainer = new NodeDrainer();
    await drainer.step(shoot, request(t0));
    await drainer.step(shoot, request(t0 + 5_000));
    expect(log).toEqual(['evict a', 'evict b']);
    expect(await drainer.step(shoot, request(t0 + 10_000))).toMatchObject({ state: 'Done' });
  });

  it('deletes every Pod at once, without waiting for volumes, when the drain is forced', async () => {
    const { shoot, log } = volumeShoot([statefulPod('a', 5), statefulPod('b', 1), replicaPod('web')]);
    const outcome = await new NodeDrainer().step(shoot, request(t0, { forceLabel: true }));
    expect(log.sort()).toEqual(['delete a', 'delete b', 'delete web']);
    expect(outcome).toMatchObject({ state: 'Done', forced: 'label' });
  });
});
