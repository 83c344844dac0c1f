// The machines of a local Worker through a control plane migration: migrate releases them without touching the shoot
// (no drain, no Node deleted) and deletes their Pods; restore recreates the kept MachineSets and Machines under their
// names, labels and owners, held until all exist, and the machine controller then gives each a new Pod with a new
// bootstrap token.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RequeueAfterError, type ActuatorContext, type ExtensionObject } from '@gardener-ts/extensions';
import { MachineReconciler } from '../../machine/controller/machine/reconciler.js';
import { MachineDeploymentReconciler } from '../../machine/controller/machinedeployment/reconciler.js';
import { MachineSetReconciler } from '../../machine/controller/machineset/reconciler.js';
import { MachineMigrationAnnotation, type Machine, type MachineSet } from '../../machine/objects.js';
import { WorkerActuator } from './actuator.js';
import { MemoryClient } from './memory-client.testing.js';
import { wantedMachines } from './machines.js';
import { machineStateOfWorker, restorePlan, type MachineDeploymentState } from './migration.js';

const namespace = 'shoot--local--local';
const deployment = `${namespace}-worker-z1`;
const finalizer = 'machine.sapcloud.io/machine-controller-manager';
const userData = Buffer.from('#!/bin/sh\ntoken=<<BOOTSTRAP_TOKEN>>\n').toString('base64');

const worker = (state?: unknown): ExtensionObject =>
  ({
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Worker',
    metadata: { name: 'local', namespace },
    spec: {
      type: 'local',
      region: 'local',
      pools: [
        {
          name: 'worker',
          machineType: 'local',
          minimum: 1,
          maximum: 3,
          maxSurge: 1,
          maxUnavailable: 0,
          userDataSecretRef: { name: 'worker-ud', key: 'userData' },
        },
      ],
    },
    ...(state !== undefined ? { status: { state } } : {}),
  }) as unknown as ExtensionObject;

const ctx = (client: MemoryClient): ActuatorContext =>
  ({
    client,
    log: { warn: () => undefined, info: () => undefined, debug: () => undefined },
    signal: new AbortController().signal,
  }) as unknown as ActuatorContext;

// The class the pool's machines have (the Worker writes it again on restore).
const className = wantedMachines(
  { metadata: { namespace }, spec: worker().spec as unknown as Parameters<typeof wantedMachines>[0]['spec'] },
  {},
).machineClasses[0]!.metadata!.name!;

const set = (hash: string): MachineSet => ({
  apiVersion: 'machine.sapcloud.io/v1alpha1',
  kind: 'MachineSet',
  metadata: { name: `${deployment}-${hash}`, namespace, labels: { name: deployment, 'machine-template-hash': hash } },
  spec: {
    replicas: 2,
    machineClass: { kind: 'MachineClass', name: className },
    selector: { matchLabels: { name: deployment, 'machine-template-hash': hash } },
    template: {
      metadata: { labels: { name: deployment, 'machine-template-hash': hash } },
      spec: { class: { name: className } },
    },
  },
});
const machine = (name: string, hash = 'h1'): Machine => ({
  apiVersion: 'machine.sapcloud.io/v1alpha1',
  kind: 'Machine',
  metadata: {
    name,
    namespace,
    labels: { name: deployment, 'machine-template-hash': hash, node: `machine-${name}` },
    annotations: { 'example.com/kept': 'yes' },
  },
  spec: { class: { name: className } },
});

