import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Seed, Shoot } from '@gardener-ts/api';
import type { Condition } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../test/support/csr.js';
import { localSeed, localShoot } from '../../../test/support/examples.js';
import type { ManagedSeed } from '../../kinds.js';
import { FakeGarden } from '../testing/fake-garden.js';
import {
  managedSeedPredicate,
  mapSeedToManagedSeedSet,
  mapToControllingSet,
  seedPredicate,
  shootPredicate,
} from './add.js';
import { planManagedSeedSet } from './actuator.js';
import { ManagedSeedSetReconciler } from './reconciler.js';
import {
  comparePriority,
  newManagedSeed,
  newShoot,
  ordinalOf,
  replicaStatus,
  ReplicaStatus,
  templateRevision,
  type Replica,
} from './replica.js';
import type { ManagedSeedSet, PendingReplica } from './types.js';

const NOW = '2026-01-01T00:00:00Z';
const condition = (type: string, status = 'True'): Condition =>
  ({ type, status, reason: 'R', message: 'm', lastTransitionTime: NOW, lastUpdateTime: NOW }) as Condition;

const set = (replicas: number, pending?: PendingReplica, deleting = false): ManagedSeedSet =>
  ({
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeedSet',
    metadata: {
      name: 'set',
      namespace: 'garden',
      uid: 'set-uid',
      generation: 1,
      ...(deleting ? { deletionTimestamp: NOW } : {}),
      finalizers: ['gardener'],
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'set' } },
      template: {
        metadata: { labels: { app: 'set' } },
        spec: {
          gardenlet: { config: { seedConfig: { spec: { ingress: { domain: 'ingress.replica-name.example' } } } } },
        },
      },
      shootTemplate: {
        metadata: { labels: { app: 'set' } },
        spec: { ...localShoot('t', undefined).spec, dns: { domain: 'replica-name.example.com' } },
      },
    },
    status: {
      observedGeneration: 1,
      replicas: 0,
      readyReplicas: 0,
      nextReplicaNumber: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
      currentRevision: '',
      updateRevision: '',
      ...(pending ? { pendingReplica: pending } : {}),
    },
  }) as unknown as ManagedSeedSet;

type ShootState = 'reconciling' | 'reconciled' | 'failed' | 'deleting' | 'deleteFailed';
const shoot = (ordinal: number, state: ShootState, health = 'healthy'): Shoot => {
  const s = newShoot(set(1), ordinal);
  s.metadata!.generation = 1;
  s.metadata!.labels = { ...s.metadata!.labels, 'shoot.gardener.cloud/status': health };
  const deleting = state === 'deleting' || state === 'deleteFailed';
  if (deleting) s.metadata!.deletionTimestamp = NOW;
  const op =
    state === 'reconciled'
      ? { type: 'Reconcile', state: 'Succeeded' }
      : state === 'failed'
        ? { type: 'Create', state: 'Failed' }
        : state === 'deleteFailed'
          ? { type: 'Delete', state: 'Failed' }
          : { type: 'Create', state: 'Processing' };
  s.status = {
    observedGeneration: 1,
    lastOperation: { ...op, progress: 0, description: '', lastUpdateTime: NOW },
  } as never;
  return s;
};
const managedSeed = (ordinal: number, registered: boolean, deleting = false): ManagedSeed => {
  const ms = newManagedSeed(set(1), ordinal);
  ms.metadata!.generation = 1;
  if (deleting) ms.metadata!.deletionTimestamp = NOW;
  ms.status = {
    observedGeneration: 1,
    conditions: [condition('SeedRegistered', registered ? 'True' : 'False')],
  } as never;
  return ms;
};
const seed = (ordinal: number, ready: boolean): Seed => {
  const s = localSeed(`set-${ordinal}`, { app: 'set' });
  s.status = {
    observedGeneration: 0,
    conditions: [condition('GardenletReady', ready ? 'True' : 'False'), condition('SeedSystemComponentsHealthy')],
  } as never;
  return s;
};
const readyReplica = (ordinal: number, extra: Partial<Replica> = {}): Replica => ({
  shoot: shoot(ordinal, 'reconciled'),
  managedSeed: managedSeed(ordinal, true),
  seed: seed(ordinal, true),
  hasScheduledShoots: false,
  ...extra,
});
const plan = (s: ManagedSeedSet, replicas: Replica[], maxShootRetries = 3) =>
  planManagedSeedSet({ set: s, replicas, maxShootRetries, now: NOW });

