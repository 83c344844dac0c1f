// Tests of the ManagedSeedSet's ControllerRevisions: the history rules (update revision found, renumbered on a
// rollback or created, pruning), the merge patch between two template versions, and the reconciler's use of them
// (collision count, replicas below the partition at the current revision, removed template fields, events).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Shoot } from '@gardener-ts/api';
import { applyMergePatch, type Condition } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../test/support/csr.js';
import { localShoot } from '../../../test/support/examples.js';
import type { ManagedSeed } from '../../kinds.js';
import { FakeGarden } from '../testing/fake-garden.js';
import { planManagedSeedSet } from './actuator.js';
import { eventAction, ManagedSeedSetReconciler } from './reconciler.js';
import { newManagedSeed, newShoot, RevisionLabel, type Replica } from './replica.js';
import {
  mergePatchBetween,
  newRevision,
  ownedRevisions,
  revisionName,
  revisionsToPrune,
  templatesOf,
  updateRevisionStep,
  type ControllerRevision,
} from './revision.js';
import type { ManagedSeedSet } from './types.js';

const NOW = '2026-01-01T00:00:00Z';
const key = { namespace: 'garden', name: 'set' };

const makeSet = (replicas: number, domain = 'replica-name.example.com', extra: object = {}): ManagedSeedSet =>
  ({
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeedSet',
    metadata: { name: 'set', namespace: 'garden', uid: 'set-uid', generation: 1, finalizers: ['gardener'] },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'set' } },
      template: { metadata: { labels: { app: 'set' } }, spec: { gardenlet: { config: {} } } },
      shootTemplate: {
        metadata: { labels: { app: 'set' } },
        spec: { ...localShoot('t', undefined).spec, dns: { domain } },
      },
      ...extra,
    },
    status: { observedGeneration: 1, replicas: 0, currentRevision: '', updateRevision: '' },
  }) as unknown as ManagedSeedSet;

const withStatus = (s: ManagedSeedSet, status: object): ManagedSeedSet =>
  ({ ...structuredClone(s), status: { ...s.status, ...status } }) as ManagedSeedSet;

const condition = (type: string): Condition =>
  ({ type, status: 'True', reason: 'R', message: 'm', lastTransitionTime: NOW }) as Condition;

/** A replica whose Shoot is reconciled and healthy and whose ManagedSeed is registered, made by `set`. */
const readyObjects = (s: ManagedSeedSet, ordinal: number): [Shoot, ManagedSeed] => {
  const shoot = newShoot(s, ordinal);
  shoot.metadata!.generation = 1;
  shoot.metadata!.labels = { ...shoot.metadata!.labels, 'shoot.gardener.cloud/status': 'healthy' };
  shoot.status = {
    observedGeneration: 1,
    lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100, description: '', lastUpdateTime: NOW },
  } as never;
  const ms = newManagedSeed(s, ordinal);
  ms.metadata!.generation = 1;
  ms.status = { observedGeneration: 1, conditions: [condition('SeedRegistered')] } as never;
  return [shoot, ms];
};
const readySeed = (ordinal: number) => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Seed',
  metadata: { name: `set-${ordinal}`, labels: { app: 'set' }, generation: 1 },
  spec: { provider: { type: 'local' } },
  status: {
    observedGeneration: 1,
    conditions: [condition('GardenletReady'), condition('SeedSystemComponentsHealthy')],
  },
});

interface RecordedEvent {
  type: string;
  reason: string;
  action: string;
  note: string;
}
const reconciler = (g: FakeGarden, events: RecordedEvent[] = []) =>
  new ManagedSeedSetReconciler({
    client: g,
    api: g,
    syncPeriodMs: 1_800_000,
    maxShootRetries: 3,
    now: () => new Date(NOW),
    events: {
      actionEvent: (_o, _r, type, reason, action, note) => void events.push({ type, reason, action, note }),
    },
  });
const revisionsIn = (g: FakeGarden) =>
  ([...g.objects.values()] as ControllerRevision[])
    .filter((o) => o.kind === 'ControllerRevision')
    .sort((a, b) => a.revision - b.revision);
