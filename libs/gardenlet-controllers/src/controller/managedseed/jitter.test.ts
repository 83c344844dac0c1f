// Tests of the ManagedSeed controller's jittered enqueueing (Gardener's EnqueueWithJitterDelay).
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InformerEventHandler, Request } from '@gardener-ts/controller-runtime';
import { enqueueDelay, jitter, jitteredManagedSeedSource } from './jitter.js';
import type { ManagedSeed } from './kinds.js';

const MIN = 60_000;
const config = { syncJitterPeriodMs: 5 * MIN, jitterUpdates: false };
const half = () => 0.5;

function managedSeed(
  generation: number,
  observedGeneration?: number,
  extra: { deleting?: boolean; renew?: boolean; name?: string } = {},
): ManagedSeed {
  return {
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeed',
    metadata: {
      name: extra.name ?? 'child',
      namespace: 'garden',
      generation,
      ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      ...(extra.renew ? { annotations: { 'gardener.cloud/operation': 'renew-kubeconfig' } } : {}),
    },
    spec: { shoot: { name: 'shoot' }, gardenlet: {} },
    ...(observedGeneration === undefined ? {} : { status: { observedGeneration } }),
  } as unknown as ManagedSeed;
}

describe('enqueueDelay', () => {
  it('spreads ManagedSeeds seen on start-up over the jitter period', () => {
    expect(enqueueDelay({ type: 'create', object: managedSeed(3, 3) }, config, half)).toBe(2.5 * MIN);
    expect(enqueueDelay({ type: 'create', object: managedSeed(3, 3) }, config, () => 0)).toBe(0);
  });

  it('enqueues new ManagedSeeds, deletions and renew-kubeconfig requests at once', () => {
    const jittering = { ...config, jitterUpdates: true };
    expect(enqueueDelay({ type: 'create', object: managedSeed(1) }, jittering, half)).toBe(0);
    expect(enqueueDelay({ type: 'create', object: managedSeed(4, 4, { deleting: true }) }, jittering, half)).toBe(0);
    expect(
      enqueueDelay(
        { type: 'update', oldObject: managedSeed(4, 4), object: managedSeed(4, 4, { deleting: true }) },
        jittering,
        half,
      ),
    ).toBe(0);
    expect(
      enqueueDelay(
        { type: 'update', oldObject: managedSeed(4, 4), object: managedSeed(4, 4, { renew: true }) },
        jittering,
        half,
      ),
    ).toBe(0);
    expect(enqueueDelay({ type: 'delete', object: managedSeed(4, 4) }, jittering, half)).toBe(0);
  });

  it('jitters a new generation only with jitterUpdates', () => {
    const update = { type: 'update' as const, oldObject: managedSeed(4, 4), object: managedSeed(5, 4) };
    expect(enqueueDelay(update, config, half)).toBe(0);
    expect(enqueueDelay(update, { ...config, jitterUpdates: true }, half)).toBe(2.5 * MIN);
    const seenOnStart = { type: 'create' as const, object: managedSeed(5, 4) };
    expect(enqueueDelay(seenOnStart, config, half)).toBe(0);
    expect(enqueueDelay(seenOnStart, { ...config, jitterUpdates: true }, half)).toBe(2.5 * MIN);
  });

  it('drops updates whose generation was already observed', () => {
    const update = { type: 'update' as const, oldObject: managedSeed(4, 3), object: managedSeed(4, 4) };
    expect(enqueueDelay(update, { ...config, jitterUpdates: true }, half)).toBeUndefined();
  });

  it('property: a delay is never negative and below the period; without a period everything goes at once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 30 * MIN }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (generation, observed, jitterUpdates, period, r) => {
          const d = enqueueDelay(
            { type: 'create', object: managedSeed(generation, observed) },
            { syncJitterPeriodMs: period, jitterUpdates },
            () => r,
          );
          expect(d).toBeGreaterThanOrEqual(0);
          if (period > 0) expect(d).toBeLessThan(period);
          else expect(d).toBe(0);
          expect(jitter(period, () => r)).toBeLessThanOrEqual(Math.max(0, period - 1));
        },
      ),
    );
  });
});

describe('jitteredManagedSeedSource', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function run(predicate: (ms: ManagedSeed) => boolean = () => true) {
    let handler: InformerEventHandler<ManagedSeed> = {};
    let unregistered = false;
    const informer = {
      addEventHandler: (h: InformerEventHandler<ManagedSeed>) => {
        handler = h;
        return () => void (unregistered = true);
      },
    };
    const queued: Request[] = [];
    const abort = new AbortController();
    jitteredManagedSeedSource(informer, {
      predicates: [(e) => predicate(e.object)],
      config,
      random: half,
    }).start((r) => queued.push(r), abort.signal);
    return { handler: () => handler, queued, abort, unregistered: () => unregistered };
  }

  it('enqueues at once or after the jitter, and only what passes the predicates', () => {
    const { handler, queued } = run((ms) => ms.metadata?.name !== 'foreign');
    handler().onAdd?.(managedSeed(1, undefined, { name: 'new' }), false);
    handler().onAdd?.(managedSeed(3, 3, { name: 'known' }), true);
    handler().onAdd?.(managedSeed(1, undefined, { name: 'foreign' }), true);
    expect(queued).toEqual([{ namespace: 'garden', name: 'new' }]);
    vi.advanceTimersByTime(2.5 * MIN - 1);
    expect(queued).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(queued).toEqual([
      { namespace: 'garden', name: 'new' },
      { namespace: 'garden', name: 'known' },
    ]);
  });

  it('drops pending delays and stops listening when the controller stops', () => {
    const { handler, queued, abort, unregistered } = run();
    handler().onAdd?.(managedSeed(3, 3), true);
    abort.abort();
    vi.advanceTimersByTime(10 * MIN);
    expect(queued).toEqual([]);
    expect(unregistered()).toBe(true);
  });
});