describe('migrating a local Worker', () => {
  const seed = () => {
    const owned = (kind: string, name: string) => [
      { apiVersion: 'machine.sapcloud.io/v1alpha1', kind, name, uid: `uid-${name}`, controller: true },
    ];
    return new MemoryClient([
      {
        apiVersion: 'machine.sapcloud.io/v1alpha1',
        kind: 'MachineDeployment',
        metadata: { name: deployment, namespace, uid: `uid-${deployment}`, finalizers: [finalizer] },
        spec: { replicas: 2 },
      },
      {
        ...set('h1'),
        metadata: {
          ...set('h1').metadata,
          uid: `uid-${deployment}-h1`,
          finalizers: [finalizer],
          ownerReferences: owned('MachineDeployment', deployment),
        },
      },
      ...['m1', 'm2'].map((n) => ({
        ...machine(n),
        metadata: {
          ...machine(n).metadata,
          finalizers: [finalizer],
          ownerReferences: owned('MachineSet', `${deployment}-h1`),
        },
        status: { currentStatus: { phase: 'Running' } },
      })),
      ...['m1', 'm2'].map((n) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `machine-${n}`,
          namespace,
          labels: { app: 'machine', 'machine.sapcloud.io/provider': 'local' },
        },
      })),
      ...['m1', 'm2'].map((n) => ({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `machine-${n}-userdata`, namespace },
      })),
    ]);
  };

  it('releases the machine objects (held, finalizers removed, kept for the ShootState) and deletes their Pods', async () => {
    const client = seed();
    const actuator = new WorkerActuator();
    // The Pods were there: migrate waits until they are gone.
    await expect(actuator.migrate(ctx(client), worker())).rejects.toBeInstanceOf(RequeueAfterError);
    await actuator.migrate(ctx(client), worker());

    for (const kind of ['MachineDeployment', 'MachineSet', 'Machine']) {
      const objects = client.all(kind);
      expect(objects.length, kind).toBeGreaterThan(0);
      for (const obj of objects) {
        expect(obj.metadata?.annotations?.[MachineMigrationAnnotation], kind).toBe('migrate');
        expect(obj.metadata?.finalizers ?? [], kind).not.toContain(finalizer);
        expect(obj.metadata?.deletionTimestamp, kind).toBeUndefined();
      }
    }
    expect(client.all('Machine').map((m) => m.metadata?.labels?.node)).toEqual(['machine-m1', 'machine-m2']);
    expect(client.all('Pod')).toEqual([]);
    expect(client.all('Secret')).toEqual([]);
    // Nothing was drained or deleted in the shoot, and no machine object was deleted (the gardenlet does that).
    expect(client.calls.filter((c) => c.kind === 'Node' || c.kind === 'Eviction')).toEqual([]);
    expect(
      client.calls.filter(
        (c) => c.verb === 'delete' && ['Machine', 'MachineSet', 'MachineDeployment'].includes(c.kind),
      ),
    ).toEqual([]);
  });

  it('a released machine, deleted with its namespace, goes without a drain or the deletion of its Node', async () => {
    const client = seed();
    await new WorkerActuator().migrate(ctx(client), worker()).catch(() => undefined);
    // A finalizer that came back (a controller raced the release) does not make the deletion drain.
    const m1 = client.find('Machine', namespace, 'm1')!;
    await client.patch(
      { kind: 'Machine' } as never,
      { namespace, name: 'm1' },
      {
        type: 'merge',
        patch: { metadata: { finalizers: [finalizer] } },
      },
    );
    await client.delete({ kind: 'Machine' } as never, { namespace, name: 'm1' });
    const touched: string[] = [];
    const reconciler = new MachineReconciler(
      client,
      () => new Date(),
      async (_ns, node) => void touched.push(`delete ${node}`),
      undefined,
      undefined,
      { ensure: async () => 'x.y', delete: async (_ns, m) => void touched.push(`token ${m}`) },
      {
        drain: async (_ns, request) => (
          touched.push(`drain ${request.nodeName}`),
          { state: 'Done', message: '', warnings: [] }
        ),
      },
    );
    expect(m1.metadata?.annotations?.[MachineMigrationAnnotation]).toBe('migrate');
    await reconciler.reconcile({ namespace, name: 'm1' });
    expect(client.find('Machine', namespace, 'm1')).toBeUndefined();
    expect(touched).toEqual([]);
    // A held machine that is not deleted is left alone: no finalizer, no Pod, no status.
    const before = client.find('Machine', namespace, 'm2');
    await reconciler.reconcile({ namespace, name: 'm2' });
    expect(client.find('Machine', namespace, 'm2')).toEqual(before);
    expect(client.all('Pod')).toEqual([]);
  });
});