describe('replicas', () => {
  it('reads the ordinal from the name, -1 for names not made by a set', () => {
    expect(ordinalOf('set-12')).toBe(12);
    expect(ordinalOf('my-set-0')).toBe(0);
    expect(ordinalOf('infra')).toBe(-1);
    expect(ordinalOf('set-')).toBe(-1);
  });

  it('follows the shoot until the ManagedSeed exists, then the ManagedSeed', () => {
    const r = (s: Shoot, ms?: ManagedSeed): Replica => ({
      shoot: s,
      ...(ms ? { managedSeed: ms } : {}),
      hasScheduledShoots: false,
    });
    expect(replicaStatus(r(shoot(0, 'reconciling')))).toBe(ReplicaStatus.ShootReconciling);
    expect(replicaStatus(r(shoot(0, 'reconciled')))).toBe(ReplicaStatus.ShootReconciled);
    expect(replicaStatus(r(shoot(0, 'failed')))).toBe(ReplicaStatus.ShootReconcileFailed);
    expect(replicaStatus(r(shoot(0, 'deleting')))).toBe(ReplicaStatus.ShootDeleting);
    expect(replicaStatus(r(shoot(0, 'deleteFailed')))).toBe(ReplicaStatus.ShootDeleteFailed);
    expect(replicaStatus(r(shoot(0, 'failed'), managedSeed(0, false)))).toBe(ReplicaStatus.ManagedSeedPreparing);
    expect(replicaStatus(r(shoot(0, 'reconciled'), managedSeed(0, true)))).toBe(ReplicaStatus.ManagedSeedRegistered);
    expect(replicaStatus(r(shoot(0, 'reconciled'), managedSeed(0, true, true)))).toBe(
      ReplicaStatus.ManagedSeedDeleting,
    );
  });

  it('makes a replica’s Shoot and ManagedSeed from the templates, named <set>-<ordinal>, controlled by the set', () => {
    const s = newShoot(set(1), 4);
    expect(s.metadata).toMatchObject({
      name: 'set-4',
      namespace: 'garden',
      labels: { app: 'set' },
      ownerReferences: [{ kind: 'ManagedSeedSet', name: 'set', uid: 'set-uid', controller: true }],
    });
    expect(s.spec.dns?.domain).toBe('set-4.example.com');
    const ms = newManagedSeed(set(1), 4);
    expect(ms.spec).toMatchObject({
      shoot: { name: 'set-4' },
      gardenlet: { config: { seedConfig: { spec: { ingress: { domain: 'ingress.set-4.example' } } } } },
    });
  });

  it('property: priority puts less advanced, unready, unhealthy and lower replicas first (a total order)', () => {
    const arb = fc
      .tuple(
        fc.nat(20),
        fc.constantFrom<ShootState>('reconciling', 'reconciled', 'failed'),
        fc.constantFrom('healthy', 'progressing', 'unhealthy', 'unknown'),
        fc.boolean(),
        fc.option(fc.boolean(), { nil: undefined }),
      )
      .map(([ordinal, state, health, ready, registered]) => ({
        shoot: shoot(ordinal, state, health),
        ...(registered === undefined ? {} : { managedSeed: managedSeed(ordinal, registered) }),
        seed: seed(ordinal, ready),
        hasScheduledShoots: false,
      }));
    fc.assert(
      fc.property(arb, arb, arb, (a, b, c) => {
        // Antisymmetric (compared as numbers: a comparator may answer -0 for equal replicas).
        expect(Math.sign(comparePriority(a, b)) === -Math.sign(comparePriority(b, a))).toBe(true);
        if (comparePriority(a, b) <= 0 && comparePriority(b, c) <= 0)
          expect(comparePriority(a, c)).toBeLessThanOrEqual(0);
        if (replicaStatus(a) < replicaStatus(b)) expect(comparePriority(a, b)).toBeLessThan(0);
      }),
    );
  });
});

