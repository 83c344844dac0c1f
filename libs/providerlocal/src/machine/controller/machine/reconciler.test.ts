import { describe, expect, it } from 'vitest';
import { ApiError, type Client } from '@gardener-ts/controller-runtime';
import { machinesToDelete } from '../machineset/reconciler.js';
import { MachineReconciler, NodeDeletionTimeoutMs, machinePod, machinePodName, phaseFromPod } from './reconciler.js';

type SeedClient = Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;

/** Machine `name` (default `m1`) in the shoot namespace with MCM's finalizer and class `c`; `over` adds to its parts. */
function machineObject(over: { name?: string; metadata?: object; spec?: object; status?: object } = {}) {
  return {
    apiVersion: 'machine.sapcloud.io/v1alpha1',
    kind: 'Machine',
    metadata: {
      name: over.name ?? 'm1',
      namespace: 'shoot--local--local',
      finalizers: ['machine.sapcloud.io/machine-controller-manager'],
      ...over.metadata,
    },
    spec: { class: { name: 'c' }, ...over.spec },
    status: { ...over.status },
  };
}

/**
 * A seed client for the machine reconciler: `get` answers the Machine (`machine`, or `machine(name)`) and the objects
 * of `objects` by kind (a copy each time; 404 for anything else); the other verbs are the given ones or do nothing.
 */
function fakeSeedClient(fake: {
  machine: object | ((name: string) => object);
  objects?: Record<string, (name: string) => object | undefined>;
  list?: (kind: unknown, opts: any) => Promise<{ items: object[] }>;
  patch?: (kind: unknown, key: { name: string }, patch: any) => Promise<object>;
  create?: (obj: any) => Promise<unknown>;
  delete?: (kind: { kind: string }, key: { name: string }) => Promise<void>;
}): SeedClient {
  const machine = (name: string) =>
    structuredClone(typeof fake.machine === 'function' ? fake.machine(name) : fake.machine);
  return {
    get: async (kind: { kind: string }, key: { name: string }) => {
      if (kind.kind === 'Machine') return machine(key.name);
      const obj = fake.objects?.[kind.kind]?.(key.name);
      if (obj !== undefined) return structuredClone(obj);
      throw new ApiError(404, 'NotFound', 'not found');
    },
    list: fake.list ?? (async () => ({ items: [] })),
    patch: fake.patch ?? (async (_kind: unknown, key: { name: string }) => machine(key.name)),
    create: fake.create ?? (async () => undefined),
    delete: fake.delete ?? (async () => undefined),
  } as unknown as SeedClient;
}

describe('phaseFromPod', () => {
  it('is Running only for a running, ready Pod; Failed when the Pod ended', () => {
    expect(phaseFromPod(undefined)).toBe('Pending');
    expect(phaseFromPod({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } })).toBe(
      'Pending',
    );
    expect(phaseFromPod({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } })).toBe(
      'Running',
    );
    expect(phaseFromPod({ status: { phase: 'Failed' } })).toBe('Failed');
    expect(phaseFromPod({ status: { phase: 'Succeeded' } })).toBe('Failed');
  });
});

describe('machinesToDelete', () => {
  const m = (name: string, phase: string, created: string) => ({
    metadata: { name, creationTimestamp: created },
    status: { currentStatus: { phase } },
  });
  it('deletes failed machines first, then pending ones, then the newest running ones', () => {
    const machines = [
      m('old-running', 'Running', '2026-01-01T00:00:00Z'),
      m('new-running', 'Running', '2026-01-02T00:00:00Z'),
      m('pending', 'Pending', '2026-01-01T00:00:00Z'),
      m('failed', 'Failed', '2026-01-01T00:00:00Z'),
    ];
    expect(machinesToDelete(machines, 3).map((x) => x.metadata?.name)).toEqual(['failed', 'pending', 'new-running']);
    expect(machinesToDelete(machines, 0)).toEqual([]);
    expect(machinesToDelete(machines, -1)).toEqual([]);
  });
});

