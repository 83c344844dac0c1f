import { describe, expect, it } from 'vitest';
import type { Shoot } from '@gardener-ts/api';
import type { Kind, KubernetesObject, ObjectKey, Patch, PatchOptions } from '@gardener-ts/controller-runtime';
import { localShoot } from '../../../test/support/examples.js';
import { silentContext } from '../../../test/support/csr.js';
import { ShootHibernationReconciler } from './reconciler.js';
import { decideHibernation, parseSchedules } from './schedule.js';

// Gardener's documented example: hibernate on weekdays at 20:00 and wake up at 08:00 in Berlin.
const weekdays = parseSchedules([
  { start: '00 20 * * 1,2,3,4,5', end: '00 08 * * 1,2,3,4,5', location: 'Europe/Berlin' },
]);
const created = new Date('2026-06-01T00:00:00Z'); // a Monday
const decide = (now: string, lastTriggerTime?: string, triggerDeadlineMs?: number) =>
  decideHibernation({
    schedules: weekdays,
    now: new Date(now),
    creationTimestamp: created,
    ...(lastTriggerTime ? { lastTriggerTime: new Date(lastTriggerTime) } : {}),
    ...(triggerDeadlineMs !== undefined ? { triggerDeadlineMs } : {}),
  });

describe('decideHibernation', () => {
  it('hibernates after the start time and wakes up after the end time, in the schedule location', () => {
    // 20:00 Berlin (CEST) is 18:00 UTC; the next trigger is the wake-up at 08:00 Berlin (06:00 UTC), plus 100 ms.
    expect(decide('2026-06-01T18:00:30Z')).toEqual({
      operation: 'hibernate',
      requeueAfterMs: 12 * 3600_000 - 30_000 + 100,
    });
    expect(decide('2026-06-02T06:00:10Z', '2026-06-01T18:00:30Z').operation).toBe('wakeUp');
  });

  it('does nothing before the first trigger, and nothing twice for one trigger', () => {
    expect(decide('2026-06-01T05:59:00Z').operation).toBeUndefined();
    expect(decide('2026-06-01T17:59:00Z').operation).toBe('wakeUp'); // 08:00 Berlin on Monday came after the creation
    expect(decide('2026-06-01T18:05:00Z', '2026-06-01T18:00:30Z').operation).toBeUndefined();
  });

  it('skips a trigger that is older than the trigger deadline', () => {
    expect(decide('2026-06-01T21:00:00Z', undefined, 2 * 3600_000).operation).toBeUndefined();
    expect(decide('2026-06-01T19:00:00Z', undefined, 2 * 3600_000).operation).toBe('hibernate');
  });

  it('refuses an invalid cron expression, naming it', () => {
    expect(() => parseSchedules([{ start: '61 * * * *' }])).toThrow(
      'invalid hibernation schedule "61 * * * *" (location UTC)',
    );
  });
});

/** A fake client holding one Shoot, applying merge patches. */
class FakeShoots {
  patches: { patch: Patch; opts?: PatchOptions }[] = [];
  constructor(public shoot: Shoot) {}
  get<T extends KubernetesObject>(_kind: Kind<T>, _key: ObjectKey): Promise<T> {
    return Promise.resolve(structuredClone(this.shoot) as unknown as T);
  }
  patch<T extends KubernetesObject>(_kind: Kind<T>, _key: ObjectKey, patch: Patch, opts?: PatchOptions): Promise<T> {
    this.patches.push({ patch, opts });
    return Promise.resolve(structuredClone(this.shoot) as unknown as T);
  }
}

describe('ShootHibernationReconciler', () => {
  const shoot = (change: (s: Shoot) => void = () => undefined) => {
    const s = localShoot('sleepy', 'local');
    s.metadata = { ...s.metadata, creationTimestamp: created.toISOString(), generation: 1 };
    s.spec.hibernation = {
      schedules: [{ start: '00 20 * * 1,2,3,4,5', end: '00 08 * * 1,2,3,4,5', location: 'Europe/Berlin' }],
    };
    change(s);
    return s;
  };
  const reconcile = (client: FakeShoots, now: string) =>
    new ShootHibernationReconciler({ client, now: () => new Date(now), triggerDeadlineMs: 2 * 3600_000 }).reconcile(
      { namespace: 'garden-local', name: 'sleepy' },
      silentContext(),
    );

  it('sets hibernation.enabled and the trigger time when a schedule fires', async () => {
    const client = new FakeShoots(shoot());
    const result = await reconcile(client, '2026-06-01T18:00:30Z');
    expect(client.patches).toEqual([
      { patch: { type: 'merge', patch: { spec: { hibernation: { enabled: true } } } }, opts: undefined },
      {
        patch: { type: 'merge', patch: { status: { lastHibernationTriggerTime: '2026-06-01T18:00:30Z' } } },
        opts: { subresource: 'status' },
      },
    ]);
    expect(result).toEqual({ requeueAfter: 12 * 3600_000 - 30_000 + 100 });
  });

  it('leaves failed shoots and shoots without schedules alone', async () => {
    const failed = new FakeShoots(
      shoot((s) => {
        s.status = {
          observedGeneration: 1,
          lastOperation: {
            type: 'Reconcile',
            state: 'Failed',
            progress: 10,
            description: '',
            lastUpdateTime: '2026-06-01T00:00:00Z',
          },
        } as Shoot['status'];
      }),
    );
    expect(await reconcile(failed, '2026-06-01T18:00:30Z')).toEqual({ requeueAfter: 12 * 3600_000 - 30_000 + 100 });
    expect(failed.patches).toEqual([]);
    const none = new FakeShoots(shoot((s) => (s.spec.hibernation = {})));
    expect(await reconcile(none, '2026-06-01T18:00:30Z')).toBeUndefined();
    expect(none.patches).toEqual([]);
  });
});