describe('restoring a local Worker from the machine state', () => {
  const state: Record<string, MachineDeploymentState> = {
    [deployment]: { replicas: 2, machineSets: [set('h1')], machines: [machine('m1'), machine('m2')] },
    'not-wanted-any-more': { replicas: 1, machineSets: [set('h9')], machines: [machine('gone', 'h9')] },
  };
  const seed = () =>
    new MemoryClient([
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'worker-ud', namespace }, data: { userData } },
    ]);

  it('recreates the MachineSets and Machines under their names, labels and owners, then hands them over', async () => {
    const client = seed();
    const actuator = new WorkerActuator({ rolloutWaitMs: 0, pollMs: 1 });
    // Nothing rolls the deployment out here: the reconcile after the restore reports it is waiting.
    await expect(actuator.restore(ctx(client), worker({ machineDeployments: state }))).rejects.toBeInstanceOf(
      RequeueAfterError,
    );

    const md = client.find('MachineDeployment', namespace, deployment)!;
    expect(md.spec?.replicas).toBe(2);
    const ms = client.find('MachineSet', namespace, `${deployment}-h1`)!;
    expect(ms.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'MachineDeployment', uid: md.metadata?.uid }),
    ]);
    expect(ms.spec).toEqual(set('h1').spec);
    const machines = client.all('Machine');
    expect(machines.map((m) => m.metadata?.name)).toEqual(['m1', 'm2']);
    for (const m of machines) {
      expect(m.metadata?.labels?.node).toBe(`machine-${m.metadata?.name}`);
      expect(m.metadata?.annotations).toEqual({ 'example.com/kept': 'yes' });
      expect(m.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'MachineSet', uid: ms.metadata?.uid }),
      ]);
      expect(m.status).toBeUndefined();
    }
    // Handed to the machine controller: nothing held any more; a deployment no pool wants is not restored.
    for (const obj of [md, ms, ...machines])
      expect(obj.metadata?.annotations?.[MachineMigrationAnnotation]).toBeUndefined();
    expect(client.find('Machine', namespace, 'gone')).toBeUndefined();
    // Held while they were created: the machines were written held, and released only after all existed.
    const writes = client.calls.filter((c) => c.kind === 'Machine');
    expect(
      writes.slice(0, 2).map((c) => (c.body as Machine).metadata?.annotations?.[MachineMigrationAnnotation]),
    ).toEqual(['restore', 'restore']);
  });

  it('does not bring back machines on a retried restore, and drops the machine state once restored', async () => {
    const client = seed();
    const actuator = new WorkerActuator({ rolloutWaitMs: 0, pollMs: 1 });
    await actuator.restore(ctx(client), worker({ machineDeployments: state })).catch(() => undefined);
    await client.delete({ kind: 'Machine' } as never, { namespace, name: 'm2' }); // replaced by its set meanwhile
    // The deployment rolled out.
    const md = client.find('MachineDeployment', namespace, deployment)!;
    await client.patch(
      { kind: 'MachineDeployment' } as never,
      { namespace, name: deployment },
      {
        type: 'merge',
        patch: {
          status: {
            observedGeneration: md.metadata?.generation ?? 0,
            replicas: 2,
            updatedReplicas: 2,
            availableReplicas: 2,
          },
        },
      },
    );
    const result = await actuator.restore(ctx(client), worker({ machineDeployments: state, own: 'kept' }));
    expect(client.find('Machine', namespace, 'm2')).toBeUndefined();
    expect(result.state).toEqual({ own: 'kept' });
  });

  it('gives a restored machine a new Pod with a new bootstrap token; its Node name stays', async () => {
    const client = seed();
    await new WorkerActuator({ rolloutWaitMs: 0, pollMs: 1 })
      .restore(ctx(client), worker({ machineDeployments: state }))
      .catch(() => undefined);
    const tokens: string[] = [];
    const shoot: string[] = [];
    const reconciler = new MachineReconciler(
      client,
      () => new Date('2026-11-29T10:05:00Z'),
      async (_ns, node) => void shoot.push(`delete Node ${node}`),
      undefined,
      undefined,
      {
        ensure: async (_ns, name) => (tokens.push(name), `abcdef.${name}0000000000`.slice(0, 23)),
        delete: async () => undefined,
      },
    );
    for (const name of ['m1', 'm2']) await reconciler.reconcile({ namespace, name });
    expect(tokens).toEqual(['m1', 'm2']);
    // The Nodes the former VMs left go first: gardener-resource-manager honours a bootstrap token only without one.
    expect(shoot).toEqual(['delete Node machine-m1', 'delete Node machine-m2']);
    expect(client.all('Pod').map((p) => p.metadata?.name)).toEqual(['machine-m1', 'machine-m2']);
    const secret = client.find('Secret', namespace, 'machine-m1-userdata')!;
    expect(Buffer.from(secret.data.userData, 'base64').toString()).toContain('token=abcdef.m1');
    const m1 = client.find('Machine', namespace, 'm1')!;
    expect(m1.metadata?.labels?.node).toBe('machine-m1');
    expect(m1.status?.currentStatus?.phase).toBe('Pending');
  });

  it('keeps a restored machine Pending while its kept Node is from before its Pod, Running once the kubelet reports', async () => {
    const client = seed();
    await new WorkerActuator({ rolloutWaitMs: 0, pollMs: 1 })
      .restore(ctx(client), worker({ machineDeployments: state }))
      .catch(() => undefined);
    const deletedTokens: string[] = [];
    let heartbeat = '2026-11-29T09:00:00Z'; // the source seed's kubelet, before the migration
    const reconciler = new MachineReconciler(
      client,
      () => new Date('2026-11-29T10:05:00Z'),
      undefined,
      undefined,
      async () => ({
        state: 'Ready',
        nodeConditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: heartbeat }],
      }),
      { ensure: async () => 'abcdef.0123456789abcdef', delete: async (_ns, name) => void deletedTokens.push(name) },
    );
    const req = { namespace, name: 'm1' };
    await reconciler.reconcile(req);
    // The machine Pod (created 10:00:00 by the memory seed) runs and is ready.
    await client.patch(
      { kind: 'Pod' } as never,
      { namespace, name: 'machine-m1' },
      {
        type: 'merge',
        patch: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
      },
    );
    await reconciler.reconcile(req);
    let m1 = client.find('Machine', namespace, 'm1')!;
    expect(m1.status?.currentStatus?.phase).toBe('Pending');
    expect(m1.status?.lastOperation?.description).toContain('register Node machine-m1 again');
    expect(deletedTokens).toEqual([]);
    // The new kubelet registered the same Node and reported.
    heartbeat = '2026-11-29T10:00:30Z';
    await reconciler.reconcile(req);
    m1 = client.find('Machine', namespace, 'm1')!;
    expect(m1.status?.currentStatus?.phase).toBe('Running');
    expect(deletedTokens).toEqual(['m1']);
  });
});