describe('planManagedSeedSet', () => {
  it('scales out one Shoot at a time and waits for it, then creates its ManagedSeed, then waits for registration', () => {
    const first = plan(set(2), []);
    expect(first.action).toMatchObject({ type: 'createShoot', shoot: { metadata: { name: 'set-0' } } });
    expect(first.status).toMatchObject({
      replicas: 1,
      nextReplicaNumber: 1,
      pendingReplica: { name: 'set-0', reason: 'ShootReconciling', since: NOW },
    });
    expect(first.event).toEqual({ reason: 'CreatingShoot', message: 'Creating Shoot garden/set-0' });

    const pending = first.status.pendingReplica!;
    const waiting = plan(set(2, pending), [{ shoot: shoot(0, 'reconciling'), hasScheduledShoots: false }]);
    expect(waiting).toMatchObject({ done: false, event: { reason: 'WaitingForShootReconciled' } });
    expect(waiting.action).toBeUndefined();

    const reconciled = plan(set(2, pending), [{ shoot: shoot(0, 'reconciled'), hasScheduledShoots: false }]);
    expect(reconciled.action).toMatchObject({
      type: 'createManagedSeed',
      managedSeed: { metadata: { name: 'set-0' } },
    });
    expect(reconciled.status.pendingReplica).toMatchObject({ name: 'set-0', reason: 'ManagedSeedPreparing' });

    const preparing = plan(set(2, reconciled.status.pendingReplica), [
      { shoot: shoot(0, 'reconciled'), managedSeed: managedSeed(0, false), hasScheduledShoots: false },
    ]);
    expect(preparing.event?.reason).toBe('WaitingForManagedSeedRegistered');

    // Replica 0 is ready: the next one is created, after the highest ordinal.
    const next = plan(set(2, preparing.status.pendingReplica), [readyReplica(0)]);
    expect(next.action).toMatchObject({ type: 'createShoot', shoot: { metadata: { name: 'set-1' } } });
    expect(next.status).toMatchObject({ replicas: 2, readyReplicas: 1, nextReplicaNumber: 2 });
  });

  it('waits for the seed to be ready and the shoot healthy; all ready: done without a pending replica', () => {
    const pending = { name: 'set-0', reason: 'ManagedSeedPreparing' as const, since: NOW };
    expect(plan(set(1, pending), [readyReplica(0, { seed: seed(0, false) })]).status.pendingReplica).toMatchObject({
      reason: 'SeedNotReady',
    });
    expect(
      plan(set(1, pending), [readyReplica(0, { shoot: shoot(0, 'reconciled', 'progressing') })]).status.pendingReplica,
    ).toMatchObject({ reason: 'ShootNotHealthy' });
    const done = plan(set(1, pending), [readyReplica(0)]);
    expect(done).toMatchObject({ done: true, status: { replicas: 1, readyReplicas: 1 } });
    expect(done.status.pendingReplica).toBeUndefined();
  });

  it.each([
    {
      operation: 'reconciliation',
      state: 'failed',
      Operation: 'Reconciliation',
      retrying: 'ShootReconciling',
      failed: 'ShootReconcileFailed',
    },
    {
      operation: 'deletion',
      state: 'deleteFailed',
      Operation: 'Deletion',
      retrying: 'ShootDeleting',
      failed: 'ShootDeleteFailed',
    },
  ] as const)('retries a failed shoot $operation maxShootRetries times, then stops retrying', (c) => {
    const failed = [{ shoot: shoot(0, c.state), hasScheduledShoots: false }];
    let pending: PendingReplica | undefined = { name: 'set-0', reason: c.retrying, since: NOW };
    for (let i = 1; i <= 2; i++) {
      const p = plan(set(1, pending), failed, 2);
      expect(p.action).toMatchObject({ type: 'retryShoot' });
      expect(p.status.pendingReplica).toMatchObject({ reason: c.retrying, retries: i });
      expect(p.event).toEqual({
        reason: `RetryingShoot${c.Operation}`,
        message: `Retrying Shoot garden/set-0 ${c.operation}`,
      });
      pending = p.status.pendingReplica;
    }
    const stop = plan(set(1, pending), failed, 2);
    expect(stop.action).toBeUndefined();
    expect(stop.status.pendingReplica).toMatchObject({ reason: c.failed, retries: 2 });
    expect(stop.event).toEqual({
      reason: `NotRetryingShoot${c.Operation}`,
      message: `Not retrying Shoot garden/set-0 ${c.operation} since max retries have been reached`,
    });
  });

  it('scales in by the lowest-priority deletable replica: its ManagedSeed first, then its Shoot', () => {
    const replicas = [readyReplica(0), readyReplica(1, { seed: seed(1, false) }), readyReplica(2)];
    const p = plan(set(2), replicas);
    expect(p.action).toMatchObject({ type: 'deleteManagedSeed' });
    expect(p.action?.type === 'deleteManagedSeed' && p.action.replica.shoot.metadata?.name).toBe('set-1');
    expect(p.status.pendingReplica).toMatchObject({ name: 'set-1', reason: 'ManagedSeedDeleting' });

    // Protected or hosting shoots: not deletable.
    const protectedReplica = readyReplica(1, { seed: seed(1, false), hasScheduledShoots: true });
    const q = plan(set(2), [readyReplica(0), protectedReplica, readyReplica(2)]);
    expect(q.action?.type === 'deleteManagedSeed' && q.action.replica.shoot.metadata?.name).toBe('set-0');
    // Two were ready; the deleted one no longer counts.
    expect(q.status.readyReplicas).toBe(1);

    const none = plan(set(0), [readyReplica(0, { hasScheduledShoots: true })]);
    expect(none.error).toBe('no deletable replicas found');

    const shootOnly = plan(set(0), [{ shoot: shoot(0, 'reconciled'), hasScheduledShoots: false }]);
    expect(shootOnly.action).toMatchObject({ type: 'deleteShoot' });
  });

  it('on deletion scales to zero and is done once no replica is left', () => {
    expect(plan(set(3, undefined, true), [readyReplica(0)]).action).toMatchObject({ type: 'deleteManagedSeed' });
    const gone = plan(set(3, { name: 'set-0', reason: 'ShootDeleting', since: NOW }, true), []);
    expect(gone).toMatchObject({ done: true, status: { replicas: 0 } });
  });
});

