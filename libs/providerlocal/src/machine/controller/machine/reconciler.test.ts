import { describe, expect, it } from 'vitest';
import { ApiError, type Client } from '@gardener-ts/controller-runtime';
import { machinesToDelete } from '../machineset/reconciler.js';
import { MachineReconciler, NodeDeletionTimeoutMs, machinePod, machinePodName, phaseFromPod } from './reconciler.js';

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
    const machine = {
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'Machine',
      metadata: {
        name: 'm1',
        namespace: 'shoot--local--local',
        resourceVersion: '7',
        finalizers: ['machine.sapcloud.io/machine-controller-manager'],
        deletionTimestamp: new Date(deletedAt).toISOString(),
        labels: { node: 'machine-m1' },
      },
    };
    const client = {
      get: async (kind: { kind: string }) => {
        if (kind.kind === 'Machine') return structuredClone(machine);
        throw new ApiError(404, 'NotFound', 'not found');
      },
      patch: async (_kind: unknown, _key: unknown, patch: unknown) => {
        patches.push(patch);
        return structuredClone(machine);
      },
      create: async () => machine,
      delete: async () => undefined,
    } as unknown as Pick<Client, 'get' | 'create' | 'patch' | 'delete'>;
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

  it('waits while the shoot is unreachable, and lets the machine go once the timeout has passed', async () => {
    const unreachable = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:31000');
    };
    const early = seed();
    const waiting = new MachineReconciler(early.client, () => new Date(deletedAt + 1000), unreachable);
    expect(await waiting.reconcile(req)).toEqual({ requeueAfter: 5000 });
    expect(early.finalizerRemoved()).toBe(false);
    const late = seed();
    const warnings: string[] = [];
    const givingUp = new MachineReconciler(
      late.client,
      () => new Date(deletedAt + NodeDeletionTimeoutMs + 1),
      unreachable,
      { warn: (_obj, msg) => warnings.push(msg) },
    );
    expect(await givingUp.reconcile(req)).toBeUndefined();
    expect(late.finalizerRemoved()).toBe(true);
    expect(warnings).toHaveLength(1);
  });
});

describe('a new Machine whose Pod is ready', () => {
  /** A seed with a Machine (phase `phase`), its class and its ready Pod; records the status patches. */
  const seed = (phase: string) => {
    const statuses: any[] = [];
    const machine = {
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'Machine',
      metadata: {
        name: 'm1',
        namespace: 'shoot--local--local',
        finalizers: ['machine.sapcloud.io/machine-controller-manager'],
        labels: { node: 'machine-m1' },
      },
      spec: { class: { name: 'c' } },
      status: { currentStatus: { phase } },
    };
    const pod = {
      metadata: { name: 'machine-m1' },
      status: { phase: 'Running', podIP: '127.0.0.9', conditions: [{ type: 'Ready', status: 'True' }] },
    };
    const client = {
      get: async (kind: { kind: string }) =>
        structuredClone(
          kind.kind === 'Machine' ? machine : kind.kind === 'Pod' ? pod : { metadata: { name: 'c' }, providerSpec: {} },
        ),
      patch: async (_kind: unknown, _key: unknown, patch: any) => {
        if (patch.patch?.status) statuses.push(patch.patch.status);
        return structuredClone(machine);
      },
      create: async () => pod,
      delete: async () => undefined,
    } as unknown as Pick<Client, 'get' | 'create' | 'patch' | 'delete'>;
    return { client, statuses };
  };
  const req = { namespace: 'shoot--local--local', name: 'm1' };

  it('stays Pending until its Node has joined the shoot and is Ready, then is Running', async () => {
    const joining = seed('Pending');
    const waiting = new MachineReconciler(joining.client, undefined, undefined, undefined, async () => false);
    expect(await waiting.reconcile(req)).toEqual({ requeueAfter: 1000 });
    expect(joining.statuses.at(-1)?.currentStatus?.phase).toBe('Pending');
    expect(joining.statuses.at(-1)?.lastOperation?.description).toContain('Node machine-m1');

    const unreachable = seed('Pending');
    const down = new MachineReconciler(unreachable.client, undefined, undefined, undefined, async () => {
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
    const ready = new MachineReconciler(joined.client, undefined, undefined, undefined, async () => true, tokens);
    expect(await ready.reconcile(req)).toBeUndefined();
    expect(joined.statuses.at(-1)?.currentStatus?.phase).toBe('Running');
    // Running: its node-agent and kubelet have their own credentials, the bootstrap token goes.
    expect(deletedTokens).toEqual(['shoot--local--local/m1']);
  });

  it('stays Running when its Node is not Ready any more (no flapping of a running machine)', async () => {
    const running = seed('Running');
    let asked = false;
    const reconciler = new MachineReconciler(running.client, undefined, undefined, undefined, async () => {
      asked = true;
      return false;
    });
    expect(await reconciler.reconcile(req)).toBeUndefined();
    expect(asked).toBe(false);
    expect(running.statuses.every((s) => s.currentStatus?.phase !== 'Pending')).toBe(true);
  });
});

describe("a new Machine's bootstrap token (machine-controller-manager's)", () => {
  const userData =
    'files:\n- {path: /var/lib/gardener-node-agent/credentials/bootstrap-token, content: <<BOOTSTRAP_TOKEN>>}\n';
  /** A seed with a Machine, its class and the class's user data Secret; records creations and applies. */
  const seed = (classUserData: string) => {
    const created: any[] = [];
    const applied: any[] = [];
    const machine = {
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'Machine',
      metadata: {
        name: 'm1',
        namespace: 'shoot--local--local',
        uid: 'u1',
        finalizers: ['machine.sapcloud.io/machine-controller-manager'],
      },
      spec: { class: { name: 'c' } },
      status: { currentStatus: { phase: 'Pending' } },
    };
    const client = {
      get: async (kind: { kind: string }) => {
        if (kind.kind === 'Machine') return structuredClone(machine);
        if (kind.kind === 'MachineClass')
          return { metadata: { name: 'c' }, providerSpec: {}, secretRef: { name: 'c' } };
        if (kind.kind === 'Secret') return { data: { userData: Buffer.from(classUserData).toString('base64') } };
        throw new ApiError(404, 'NotFound', 'not found');
      },
      patch: async (_kind: unknown, _key: unknown, patch: any) => {
        if (patch.type === 'apply') applied.push(patch.patch);
        return structuredClone(machine);
      },
      create: async (obj: any) => {
        created.push(obj);
        return { ...obj, status: { phase: 'Pending' } };
      },
      delete: async () => undefined,
    } as unknown as Pick<Client, 'get' | 'create' | 'patch' | 'delete'>;
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
