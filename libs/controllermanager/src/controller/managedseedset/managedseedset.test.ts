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