describe('the machine controllers and held objects', () => {
  it('neither scale a held MachineSet nor give a held MachineDeployment a new set', async () => {
    const hold = { [MachineMigrationAnnotation]: 'restore' };
    const client = new MemoryClient([
      { ...set('h1'), metadata: { ...set('h1').metadata, annotations: hold } },
      {
        apiVersion: 'machine.sapcloud.io/v1alpha1',
        kind: 'MachineDeployment',
        metadata: { name: deployment, namespace, annotations: hold },
        spec: { replicas: 2, selector: { matchLabels: { name: deployment } }, template: set('h1').spec!.template },
      },
    ]);
    await new MachineSetReconciler(client).reconcile({ namespace, name: `${deployment}-h1` });
    await new MachineDeploymentReconciler(client).reconcile({ namespace, name: deployment });
    expect(client.calls).toEqual([]);
    // Released, the set makes its machines again (the check can fail).
    await client.patch(
      { kind: 'MachineSet' } as never,
      { namespace, name: `${deployment}-h1` },
      {
        type: 'merge',
        patch: { metadata: { annotations: { [MachineMigrationAnnotation]: null } } },
      },
    );
    await new MachineSetReconciler(client).reconcile({ namespace, name: `${deployment}-h1` });
    expect(client.all('Machine')).toHaveLength(2);
  });
});

describe('machineStateOfWorker', () => {
  it('reads the handed-over machine state; names the Worker and field when it is malformed', () => {
    expect(machineStateOfWorker(worker())).toEqual({});
    expect(machineStateOfWorker(worker({ machineDeployments: state1() }))).toEqual(state1());
    expect(() => machineStateOfWorker(worker({ machineDeployments: [] }))).toThrow(
      `Worker ${namespace}/local: status.state.machineDeployments is not a map of machine deployment states`,
    );
    expect(() => machineStateOfWorker(worker({ machineDeployments: { d: { machines: [{}] } } }))).toThrow(
      'status.state.machineDeployments[d].machines is not a list of objects with metadata',
    );
  });
  const state1 = () => ({ [deployment]: { replicas: 1, machineSets: [set('h1')], machines: [machine('m1')] } });
});

describe('restorePlan', () => {
  it('partitions the kept machines of each wanted deployment into those a kept set selects and orphans', () => {
    const hash = fc.constantFrom('h1', 'h2', 'h3');
    fc.assert(
      fc.property(
        fc.uniqueArray(hash, { minLength: 0, maxLength: 3 }),
        fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 5 }), hash), {
          maxLength: 8,
          selector: (t) => t[0],
        }),
        fc.boolean(),
        (sets, machines, done) => {
          const kept = {
            [deployment]: { machineSets: sets.map(set), machines: machines.map(([n, h]) => machine(n, h)) },
          };
          const plan = restorePlan(kept, [deployment], done ? new Set([deployment]) : new Set());
          if (done || sets.length === 0) return plan.length === 0;
          const [only] = plan;
          const placed = only!.machines.map((m) => m.machine.metadata!.name!);
          expect([...placed, ...only!.orphans].sort()).toEqual(machines.map(([n]) => n).sort());
          for (const { machine: m, machineSet } of only!.machines) {
            expect(machineSet).toBe(`${deployment}-${m.metadata!.labels!['machine-template-hash']}`);
          }
          const hashOf = new Map(machines);
          return only!.orphans.every((name) => !sets.includes(hashOf.get(name)!));
        },
      ),
    );
  });
});