const storedSet = (g: FakeGarden) => g.find<ManagedSeedSet>('ManagedSeedSet', 'garden', 'set')!;

describe('ControllerRevision history', () => {
  const a = makeSet(1);
  const b = makeSet(1, 'replica-name.b.example.com');

  it('creates the first revision, keeps the newest equal one, and renumbers an older equal one (a rollback)', () => {
    const first = updateRevisionStep(a, [], 0);
    expect(first).toMatchObject({ type: 'create', revision: { revision: 1, metadata: { name: revisionName(a, 0) } } });
    const r1 = newRevision(a, 1, 0);
    expect(r1.data).toEqual(templatesOf(a));
    expect(r1.metadata?.labels).toMatchObject({ app: 'set', 'controller.kubernetes.io/hash': expect.any(String) });
    expect(r1.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'ManagedSeedSet',
      uid: 'set-uid',
      controller: true,
    });
    expect(updateRevisionStep(a, [r1], 0)).toEqual({ type: 'existing', revision: r1 });
    const r2 = newRevision(b, 2, 0);
    expect(updateRevisionStep(b, [r1], 0)).toMatchObject({ type: 'create', revision: { revision: 2 } });
    expect(updateRevisionStep(a, [r1, r2], 0)).toEqual({ type: 'renumber', revision: r1, number: 3 });
    // The data decides, not the name: an equal revision made under another collision count is reused.
    expect(updateRevisionStep(a, [newRevision(a, 1, 4)], 0)).toMatchObject({ type: 'existing' });
  });

  it('owns only revisions the set controls, oldest first', () => {
    const mine = [newRevision(a, 2, 0), newRevision(b, 1, 0)];
    const foreign = { ...newRevision(a, 1, 0), metadata: { ...newRevision(a, 1, 0).metadata, ownerReferences: [] } };
    const other = newRevision(withStatus(a, {}), 1, 0);
    other.metadata!.ownerReferences![0]!.uid = 'other';
    expect(ownedRevisions(a, [...mine, foreign, other]).map((r) => r.revision)).toEqual([1, 2]);
  });

  it('prunes the oldest unused revisions beyond the limit, never those in use', () => {
    const history = [1, 2, 3, 4, 5].map((n) => ({ ...newRevision(a, n, 0), metadata: { name: `r${n}` } }));
    const names = (rs: ControllerRevision[]) => rs.map((r) => r.metadata!.name);
    expect(names(revisionsToPrune(history, new Set(['r1', 'r5']), 1))).toEqual(['r2', 'r3']);
    expect(names(revisionsToPrune(history, new Set(), 0))).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(revisionsToPrune(history, new Set(['r5']), 10)).toEqual([]);
  });

  it('merge patches null removed fields, write changed ones and leave the rest out', () => {
    expect(
      mergePatchBetween(
        { a: 1, b: { c: 2, d: 3 }, e: [1, 2], f: 'same' },
        { a: 2, b: { c: 2 }, e: [1], f: 'same', g: { h: 1 } },
      ),
    ).toEqual({ a: 2, b: { d: null }, e: [1], g: { h: 1 } });
    expect(mergePatchBetween({ a: 1 }, { a: 1 })).toBeUndefined();
  });

  it('property: a merge patch applied to the old value gives the new one', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.integer(),
        fc.string(),
        fc.boolean(),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    const obj = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), json, { maxKeys: 4 });
    fc.assert(
      fc.property(obj, obj, (before, after) => {
        const patch = mergePatchBetween(before, after);
        expect(applyMergePatch(before, patch ?? {})).toEqual(after);
      }),
    );
  });
});

