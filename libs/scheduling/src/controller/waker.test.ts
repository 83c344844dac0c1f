import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Seed, Shoot } from '@gardener-ts/api';
import type { InformerEventHandler } from '@gardener-ts/controller-runtime';
import { seed, shoot } from '../../test/fixtures.js';
import { staticSchedulingCache } from './scheduling-cache.js';
import { PendingShootWaker, seedSchedulingFingerprint, shootFreedCapacity } from './waker.js';

describe('seed changes that matter to scheduling', () => {
  it.each([
    [
      'a heartbeat (timestamps only) does not',
      (s: Seed) => (s.status!.conditions![0].lastUpdateTime = '2026-02-02T00:00:00Z'),
      false,
    ],
    ['GardenletReady turning False does', (s: Seed) => (s.status!.conditions![0].status = 'False'), true],
    ['a label does', (s: Seed) => (s.metadata!.labels = { tier: 'gold' }), true],
    ['a spec change does', (s: Seed) => (s.spec.taints = [{ key: 'x' }]), true],
    ['more allocatable shoots do', (s: Seed) => (s.status!.allocatable = { shoots: '100' }), true],
  ])('%s', (_name, change, changed) => {
    expect(seedSchedulingFingerprint(seed('a')) !== seedSchedulingFingerprint(seed('a', change))).toBe(changed);
  });
});

describe('shoots freeing capacity', () => {
  it.each([
    ['a deleted bound shoot frees its seed', shoot('s', (x) => (x.spec.seedName = 'a')), undefined, true],
    ['a deleted pending shoot frees nothing', shoot('s'), undefined, false],
    ['binding frees nothing', shoot('s'), shoot('s', (x) => (x.spec.seedName = 'a')), false],
    [
      'a finished migration frees the old seed',
      shoot('s', (x) => ((x.spec.seedName = 'b'), (x.status = { seedName: 'a' } as never))),
      shoot('s', (x) => ((x.spec.seedName = 'b'), (x.status = { seedName: 'b' } as never))),
      true,
    ],
  ])('%s', (_name, before, after, freed) => {
    expect(shootFreedCapacity(before, after)).toBe(freed);
  });
});

describe('PendingShootWaker', () => {
  afterEach(() => vi.useRealTimers());

  it('enqueues every pending shoot once per burst of relevant seed changes, and ignores initial lists', () => {
    vi.useFakeTimers();
    const handlers: InformerEventHandler<any>[] = [];
    const informer = { addEventHandler: (h: InformerEventHandler<any>) => (handlers.push(h), () => undefined) };
    const informers = {
      shoots: informer,
      seeds: informer,
      cloudProfiles: informer,
      namespacedCloudProfiles: informer,
      configMaps: informer,
    } as never;
    const enqueued: string[] = [];
    const cache = staticSchedulingCache({
      shoots: [shoot('pending'), shoot('bound', (s: Shoot) => (s.spec.seedName = 'a'))],
    });
    new PendingShootWaker(cache, (s) => enqueued.push(s.metadata!.name!), 50).watch(informers);
    const seeds = handlers[0];

    seeds.onAdd!(seed('a'), true);
    vi.advanceTimersByTime(100);
    expect(enqueued).toEqual([]);

    seeds.onAdd!(seed('new'), false);
    seeds.onUpdate!(
      seed('a'),
      seed('a', (s) => (s.status!.conditions![0].status = 'False')),
    );
    vi.advanceTimersByTime(100);
    expect(enqueued).toEqual(['pending']);

    seeds.onUpdate!(
      seed('a'),
      seed('a', (s) => (s.status!.conditions![0].lastUpdateTime = 'later')),
    );
    vi.advanceTimersByTime(100);
    expect(enqueued).toEqual(['pending']);
  });
});