describe('ManagedSeedSet triggers', () => {
  const lookup = (pending?: PendingReplica) => (ns: string, name: string) =>
    ns === 'garden' && name === 'set' ? set(1, pending) : undefined;

  it('maps owned Shoots and ManagedSeeds to their set, and Seeds through garden/<seed>', () => {
    expect(mapToControllingSet(shoot(0, 'reconciled'))).toEqual([{ namespace: 'garden', name: 'set' }]);
    expect(mapToControllingSet(localShoot('x', 'local'))).toEqual([]);
    const ms = new Map([['garden/set-0', managedSeed(0, true)]]);
    const map = mapSeedToManagedSeedSet((k) => ms.get(k), lookup());
    expect(map(seed(0, true))).toEqual([{ namespace: 'garden', name: 'set' }]);
    expect(map(seed(1, true))).toEqual([]);
  });

  it('passes only the pending replica’s progress', () => {
    const reconciling = shootPredicate(lookup({ name: 'set-0', reason: 'ShootReconciling', since: NOW }));
    expect(reconciling({ type: 'update', oldObject: shoot(0, 'reconciling'), object: shoot(0, 'reconciled') })).toBe(
      true,
    );
    expect(reconciling({ type: 'update', oldObject: shoot(0, 'reconciling'), object: shoot(0, 'reconciling') })).toBe(
      false,
    );
    // Another replica's shoot only on deletion or health changes.
    expect(reconciling({ type: 'create', object: shoot(1, 'reconciled') })).toBe(false);
    expect(
      reconciling({ type: 'update', oldObject: shoot(1, 'reconciled'), object: shoot(1, 'reconciled', 'unhealthy') }),
    ).toBe(true);
    const deleting = shootPredicate(lookup({ name: 'set-0', reason: 'ShootDeleting', since: NOW }));
    expect(deleting({ type: 'delete', object: shoot(0, 'deleting') })).toBe(true);

    const preparing = managedSeedPredicate(lookup({ name: 'set-0', reason: 'ManagedSeedPreparing', since: NOW }));
    expect(preparing({ type: 'update', oldObject: managedSeed(0, false), object: managedSeed(0, true) })).toBe(true);
    expect(preparing({ type: 'update', oldObject: managedSeed(0, false), object: managedSeed(0, false) })).toBe(false);

    const ms = new Map([['garden/set-0', managedSeed(0, true)]]);
    const notReady = seedPredicate((k) => ms.get(k), lookup({ name: 'set-0', reason: 'SeedNotReady', since: NOW }));
    expect(notReady({ type: 'create', object: seed(0, true) })).toBe(true);
    expect(notReady({ type: 'create', object: seed(0, false) })).toBe(false);
    expect(notReady({ type: 'update', oldObject: seed(0, false), object: seed(0, true) })).toBe(true);
  });
});