describe('ManagedSeedSetReconciler with ControllerRevisions', () => {
  it('records one revision per distinct template pair, and renumbers the old one when the templates go back', async () => {
    const a = makeSet(0);
    const garden = new FakeGarden(a);
    await reconciler(garden).reconcile(key, silentContext());
    const [r1] = revisionsIn(garden);
    expect(r1).toMatchObject({ revision: 1, metadata: { name: revisionName(a, 0) }, data: templatesOf(a) });
    expect(storedSet(garden).status).toMatchObject({ updateRevision: revisionName(a, 0), collisionCount: 0 });

    // Unchanged templates: no new revision.
    await reconciler(garden).reconcile(key, silentContext());
    expect(revisionsIn(garden)).toHaveLength(1);

    const b = makeSet(0, 'replica-name.b.example.com');
    garden.put(withStatus(b, storedSet(garden).status!));
    await reconciler(garden).reconcile(key, silentContext());
    expect(revisionsIn(garden).map((r) => [r.metadata?.name, r.revision])).toEqual([
      [revisionName(a, 0), 1],
      [revisionName(b, 0), 2],
    ]);

    garden.put(withStatus(a, storedSet(garden).status!));
    await reconciler(garden).reconcile(key, silentContext());
    expect(revisionsIn(garden).map((r) => [r.metadata?.name, r.revision])).toEqual([
      [revisionName(b, 0), 2],
      [revisionName(a, 0), 3],
    ]);
    expect(storedSet(garden).status?.updateRevision).toBe(revisionName(a, 0));
  });

  it('raises the collision count when another revision holds the name, and labels replicas with the new name', async () => {
    const s = makeSet(1);
    const clash = newRevision(makeSet(1, 'replica-name.other.example.com'), 1, 0);
    clash.metadata!.name = revisionName(s, 0);
    const garden = new FakeGarden(s, clash);
    await reconciler(garden).reconcile(key, silentContext());
    const status = storedSet(garden).status!;
    expect(status).toMatchObject({ collisionCount: 1, updateRevision: revisionName(s, 1) });
    expect(garden.find<Shoot>('Shoot', 'garden', 'set-0')?.metadata?.labels?.[RevisionLabel]).toBe(revisionName(s, 1));
    expect(garden.find<ControllerRevision>('ControllerRevision', 'garden', revisionName(s, 1))?.data).toEqual(
      templatesOf(s),
    );
  });

  it('prunes unused revisions beyond revisionHistoryLimit, keeping the ones replicas are at', async () => {
    const versions = [1, 2, 3, 4].map((n) => makeSet(1, `replica-name.v${n}.example.com`, { revisionHistoryLimit: 1 }));
    const history = versions.map((v, i) => newRevision(v, i + 1, 0));
    const [shoot, ms] = readyObjects(versions[0]!, 0);
    const s = makeSet(1, 'replica-name.v5.example.com', { revisionHistoryLimit: 1 });
    const garden = new FakeGarden(
      withStatus(s, { currentRevision: history[0]!.metadata!.name, replicas: 1, nextReplicaNumber: 1 }),
      ...history,
      shoot,
      ms,
      readySeed(0),
    );
    await reconciler(garden).reconcile(key, silentContext());
    // v1: replica and current revision; v5: the update revision; of v2..v4 only the newest one is kept.
    expect(revisionsIn(garden).map((r) => r.metadata?.name)).toEqual([
      history[0]!.metadata!.name,
      history[3]!.metadata!.name,
      revisionName(s, 0),
    ]);
  });

  it('updates a replica with the difference between its revision and the update revision', async () => {
    const old = makeSet(1);
    old.spec.shootTemplate.metadata = { labels: { app: 'set', dropped: 'x' }, annotations: { note: 'old' } };
    (old.spec.shootTemplate.spec as { purpose?: string }).purpose = 'testing';
    const [shoot, ms] = readyObjects(old, 0);
    shoot.spec.seedName = 'local';
    const s = makeSet(1, 'replica-name.new.example.com');
    const garden = new FakeGarden(
      withStatus(s, { currentRevision: revisionName(old, 0), replicas: 1, nextReplicaNumber: 1 }),
      newRevision(old, 1, 0),
      shoot,
      ms,
      readySeed(0),
    );
    await reconciler(garden).reconcile(key, silentContext());
    const patched = garden.find<Shoot>('Shoot', 'garden', 'set-0')!;
    expect(patched.spec.dns?.domain).toBe('set-0.new.example.com');
    expect((patched.spec as { purpose?: string }).purpose).toBeUndefined();
    expect(patched.spec.seedName).toBe('local');
    expect(patched.metadata?.labels).not.toHaveProperty('dropped');
    expect(patched.metadata?.annotations ?? {}).not.toHaveProperty('note');
    expect(patched.metadata?.labels).toMatchObject({
      [RevisionLabel]: revisionName(s, 0),
      'shoot.gardener.cloud/status': 'healthy',
    });
  });

  it('records Gardener’s events: Normal with the step’s reason and action, Warning ReconcileError on failure', async () => {
    const events: RecordedEvent[] = [];
    const garden = new FakeGarden(makeSet(1));
    await reconciler(garden, events).reconcile(key, silentContext());
    expect(events).toEqual([
      { type: 'Normal', reason: 'CreatingShoot', action: 'Reconcile', note: 'Creating Shoot garden/set-0' },
    ]);

    const s = makeSet(0);
    const [shoot, ms] = readyObjects(s, 0);
    shoot.metadata!.annotations = { 'seedmanagement.gardener.cloud/protect-from-deletion': 'true' };
    const protectedGarden = new FakeGarden(s, shoot, ms, readySeed(0));
    const failing: RecordedEvent[] = [];
    await expect(reconciler(protectedGarden, failing).reconcile(key, silentContext())).rejects.toThrow(
      'could not reconcile ManagedSeedSet garden/set creation or update',
    );
    expect(failing).toEqual([
      { type: 'Warning', reason: 'ReconcileError', action: 'Reconcile', note: 'no deletable replicas found' },
    ]);
    expect(eventAction('WaitingForManagedSeedDeleted')).toBe('Delete');
    expect(eventAction('RetryingShootDeletion')).toBe('Delete');
    expect(eventAction('WaitingForSeedReady')).toBe('Reconcile');
  });
});