describe('machinePod', () => {
  it('names the Pod after the Machine, within 63 characters, and mounts the user data of the class', () => {
    const long = `shoot--local--a-very-long-project-name-worker-pool-z1-5f9c8-abcde`;
    expect(machinePodName(long).length).toBeLessThanOrEqual(63);
    const pod = machinePod(
      {
        metadata: { name: 'shoot--local--local-worker-z1-abc12-xyz', namespace: 'shoot--local--local', uid: 'u1' },
        apiVersion: 'machine.sapcloud.io/v1alpha1',
        kind: 'Machine',
      },
      { metadata: { name: 'c' }, providerSpec: {}, secretRef: { name: 'c' } },
    ) as any;
    expect(pod.metadata.name).toBe('machine-shoot--local--local-worker-z1-abc12-xyz');
    expect(pod.spec.hostname).toBe(pod.metadata.name);
    expect(pod.spec.containers[0].image).toBe('gardener-ts/machine');
    expect(pod.spec.containers[0].env).toContainEqual({
      name: 'USER_DATA_FILE',
      value: '/etc/machine/userdata/userData',
    });
    expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: 'Machine', uid: 'u1', controller: true });
  });
});

describe('deleting a Machine', () => {
  const deletedAt = Date.parse('2026-11-28T10:00:00Z');
  /** A seed holding only a Machine that is being deleted (its Pod already gone); records the patches. */
  const seed = () => {
    const patches: unknown[] = [];
    const machine = machineObject({
      metadata: {
        resourceVersion: '7',
        deletionTimestamp: new Date(deletedAt).toISOString(),
        labels: { node: 'machine-m1' },
      },
    });
    const client = fakeSeedClient({
      machine,
      patch: async (_kind, _key, patch) => {
        patches.push(patch);
        return structuredClone(machine);
      },
    });
    const finalizerRemoved = () =>
      patches.some(
        (p) => JSON.stringify(p).includes('"finalizers":[]') || JSON.stringify(p).includes('"finalizers":null'),
      );
    return { client, finalizerRemoved };
  };
  const req = { namespace: 'shoot--local--local', name: 'm1' };

  it("deletes the machine's Node and bootstrap token in its shoot before the finalizer goes", async () => {
    const { client, finalizerRemoved } = seed();
    const deleted: string[] = [];
    const reconciler = new MachineReconciler(
      client,
      () => new Date(deletedAt + 1000),
      async (ns, node) => {
        deleted.push(`${ns}/${node}`);
      },
      undefined,
      undefined,
      { ensure: async () => undefined, delete: async (ns, name) => void deleted.push(`token ${ns}/${name}`) },
    );
    expect(await reconciler.reconcile(req)).toBeUndefined();
    expect(deleted).toEqual(['shoot--local--local/machine-m1', 'token shoot--local--local/m1']);
    expect(finalizerRemoved()).toBe(true);
  });

  it('waits while the shoot is unreachable, and lets the machine go once the timeout has passed since the first try', async () => {
    const unreachable = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:31000');
    };
    const early = seed();
    const waiting = new MachineReconciler(early.client, () => new Date(deletedAt + 1000), unreachable);
    expect(await waiting.reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(early.finalizerRemoved()).toBe(false);
    // The time-out counts from the first failed attempt (a drain may have taken long before it).
    const late = seed();
    const warnings: string[] = [];
    let now = deletedAt + 3_600_000;
    const givingUp = new MachineReconciler(late.client, () => new Date(now), unreachable, {
      warn: (_obj, msg) => warnings.push(msg),
    });
    expect(await givingUp.reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(late.finalizerRemoved()).toBe(false);
    now += NodeDeletionTimeoutMs + 1;
    expect(await givingUp.reconcile(req)).toBeUndefined();
    expect(late.finalizerRemoved()).toBe(true);
    expect(warnings).toHaveLength(1);
  });
});

describe("a Machine's health (machine-controller-manager's health check)", () => {
  const t0 = Date.parse('2026-11-29T10:00:00Z');
  const ready = { state: 'Ready' } as const;
  const timeouts = { creationTimeoutMs: 60_000, healthTimeoutMs: 30_000, healthCheckPeriodMs: 5_000 };
  /**
   * A seed with a Machine of deployment `d` (phase `phase` since t0), its class and its Pod (`podReady`, none when
   * null), and `others` machines of the deployment; records status patches and created objects.
   */
  const seed = (phase: string, podReady: boolean | null = true, others: string[] = []) => {
    const statuses: any[] = [];
    const created: any[] = [];
    const machine = machineObject({
      metadata: { creationTimestamp: new Date(t0 - 1000).toISOString(), labels: { node: 'machine-m1', name: 'd' } },
      status: {
        currentStatus: { phase, lastUpdateTime: new Date(t0).toISOString() },
        lastOperation: { type: phase === 'Pending' ? 'Create' : 'HealthCheck', state: 'Processing', description: 'x' },
        addresses: [{ type: 'InternalIP', address: '127.0.0.9' }],
      },
    });
    const pod =
      podReady === null
        ? undefined
        : {
            metadata: { name: 'machine-m1' },
            status: {
              phase: 'Running',
              podIP: '127.0.0.9',
              conditions: [{ type: 'Ready', status: podReady ? 'True' : 'False' }],
            },
          };
    const client = fakeSeedClient({
      machine,
      objects: { Pod: () => pod, MachineClass: () => ({ metadata: { name: 'c' }, providerSpec: {} }) },
      list: async (_kind, opts) => {
        expect(opts).toEqual({ namespace: 'shoot--local--local', labelSelector: { name: 'd' } });
        return {
          items: [machine, ...others.map((p) => ({ metadata: { name: p }, status: { currentStatus: { phase: p } } }))],
        };
      },
      patch: async (_kind, _key, patch) => {
        if (patch.patch?.status) statuses.push(patch.patch.status);
        return structuredClone(machine);
      },
      create: async (obj) => {
        created.push(obj);
        return { ...obj, status: { phase: 'Pending' } };
      },
    });
    return { client, statuses, created };
  };
  const req = { namespace: 'shoot--local--local', name: 'm1' };
  const at = (ms: number) => () => new Date(ms);
  const reconciler = (client: SeedClient, now: number, node?: any) =>
    new MachineReconciler(client, at(now), undefined, undefined, node, undefined, timeouts);

  it('stays Pending until its Node has joined the shoot and is Ready, then is Running', async () => {
    const joining = seed('Pending');
    const waiting = reconciler(joining.client, t0 + 1000, async () => ({ state: 'NotFound' }));
    // The Node's joining is an event of the shoot's Node watch; the resync looks again at the latest.
    expect(await waiting.reconcile(req)).toEqual({ requeueAfter: timeouts.healthCheckPeriodMs });
    expect(joining.statuses.at(-1)?.currentStatus).toEqual({
      phase: 'Pending',
      lastUpdateTime: new Date(t0).toISOString(),
      timeoutActive: false,
    });
    expect(joining.statuses.at(-1)?.lastOperation?.description).toContain('Node machine-m1');

    const unreachable = seed('Pending');
    const down = reconciler(unreachable.client, t0 + 1000, async () => {
      throw new Error('connect ECONNREFUSED');
    });
    expect(await down.reconcile(req)).toEqual({ requeueAfter: 1000 });
    expect(unreachable.statuses.at(-1)?.lastOperation?.description).toContain('ECONNREFUSED');

    const joined = seed('Pending');
    const deletedTokens: string[] = [];
    const tokens = {
      ensure: async () => undefined,
      delete: async (ns: string, name: string) => void deletedTokens.push(`${ns}/${name}`),
    };
    const running = new MachineReconciler(
      joined.client,
      at(t0 + 2000),
      undefined,
      undefined,
      async () => ready,
      tokens,
      timeouts,
    );
    // Running: its Node is looked at again after the health check period.
    expect(await running.reconcile(req)).toEqual({ requeueAfter: timeouts.healthCheckPeriodMs });
    expect(joined.statuses.at(-1)?.currentStatus).toMatchObject({
      phase: 'Running',
      lastUpdateTime: new Date(t0 + 2000).toISOString(),
    });
    expect(joined.statuses.at(-1)?.lastOperation).toMatchObject({ type: 'Create', state: 'Successful' });
    // Running: its node-agent and kubelet have their own credentials, the bootstrap token goes.
    expect(deletedTokens).toEqual(['shoot--local--local/m1']);
  });

  it('fails a machine still Pending after the creation timeout', async () => {
    const stuck = seed('Pending', false);
    expect(await reconciler(stuck.client, t0 + 10_000).reconcile(req)).toEqual({
      requeueAfter: timeouts.creationTimeoutMs - 10_000 + 1,
    });
    expect(stuck.statuses.at(-1)?.currentStatus?.phase).toBe('Pending');
    await reconciler(stuck.client, t0 + timeouts.creationTimeoutMs + 1).reconcile(req);
    expect(stuck.statuses.at(-1)?.currentStatus?.phase).toBe('Failed');
    expect(stuck.statuses.at(-1)?.lastOperation?.description).toBe('Machine m1 failed to join the cluster in 1m0s.');
  });

  it('turns a Running machine Unknown when its Node is not Ready, and Running again when it is', async () => {
    const running = seed('Running');
    const notReady = async () => ({ state: 'NotReady', conditions: 'Ready=Unknown (NodeStatusUnknown)' });
    expect(await reconciler(running.client, t0 + 1000, notReady).reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(running.statuses.at(-1)?.currentStatus).toMatchObject({
      phase: 'Unknown',
      lastUpdateTime: new Date(t0 + 1000).toISOString(),
    });
    expect(running.statuses.at(-1)?.lastOperation).toMatchObject({ type: 'HealthCheck', state: 'Processing' });
    expect(running.statuses.at(-1)?.lastOperation?.description).toContain('NodeStatusUnknown');

    const unknown = seed('Unknown');
    await reconciler(unknown.client, t0 + 1000, async () => ready).reconcile(req);
    expect(unknown.statuses.at(-1)?.currentStatus?.phase).toBe('Running');
    expect(unknown.statuses.at(-1)?.lastOperation?.description).toBe('Machine m1 successfully re-joined the cluster');
  });

  it("keeps a copy of its Node's conditions in status.conditions, written only when they change", async () => {
    const nodeConditions = [
      { type: 'Ready', status: 'True', reason: 'KubeletReady', lastTransitionTime: '2026-11-29T09:00:00Z' },
      { type: 'DiskPressure', status: 'False', lastHeartbeatTime: '2026-11-29T09:59:00Z' },
    ];
    const running = seed('Running');
    await reconciler(running.client, t0 + 1000, async () => ({ ...ready, nodeConditions })).reconcile(req);
    expect(running.statuses).toHaveLength(1);
    expect(running.statuses[0]).toMatchObject({ currentStatus: { phase: 'Running' }, conditions: nodeConditions });

    const bad = [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }];
    const turning = seed('Running');
    await reconciler(turning.client, t0 + 1000, async () => ({
      state: 'NotReady',
      conditions: 'Ready=False (KubeletNotReady)',
      nodeConditions: bad,
    })).reconcile(req);
    expect(turning.statuses.at(-1)).toMatchObject({ currentStatus: { phase: 'Unknown' }, conditions: bad });

    const statuses: unknown[] = [];
    const copied = fakeSeedClient({
      machine: machineObject({
        metadata: { labels: { node: 'machine-m1' } },
        status: {
          currentStatus: { phase: 'Running', lastUpdateTime: new Date(t0).toISOString() },
          lastOperation: { type: 'HealthCheck', state: 'Successful', description: 'x' },
          addresses: [{ type: 'InternalIP', address: '127.0.0.9' }],
          conditions: nodeConditions,
        },
      }),
      objects: {
        Pod: () => ({
          metadata: { name: 'machine-m1' },
          status: { phase: 'Running', podIP: '127.0.0.9', conditions: [{ type: 'Ready', status: 'True' }] },
        }),
        MachineClass: () => ({ metadata: { name: 'c' }, providerSpec: {} }),
      },
      patch: async (_kind, _key, patch) => {
        if (patch.patch?.status) statuses.push(patch.patch.status);
        return {};
      },
    });
    await reconciler(copied, t0 + 1000, async () => ({ ...ready, nodeConditions })).reconcile(req);
    expect(statuses).toEqual([]);
  });

  it('does not recreate the Pod of a Running machine: the machine turns Unknown (its VM is gone)', async () => {
    const gone = seed('Running', null);
    const asked: string[] = [];
    await reconciler(gone.client, t0 + 1000, async (_ns: string, node: string) => {
      asked.push(node);
      return ready;
    }).reconcile(req);
    expect(gone.created).toEqual([]);
    expect(asked).toEqual([]);
    expect(gone.statuses.at(-1)?.currentStatus?.phase).toBe('Unknown');
    expect(gone.statuses.at(-1)?.lastOperation?.description).toContain('machine Pod is gone');
  });

  it('fails an Unknown machine after the health timeout, one machine of a deployment at a time', async () => {
    const missing = async () => ({ state: 'NotFound' });
    const early = seed('Unknown');
    expect(await reconciler(early.client, t0 + 20_000, missing).reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(early.statuses).toEqual([]);

    const late = seed('Unknown', true, ['Running']);
    expect(await reconciler(late.client, t0 + 30_001, missing).reconcile(req)).toEqual({});
    expect(late.statuses.at(-1)?.currentStatus?.phase).toBe('Failed');
    expect(late.statuses.at(-1)?.lastOperation).toMatchObject({ type: 'HealthCheck', state: 'Failed' });
    expect(late.statuses.at(-1)?.lastOperation?.description).toContain('health checks failing since last 30s');

    // Another machine of the deployment is being replaced: this one waits.
    const busy = seed('Unknown', true, ['Terminating']);
    expect(await reconciler(busy.client, t0 + 30_001, missing).reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(busy.statuses).toEqual([]);
  });

  it('marks two Unknown machines of one deployment Failed one after the other, never together', async () => {
    // Both reconciles share the reconciler (its per-deployment permit) and one live list of the deployment.
    const phases: Record<string, string> = { m1: 'Unknown', m2: 'Unknown' };
    const machine = (name: string) =>
      machineObject({
        name,
        metadata: { labels: { node: `machine-${name}`, name: 'd' } },
        status: { currentStatus: { phase: phases[name], lastUpdateTime: new Date(t0).toISOString() } },
      });
    const client = fakeSeedClient({
      machine,
      objects: {
        Pod: (name) => ({ metadata: { name }, status: { phase: 'Running' } }),
        MachineClass: () => ({ metadata: { name: 'c' }, providerSpec: {} }),
      },
      list: async () => {
        // The answer is what the API server held when asked; a slow answer lets another reconcile ask meanwhile.
        const items = Object.keys(phases).map(machine);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { items };
      },
      patch: async (_kind, key, patch) => {
        const phase = patch.patch?.status?.currentStatus?.phase;
        if (phase) phases[key.name] = phase;
        return machine(key.name);
      },
    });
    const shared = reconciler(client, t0 + 60_000);
    await Promise.all([
      shared.reconcile({ namespace: 'shoot--local--local', name: 'm1' }),
      shared.reconcile({ namespace: 'shoot--local--local', name: 'm2' }),
    ]);
    expect(Object.values(phases).sort()).toEqual(['Failed', 'Unknown']);
  });

  it('keeps the phase while the shoot is unreachable, and restarts the health timeout after an outage', async () => {
    let up = false;
    const flaky = async () => {
      if (!up) throw new Error('connect ECONNREFUSED');
      return { state: 'NotFound' } as const;
    };
    const running = seed('Running');
    const shared = reconciler(running.client, t0 + 1000, flaky);
    expect(await shared.reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(running.statuses).toEqual([]);

    // The same reconciler (its memory of the outage) on an Unknown machine whose timeout ran out during the outage.
    let now = t0 + 1000;
    const unknown = seed('Unknown');
    const r = new MachineReconciler(unknown.client, () => new Date(now), undefined, undefined, flaky, undefined, {
      ...timeouts,
      shootOutageMs: 10_000,
    });
    expect(await r.reconcile(req)).toEqual({ requeueAfter: 5000 });
    now = t0 + 60_000;
    expect(await r.reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(unknown.statuses).toEqual([]);
    up = true;
    now = t0 + 61_000;
    // Back after an outage of a minute: the Unknown machine gets its health timeout again from now.
    expect(await r.reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(unknown.statuses).toEqual([]);
    now = t0 + 61_000 + timeouts.healthTimeoutMs + 1;
    await r.reconcile(req);
    expect(unknown.statuses.at(-1)?.currentStatus?.phase).toBe('Failed');
  });
});

describe("a new Machine's bootstrap token (machine-controller-manager's)", () => {
  const userData =
    'files:\n- {path: /var/lib/gardener-node-agent/credentials/bootstrap-token, content: <<BOOTSTRAP_TOKEN>>}\n';
  /** A seed with a Machine, its class and the class's user data Secret; records creations and applies. */
  const seed = (classUserData: string) => {
    const created: any[] = [];
    const applied: any[] = [];
    const machine = machineObject({ metadata: { uid: 'u1' }, status: { currentStatus: { phase: 'Pending' } } });
    const client = fakeSeedClient({
      machine,
      objects: {
        MachineClass: () => ({ metadata: { name: 'c' }, providerSpec: {}, secretRef: { name: 'c' } }),
        Secret: () => ({ data: { userData: Buffer.from(classUserData).toString('base64') } }),
      },
      patch: async (_kind, _key, patch) => {
        if (patch.type === 'apply') applied.push(patch.patch);
        return structuredClone(machine);
      },
      create: async (obj) => {
        created.push(obj);
        return { ...obj, status: { phase: 'Pending' } };
      },
    });
    return { client, created, applied };
  };
  const tokens = () => {
    const calls: string[] = [];
    return {
      calls,
      ensure: async (ns: string, name: string, expiration: Date) => {
        calls.push(`ensure ${ns}/${name} ${expiration.toISOString()}`);
        return '616263.0123456789abcdef';
      },
      delete: async (ns: string, name: string) => {
        calls.push(`delete ${ns}/${name}`);
      },
    };
  };
  const now = new Date('2026-11-29T12:00:00Z');
  const req = { namespace: 'shoot--local--local', name: 'm1' };

  it('creates the token in the shoot and gives the machine its own user data Secret with the token filled in', async () => {
    const s = seed(userData);
    const t = tokens();
    await new MachineReconciler(s.client, () => now, undefined, undefined, undefined, t).reconcile(req);
    expect(t.calls).toEqual(['ensure shoot--local--local/m1 2026-11-29T12:20:00.000Z']);
    const secret = s.applied.find((o) => o.kind === 'Secret');
    expect(secret.metadata).toMatchObject({ name: 'machine-m1-userdata', namespace: 'shoot--local--local' });
    expect(secret.metadata.ownerReferences[0]).toMatchObject({ kind: 'Machine', uid: 'u1', controller: true });
    expect(Buffer.from(secret.data.userData, 'base64').toString()).toBe(
      userData.replace('<<BOOTSTRAP_TOKEN>>', '616263.0123456789abcdef'),
    );
    const pod = s.created.find((o) => o.kind === 'Pod');
    expect(pod.spec.volumes).toEqual([{ name: 'userdata', secret: { secretName: 'machine-m1-userdata' } }]);
  });

  it("uses the class's user data as it is without the placeholder or without a shoot", async () => {
    const plain = seed('files: []\n');
    const t = tokens();
    await new MachineReconciler(plain.client, () => now, undefined, undefined, undefined, t).reconcile(req);
    expect(t.calls).toEqual([]);
    expect(plain.created.find((o) => o.kind === 'Pod').spec.volumes[0].secret.secretName).toBe('c');

    const bare = seed(userData);
    const none = { ensure: async () => undefined, delete: async () => undefined };
    await new MachineReconciler(bare.client, () => now, undefined, undefined, undefined, none).reconcile(req);
    expect(bare.applied.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(bare.created.find((o) => o.kind === 'Pod').spec.volumes[0].secret.secretName).toBe('c');
  });
});

describe('draining the Node of a deleted Machine (machine-controller-manager)', () => {
  const deletedAt = Date.parse('2026-11-29T10:00:00Z');
  const req = { namespace: 'shoot--local--local', name: 'm1' };
  /** A seed with a deleted Running Machine (labels, spec as given) and its Pod; records status patches and deletions. */
  const seed = (over: { labels?: Record<string, string>; spec?: object; lastOperation?: object } = {}) => {
    const statuses: any[] = [];
    const deleted: string[] = [];
    let podGone = false;
    const machine = machineObject({
      metadata: {
        deletionTimestamp: new Date(deletedAt).toISOString(),
        labels: over.labels ?? { node: 'machine-m1', name: 'd' },
      },
      spec: over.spec,
      status: {
        currentStatus: { phase: 'Running', lastUpdateTime: new Date(deletedAt - 60_000).toISOString() },
        ...(over.lastOperation ? { lastOperation: over.lastOperation } : {}),
      },
    });
    const client = fakeSeedClient({
      machine,
      objects: {
        Pod: () => (podGone ? undefined : { metadata: { name: 'machine-m1' }, status: { phase: 'Running' } }),
      },
      patch: async (_kind, _key, patch) => {
        if (patch.patch?.status) {
          statuses.push(patch.patch.status);
          machine.status = { ...machine.status, ...patch.patch.status };
        }
        return structuredClone(machine);
      },
      delete: async (kind, key) => {
        deleted.push(`${kind.kind}/${key.name}`);
        if (kind.kind === 'Pod') podGone = true;
      },
    });
    return { client, statuses, deleted };
  };
  const withDrain = (client: SeedClient, now: number, drain: (ns: string, r: any) => Promise<any>) =>
    new MachineReconciler(
      client,
      () => new Date(now),
      async () => undefined,
      undefined,
      undefined,
      undefined,
      { drain },
    );

  it('keeps the machine Pod while the drain goes on, then deletes it once the Node is drained', async () => {
    const draining = seed();
    const requests: any[] = [];
    const inProgress = withDrain(draining.client, deletedAt + 1000, async (_ns, r) => {
      requests.push(r);
      return { state: 'Draining', message: '2 Pod(s) left on Node machine-m1', warnings: [], recheckAfterMs: 5000 };
    });
    expect(await inProgress.reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(draining.deleted).toEqual([]);
    expect(draining.statuses.at(-1)).toMatchObject({
      currentStatus: { phase: 'Terminating' },
      lastOperation: {
        type: 'Delete',
        state: 'Processing',
        description: 'Draining: 2 Pod(s) left on Node machine-m1. Initiate node drain',
      },
    });
    // MCM's defaults: a drain timeout of 2h, 360 evictions; the phase before the deletion names the Node's reason.
    expect(requests[0]).toMatchObject({
      machine: 'shoot--local--local/m1',
      nodeName: 'machine-m1',
      phase: 'Running',
      deletedAt,
      drainTimeoutMs: 7_200_000,
      maxEvictRetries: 360,
      forceLabel: false,
    });

    const done = seed();
    const drained = withDrain(done.client, deletedAt + 1000, async () => ({
      state: 'Done',
      message: 'drained',
      warnings: [],
    }));
    expect(await drained.reconcile(req)).toBeUndefined();
    expect(done.statuses[0].lastOperation).toMatchObject({ description: 'Drain successful. Initiate VM deletion' });
    expect(done.deleted).toContain('Pod/machine-m1');
  });

  it("takes the machine's own drain timeout and evictions; a failed drain is retried, the Pod stays", async () => {
    const failing = seed({
      spec: { drainTimeout: '10m', maxEvictRetries: 3 },
      labels: { node: 'machine-m1', 'force-deletion': 'True' },
    });
    const requests: any[] = [];
    const r = withDrain(failing.client, deletedAt + 1000, async (_ns, q) => {
      requests.push(q);
      return { state: 'Failed', message: 'error when evicting pod "web": boom', warnings: [], recheckAfterMs: 5000 };
    });
    expect(await r.reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(requests[0]).toMatchObject({ drainTimeoutMs: 600_000, maxEvictRetries: 3, forceLabel: true });
    expect(failing.statuses.at(-1)?.lastOperation).toMatchObject({
      state: 'Failed',
      description:
        'Drain failed due to - error when evicting pod "web": boom. Will retry in next sync. Initiate node drain',
    });
    expect(failing.deleted).toEqual([]);
  });

  it('goes on deleting the machine when a forced drain fails or the shoot stays away past the drain timeout', async () => {
    const forcedFailure = seed();
    await withDrain(forcedFailure.client, deletedAt + 1000, async () => ({
      state: 'Failed',
      forced: 'NotReady',
      message: 'boom',
      warnings: [],
    })).reconcile(req);
    expect(forcedFailure.statuses[0].lastOperation.description).toBe(
      "Drain failed due to - boom. However, since it's a force deletion shall continue deletion of VM. Delete Volume Attachments",
    );
    expect(forcedFailure.deleted).toContain('Pod/machine-m1');

    const unreachable = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    const early = seed();
    expect(await withDrain(early.client, deletedAt + 1000, unreachable).reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(early.deleted).toEqual([]);
    const late = seed({ spec: { drainTimeout: '1m' } });
    await withDrain(late.client, deletedAt + 60_001, unreachable).reconcile(req);
    expect(late.statuses[0].lastOperation.description).toContain("since it's a force deletion shall continue");
    expect(late.deleted).toContain('Pod/machine-m1');
  });

  it('skips the drain of a machine without a Node name, and never drains twice', async () => {
    const noNode = seed({ labels: {} });
    let asked = 0;
    const drain = async () => {
      asked++;
      return { state: 'Done', message: 'x', warnings: [] };
    };
    await withDrain(noNode.client, deletedAt + 1000, drain).reconcile(req);
    expect(asked).toBe(0);
    expect(noNode.statuses[0].lastOperation.description).toBe(
      'Skipping drain as nodeName is not a valid one for machine. Initiate VM deletion',
    );
    const drained = seed({
      lastOperation: { type: 'Delete', state: 'Processing', description: 'Drain successful. Initiate VM deletion' },
    });
    await withDrain(drained.client, deletedAt + 1000, drain).reconcile(req);
    expect(asked).toBe(0);
    expect(drained.deleted).toContain('Pod/machine-m1');
  });
});

describe("a Machine's own timeouts and Node conditions (its pool's machineControllerManager settings)", () => {
  const t0 = Date.parse('2026-11-29T10:00:00Z');
  const req = { namespace: 'shoot--local--local', name: 'm1' };
  const seed = (phase: string, spec: object) => {
    const statuses: any[] = [];
    const machine = machineObject({
      metadata: { labels: { node: 'machine-m1' } },
      spec,
      status: { currentStatus: { phase, lastUpdateTime: new Date(t0).toISOString() } },
    });
    const client = fakeSeedClient({
      machine,
      objects: {
        Pod: () => ({
          metadata: { name: 'machine-m1' },
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
        }),
        MachineClass: () => ({ metadata: { name: 'c' }, providerSpec: {} }),
      },
      list: async () => ({ items: [machine] }),
      patch: async (_kind, _key, patch) => {
        if (patch.patch?.status) statuses.push(patch.patch.status);
        return structuredClone(machine);
      },
    });
    return { client, statuses };
  };
  const missing = async () => ({ state: 'NotFound' }) as const;

  it("fails an Unknown machine after its own health timeout, not the controller's", async () => {
    const s = seed('Unknown', { healthTimeout: '30s' });
    const r = new MachineReconciler(s.client, () => new Date(t0 + 30_001), undefined, undefined, missing);
    await r.reconcile(req);
    expect(s.statuses.at(-1)?.currentStatus?.phase).toBe('Failed');
    expect(s.statuses.at(-1)?.lastOperation?.description).toContain('health checks failing since last 30s');
    const never = seed('Unknown', { healthTimeout: '30s', disableHealthTimeout: true });
    await new MachineReconciler(never.client, () => new Date(t0 + 3_600_000), undefined, undefined, missing).reconcile(
      req,
    );
    expect(never.statuses.map((x) => x.currentStatus.phase)).not.toContain('Failed');
  });

  it('fails a Pending machine after its own creation timeout and hands its Node conditions to the health check', async () => {
    const s = seed('Pending', { creationTimeout: '1m', nodeConditions: 'FrequentKubeletRestart' });
    const asked: unknown[] = [];
    const r = new MachineReconciler(
      s.client,
      () => new Date(t0 + 60_001),
      undefined,
      undefined,
      async (_ns, _node, conditions) => {
        asked.push(conditions);
        return { state: 'NotFound' };
      },
    );
    await r.reconcile(req);
    expect(asked).toEqual([['FrequentKubeletRestart']]);
    expect(s.statuses.at(-1)?.lastOperation?.description).toBe('Machine m1 failed to join the cluster in 1m0s.');
  });
});