describe('ManagedSeedSetReconciler', () => {
  const key = { namespace: 'garden', name: 'set' };
  const reconciler = (g: FakeGarden, api: FakeGarden = g) =>
    new ManagedSeedSetReconciler({
      client: g,
      api,
      syncPeriodMs: 1_800_000,
      maxShootRetries: 3,
      now: () => new Date(NOW),
    });

  it('adds the finalizer, creates the first replica’s Shoot and records the pending replica', async () => {
    const s = set(1);
    s.metadata!.finalizers = [];
    const garden = new FakeGarden(s);
    expect(await reconciler(garden).reconcile(key, silentContext())).toEqual({ requeueAfter: 1_800_000 });
    const stored = garden.find<ManagedSeedSet>('ManagedSeedSet', 'garden', 'set')!;
    expect(stored.metadata?.finalizers).toEqual(['gardener']);
    expect(stored.status).toMatchObject({
      replicas: 1,
      nextReplicaNumber: 1,
      pendingReplica: { name: 'set-0', reason: 'ShootReconciling', since: NOW },
    });
    expect(garden.find<Shoot>('Shoot', 'garden', 'set-0')?.spec.dns?.domain).toBe('set-0.example.com');
  });

  it('deletes a shoot with the deletion confirmation, and removes the finalizer once the replicas are gone', async () => {
    const garden = new FakeGarden(set(0, undefined, true), shoot(0, 'reconciled'));
    await reconciler(garden).reconcile(key, silentContext());
    expect(garden.writes).toContain('delete Shoot garden/set-0');
    expect(garden.find('Shoot', 'garden', 'set-0')).toBeUndefined();
    await reconciler(garden).reconcile(key, silentContext());
    expect(garden.find<ManagedSeedSet>('ManagedSeedSet', 'garden', 'set')?.metadata?.finalizers).toEqual([]);
  });

  it('rolls a template change out by merge-patching the Shoot and ManagedSeed, and records the revisions', async () => {
    const oldRevision = templateRevision(set(1));
    const s = set(1);
    s.spec.shootTemplate.spec.dns = { domain: 'replica-name.new.example.com' };
    s.status = { ...s.status, currentRevision: oldRevision } as never;
    const existing = shoot(0, 'reconciled');
    existing.spec.seedName = 'local';
    const garden = new FakeGarden(s, existing, managedSeed(0, true), seed(0, true));
    await reconciler(garden).reconcile(key, silentContext());
    const patched = garden.find<Shoot>('Shoot', 'garden', 'set-0')!;
    const newRevision = templateRevision(s);
    expect(patched.spec.dns?.domain).toBe('set-0.new.example.com');
    expect(patched.spec.seedName).toBe('local');
    expect(patched.metadata?.labels).toMatchObject({
      'controller-revision-hash': newRevision,
      'shoot.gardener.cloud/status': 'healthy',
    });
    expect(
      garden.find<ManagedSeed>('ManagedSeed', 'garden', 'set-0')?.metadata?.labels?.['controller-revision-hash'],
    ).toBe(newRevision);
    expect(garden.find<ManagedSeedSet>('ManagedSeedSet', 'garden', 'set')?.status).toMatchObject({
      updatedReplicas: 1,
      currentReplicas: 0,
      currentRevision: oldRevision,
      updateRevision: newRevision,
      collisionCount: 0,
      pendingReplica: { name: 'set-0', reason: 'ShootReconciling' },
    });
  });

  it('refuses to act on a stale cache, naming the set', async () => {
    const garden = new FakeGarden(set(2), shoot(0, 'reconciled'));
    const live = new FakeGarden(shoot(0, 'reconciled'), shoot(1, 'reconciling'));
    const err = await reconciler(garden, live)
      .reconcile(key, silentContext())
      .catch((e: Error) => e);
    expect((err as Error).message).toBe('could not reconcile ManagedSeedSet garden/set creation or update');
    expect(((err as Error).cause as Error).message).toBe('cross-checking number of shoots failed');
  });
});

