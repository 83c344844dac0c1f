import { describe, expect, it } from 'vitest';
import type { Seed, Shoot } from '@gardener-ts/api';
import { ApiError } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { cloudProfile, seed, shoot } from '../../test/fixtures.js';
import { AssumedBindings } from './assumed.js';
import { ShootReconciler } from './reconcile.js';
import { staticSchedulingCache } from './scheduling-cache.js';

const log = createLogger({ name: 'test', level: 'silent' });

function harness(shoots: Shoot[], seeds: Seed[], { failPatch }: { failPatch?: ApiError } = {}) {
  const patches: { key: string; patch: Record<string, any>; subresource?: string }[] = [];
  const events: { name: string; type: string; reason: string; message: string }[] = [];
  const decisions: { name: string; seed?: string; reason?: string }[] = [];
  const assumed = new AssumedBindings();
  const reconciler = new ShootReconciler({
    cache: staticSchedulingCache({ shoots, seeds, cloudProfiles: [cloudProfile()] }),
    client: {
      patch: async (_kind, key, patch, opts) => {
        patches.push({
          key: `${key.namespace}/${key.name}`,
          patch: patch.patch as Record<string, any>,
          subresource: opts?.subresource,
        });
        return {} as never;
      },
      update: async (obj) => {
        if (failPatch) throw failPatch;
        const s = obj as unknown as Shoot;
        patches.push({
          key: `${s.metadata?.namespace}/${s.metadata?.name}`,
          patch: { metadata: { resourceVersion: s.metadata?.resourceVersion }, spec: { seedName: s.spec.seedName } },
        });
        return obj;
      },
    },
    events: { event: (s, type, reason, message) => events.push({ name: s.metadata!.name!, type, reason, message }) },
    decisions: { schedulingDecision: (s, d) => decisions.push({ name: s.name, seed: d.seed, reason: d.reason }) },
    strategy: 'SameRegion',
    assumed,
  });
  const reconcile = (name: string) => reconciler.reconcile({ namespace: 'garden-dev', name }, { log });
  return { reconcile, patches, events, decisions, assumed };
}