describe('replicas below the partition', () => {
  it('are created from the current revision; those at or above it from the update revision', () => {
    const old = makeSet(3);
    const s = makeSet(3, 'replica-name.new.example.com', {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
    });
    const current = revisionName(old, 0);
    const update = revisionName(s, 0);
    const revisions = {
      update,
      current,
      collisionCount: 0,
      templates: new Map([
        [current, templatesOf(old)],
        [update, templatesOf(s)],
      ]),
    };
    const replicaOf = (set: ManagedSeedSet, ordinal: number): Replica => {
      const [shoot, managedSeed] = readyObjects(set, ordinal);
      return { shoot, managedSeed, seed: readySeed(ordinal) as never, hasScheduledShoots: false };
    };
    const plan = (replicas: Replica[]) =>
      planManagedSeedSet({ set: s, replicas, maxShootRetries: 3, now: NOW, revisions });

    const below = plan([replicaOf(old, 0)]);
    expect(below.action).toMatchObject({
      type: 'createShoot',
      shoot: {
        metadata: { name: 'set-1', labels: { [RevisionLabel]: current } },
        spec: { dns: { domain: 'set-1.example.com' } },
      },
    });
    expect(below.status).toMatchObject({ updatedReplicas: 0, currentRevision: current, updateRevision: update });

    const above = plan([replicaOf(old, 0), replicaOf(old, 1)]);
    expect(above.action).toMatchObject({
      type: 'createShoot',
      shoot: { metadata: { name: 'set-2', labels: { [RevisionLabel]: update } } },
    });
    expect(above.status.updatedReplicas).toBe(1);

    // A replica's ManagedSeed is made from the revision its Shoot was made from.
    const [shoot] = readyObjects(old, 1);
    const msPlan = plan([replicaOf(old, 0), { shoot, hasScheduledShoots: false }, replicaOf(s, 2)]);
    expect(msPlan.action).toMatchObject({
      type: 'createManagedSeed',
      managedSeed: { metadata: { name: 'set-1', labels: { [RevisionLabel]: current } } },
    });
  });
});