describe('rolling updates', () => {
  /** `set(replicas)` with a changed shoot template (DNS domain) and/or ManagedSeed template (ingress domain). */
  const updatedSet = (replicas: number, partition?: number, change: { shoot?: boolean; seed?: boolean } = {}) => {
    const s = set(replicas);
    if (change.shoot ?? true) s.spec.shootTemplate.spec.dns = { domain: 'replica-name.new.example.com' };
    if (change.seed) {
      (s.spec.template.spec.gardenlet as any).config.seedConfig.spec.ingress.domain = 'ingress.replica-name.new';
    }
    if (partition !== undefined) s.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition } };
    return s;
  };
  const withStatus = (s: ManagedSeedSet, status: object | undefined) => {
    const c = structuredClone(s);
    c.status = { ...c.status, ...status } as never;
    return c;
  };
  /** What the update does in the garden: the patched objects, their generation up where the spec changed. */
  const applyUpdate = (r: Replica, shootObj: Shoot, ms?: ManagedSeed): Replica => {
    const bump = (before: { metadata?: { generation?: number } }, same: boolean) =>
      (before.metadata?.generation ?? 1) + (same ? 0 : 1);
    const shootSame = JSON.stringify(shootObj.spec) === JSON.stringify(r.shoot.spec);
    const nextShoot = {
      ...r.shoot,
      metadata: { ...r.shoot.metadata, labels: { ...r.shoot.metadata?.labels, ...shootObj.metadata?.labels } },
      spec: shootObj.spec,
    };
    nextShoot.metadata.generation = bump(r.shoot, shootSame);
    let nextMs = r.managedSeed;
    if (ms && r.managedSeed) {
      const msSame = JSON.stringify(ms.spec) === JSON.stringify(r.managedSeed.spec);
      nextMs = {
        ...r.managedSeed,
        metadata: { ...r.managedSeed.metadata, labels: ms.metadata?.labels },
        spec: ms.spec,
      };
      nextMs.metadata!.generation = bump(r.managedSeed, msSame);
    }
    return { ...r, shoot: nextShoot as Shoot, ...(nextMs ? { managedSeed: nextMs } : {}) };
  };
  /** The gardenlet catches up: the Shoot reconciled and the ManagedSeed registered at their generations. */
  const catchUp = (r: Replica): Replica => {
    const shootObj = structuredClone(r.shoot);
    (shootObj.status as any).observedGeneration = shootObj.metadata!.generation;
    const ms = r.managedSeed && structuredClone(r.managedSeed);
    if (ms) (ms.status as any).observedGeneration = ms.metadata!.generation;
    return { ...r, shoot: shootObj, ...(ms ? { managedSeed: ms } : {}) };
  };

  it('revisions change with the templates only, and with the collision count', () => {
    const rev = templateRevision(set(1));
    expect(rev).toMatch(/^set-[0-9a-f]{10}$/);
    expect(templateRevision(set(5))).toBe(rev);
    expect(templateRevision(updatedSet(1))).not.toBe(rev);
    expect(templateRevision(updatedSet(1, 0, { shoot: false, seed: true }))).not.toBe(rev);
    expect(templateRevision(withStatus(set(1), { collisionCount: 1 }))).not.toBe(rev);
    // Key order does not matter.
    const reordered = set(1);
    reordered.spec.shootTemplate = {
      spec: reordered.spec.shootTemplate.spec,
      metadata: reordered.spec.shootTemplate.metadata,
    };
    expect(templateRevision(reordered)).toBe(rev);
    expect(newShoot(set(1), 0).metadata?.labels?.['controller-revision-hash']).toBe(rev);
    expect(newManagedSeed(set(1), 0).metadata?.labels?.['controller-revision-hash']).toBe(rev);
  });

  it('updates the highest outdated replica at or above the partition, then waits for its Shoot and ManagedSeed', () => {
    const oldRevision = templateRevision(set(3));
    const replicas = [readyReplica(0), readyReplica(1), readyReplica(2)];
    const first = plan(withStatus(updatedSet(3, 1), { currentRevision: oldRevision }), replicas);
    expect(first.action).toMatchObject({
      type: 'updateReplica',
      shoot: { metadata: { name: 'set-2' }, spec: { dns: { domain: 'set-2.new.example.com' } } },
      managedSeed: { metadata: { name: 'set-2' } },
    });
    const newRevision = templateRevision(updatedSet(3));
    expect(first.status).toMatchObject({
      updatedReplicas: 1,
      currentReplicas: 2,
      currentRevision: oldRevision,
      updateRevision: newRevision,
      collisionCount: 0,
      pendingReplica: { name: 'set-2', reason: 'ShootReconciling' },
    });
    expect(first.event).toEqual({
      reason: 'UpdatingReplica',
      message: `Updating Shoot and ManagedSeed garden/set-2 to revision ${newRevision}`,
    });
    if (first.action?.type !== 'updateReplica') throw new Error('expected an update');

    // The updated Shoot reconciles: the set waits, also after a failure (retried as on creation).
    const updated = applyUpdate(replicas[2]!, first.action.shoot, first.action.managedSeed);
    const next = withStatus(updatedSet(3, 1), first.status);
    const waiting = plan(next, [replicas[0]!, replicas[1]!, updated]);
    expect(waiting).toMatchObject({ done: false, event: { reason: 'WaitingForShootReconciled' } });
    expect(waiting.action).toBeUndefined();
    const failedShoot = structuredClone(updated.shoot);
    failedShoot.status = { observedGeneration: 2, lastOperation: { type: 'Reconcile', state: 'Failed' } } as never;
    expect(plan(next, [replicas[0]!, replicas[1]!, { ...updated, shoot: failedShoot }]).action).toMatchObject({
      type: 'retryShoot',
    });

    // Reconciled and ready: the next one (set-1); set-0 is below the partition and stays.
    const second = plan(next, [replicas[0]!, replicas[1]!, catchUp(updated)]);
    expect(second.action).toMatchObject({ type: 'updateReplica', shoot: { metadata: { name: 'set-1' } } });
    expect(second.status).toMatchObject({ updatedReplicas: 2, currentReplicas: 1 });
  });

  it('waits for the ManagedSeed when only its template changed; creates new replicas at the new revision', () => {
    const s = updatedSet(1, undefined, { shoot: false, seed: true });
    const p = plan(s, [readyReplica(0)]);
    expect(p.action).toMatchObject({
      type: 'updateReplica',
      managedSeed: {
        spec: { gardenlet: { config: { seedConfig: { spec: { ingress: { domain: 'ingress.set-0.new' } } } } } },
      },
    });
    expect(p.status.pendingReplica).toMatchObject({ reason: 'ManagedSeedPreparing' });

    const out = plan(updatedSet(2), []);
    expect(out.action).toMatchObject({
      type: 'createShoot',
      shoot: { metadata: { labels: { 'controller-revision-hash': templateRevision(updatedSet(2)) } } },
    });
    expect(out.status).toMatchObject({ updatedReplicas: 1, currentRevision: templateRevision(updatedSet(2)) });
  });

  it('does not update while scaling or while a replica is not ready', () => {
    expect(plan(updatedSet(3), [readyReplica(0), readyReplica(1)]).action).toMatchObject({ type: 'createShoot' });
    expect(plan(updatedSet(1), [readyReplica(0), readyReplica(1)]).action).toMatchObject({ type: 'deleteManagedSeed' });
    const unready = plan(updatedSet(2), [readyReplica(0), readyReplica(1, { seed: seed(1, false) })]);
    expect(unready).toMatchObject({ event: { reason: 'WaitingForSeedReady' } });
    expect(unready.action).toBeUndefined();
  });

  it('property: rolls out exactly the replicas at or above the partition, highest first, one at a time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 6 }), (n, partition) => {
        const oldRevision = templateRevision(set(n));
        let replicas = Array.from({ length: n }, (_, i) => readyReplica(i));
        let status: object = { currentRevision: oldRevision };
        const order: number[] = [];
        for (let step = 0; step < 4 * n + 2; step++) {
          const p = plan(withStatus(updatedSet(n, partition), status), replicas);
          status = p.status;
          if (p.done) break;
          if (p.action?.type === 'updateReplica') {
            const ordinal = ordinalOf(p.action.replica.shoot.metadata!.name!);
            // One at a time: every replica updated before is reconciled and ready again.
            for (const o of order) {
              const r = replicas[o]!;
              expect(r.shoot.status?.observedGeneration).toBe(r.shoot.metadata?.generation);
            }
            order.push(ordinal);
            replicas[ordinal] = applyUpdate(replicas[ordinal]!, p.action.shoot, p.action.managedSeed);
          } else {
            expect(p.action).toBeUndefined();
            expect(p.event?.reason).toBe('WaitingForShootReconciled');
            replicas = replicas.map(catchUp);
          }
        }
        const expected = Array.from({ length: n }, (_, i) => i)
          .filter((i) => i >= partition)
          .reverse();
        expect(order).toEqual(expected);
        const final = plan(withStatus(updatedSet(n, partition), status), replicas);
        expect(final.done).toBe(true);
        expect(final.status).toMatchObject({
          updatedReplicas: expected.length,
          currentRevision: partition === 0 ? templateRevision(updatedSet(n)) : oldRevision,
          currentReplicas: partition === 0 ? n : n - expected.length,
        });
      }),
    );
  });
});