describe('ShootReconciler', () => {
  it('binds spec.seedName under the resourceVersion it decided on, records an event and publishes the decision', async () => {
    const h = harness([shoot('s')], [seed('a')]);
    expect(await h.reconcile('s')).toBeUndefined();
    expect(h.patches).toEqual([
      { key: 'garden-dev/s', patch: { metadata: { resourceVersion: '1' }, spec: { seedName: 'a' } } },
    ]);
    expect(h.events).toEqual([
      { name: 's', type: 'Normal', reason: 'SchedulingSuccessful', message: "Scheduled to seed 'a'" },
    ]);
    expect(h.decisions).toEqual([{ name: 's', seed: 'a', reason: 'SameRegion' }]);
  });

  it('counts its own bindings before the cache shows them (spreads concurrent decisions)', async () => {
    const h = harness([shoot('s1'), shoot('s2'), shoot('s3')], [seed('a'), seed('b')]);
    await Promise.all([h.reconcile('s1'), h.reconcile('s2'), h.reconcile('s3')]);
    expect(h.patches.map((p) => p.patch.spec.seedName)).toEqual(['a', 'b', 'a']);
  });

  it('honours capacity across concurrent decisions', async () => {
    const h = harness([shoot('s1'), shoot('s2')], [seed('a', (s) => (s.status!.allocatable = { shoots: '1' }))]);
    const results = await Promise.all([h.reconcile('s1'), h.reconcile('s2')]);
    expect(h.patches.filter((p) => !p.subresource)).toHaveLength(1);
    expect(results[1]).toEqual({ requeue: true });
  });

  it('ignores bound shoots, deleting shoots and shoots of other schedulers', async () => {
    const h = harness(
      [
        shoot('bound', (s) => (s.spec.seedName = 'a')),
        shoot('deleting', (s) => (s.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z')),
        shoot('other', (s) => (s.spec.schedulerName = 'custom-scheduler')),
        shoot('default', (s) => (s.spec.schedulerName = 'default-scheduler')),
      ],
      [seed('a')],
    );
    for (const name of ['bound', 'deleting', 'other', 'default', 'missing']) await h.reconcile(name);
    expect(h.patches.map((p) => p.key)).toEqual(['garden-dev/default']);
  });

  it('reports an unschedulable shoot: warning event, lastOperation Pending, a published decision, and a retry', async () => {
    const h = harness([shoot('s')], [seed('far', (s) => (s.spec.provider.region = 'us-east-1'))]);
    expect(await h.reconcile('s')).toEqual({ requeue: true });
    const message =
      "Failed to schedule Shoot: no matching seed candidate found for Configuration (Cloud Profile 'aws', Region 'eu-west-1', SeedDeterminationStrategy 'SameRegion'): {far => region \"us-east-1\" differs from the shoot's region \"eu-west-1\"}";
    expect(h.events).toEqual([{ name: 's', type: 'Warning', reason: 'SchedulingFailed', message }]);
    expect(h.patches).toHaveLength(1);
    expect(h.patches[0].subresource).toBe('status');
    expect(h.patches[0].patch.status.lastOperation).toMatchObject({
      type: 'Create',
      state: 'Pending',
      description: message,
      progress: 0,
    });
    expect(h.decisions).toEqual([{ name: 's', seed: '', reason: 'NoCandidateForStrategy' }]);
  });

  it('does not rewrite an unchanged lastOperation', async () => {
    const h = harness(
      [
        shoot(
          's',
          (s) => (
            (s.status = {
              lastOperation: {
                type: 'Create',
                state: 'Pending',
                progress: 0,
                lastUpdateTime: 'x',
                description: 'Failed to schedule Shoot: cloudprofiles.core.gardener.cloud "gone" not found',
              },
            } as never),
            (s.spec.cloudProfile = { name: 'gone' })
          ),
        ),
      ],
      [seed('a')],
    );
    expect(await h.reconcile('s')).toEqual({ requeue: true });
    expect(h.patches).toEqual([]);
    expect(h.events[0].message).toBe('Failed to schedule Shoot: cloudprofiles.core.gardener.cloud "gone" not found');
  });

  it('decides again after a conflict, and forgets the assumed binding', async () => {
    const h = harness([shoot('s')], [seed('a')], {
      failPatch: new ApiError(409, 'Conflict', 'the object has been modified'),
    });
    expect(await h.reconcile('s')).toEqual({ requeue: true });
    expect(h.assumed.size).toBe(0);
  });

  it('throws other binding errors (retried with back-off) after a warning event', async () => {
    const h = harness([shoot('s')], [seed('a')], { failPatch: new ApiError(500, 'InternalError', 'boom') });
    await expect(h.reconcile('s')).rejects.toThrow('boom');
    expect(h.events[0]).toMatchObject({ type: 'Warning', reason: 'SchedulingFailed' });
  });
});

describe('ShootReconciler with NATS down', () => {
  it('binds without waiting: the decision is buffered by the messaging client', async () => {
    const { MessagingClient, Publisher } = await import('@gardener-ts/messaging');
    const messaging = new MessagingClient({
      servers: 'nats://127.0.0.1:1',
      name: 'test',
      logger: log,
      reconnect: { initialDelayMs: 10_000, maxDelayMs: 10_000 },
    }).start();
    const patches: string[] = [];
    const reconciler = new ShootReconciler({
      cache: staticSchedulingCache({ shoots: [shoot('s')], seeds: [seed('a')], cloudProfiles: [cloudProfile()] }),
      client: { patch: async () => ({}) as never, update: async (obj) => (patches.push(obj.metadata!.name!), obj) },
      events: { event: () => undefined },
      decisions: new Publisher(messaging, { source: 'gardener-scheduler' }),
      strategy: 'SameRegion',
      assumed: new AssumedBindings(),
    });
    const started = performance.now();
    await reconciler.reconcile({ namespace: 'garden-dev', name: 's' }, { log });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(patches).toEqual(['s']);
    expect(messaging.buffered).toBe(1);
    await messaging.close();
  });
});
