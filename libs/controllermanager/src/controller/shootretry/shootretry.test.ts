import { describe, expect, it } from 'vitest';
import type { Shoot } from '@gardener-ts/api';
import { ApiError, type Client } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../test/support/csr.js';
import { localShoot } from '../../../test/support/examples.js';
import { justFailedDueToRateLimits } from './add.js';
import { ShootRetryReconciler } from './reconciler.js';
import { decideRetry, failedDueToRateLimits, isShootFailed } from './retry.js';

const minute = 60_000;
const failedAt = '2026-01-01T10:00:00Z';
const shoot = (state: 'Failed' | 'Succeeded' | 'Error', codes: string[], generation = 2, observed = 2): Shoot => {
  const s = localShoot('a', 'local');
  s.metadata!.generation = generation;
  s.status = {
    observedGeneration: observed,
    lastOperation: { type: 'Reconcile', state, progress: 50, description: 'd', lastUpdateTime: failedAt },
    lastErrors: [{ description: 'rate limited', codes }],
  } as Shoot['status'];
  return s;
};

describe('retry decision', () => {
  it('retries only failed, up-to-date Shoots with ERR_INFRA_RATE_LIMITS_EXCEEDED', () => {
    expect(failedDueToRateLimits(shoot('Failed', ['ERR_INFRA_RATE_LIMITS_EXCEEDED']))).toBe(true);
    expect(failedDueToRateLimits(shoot('Failed', ['ERR_INFRA_DEPENDENCIES', 'ERR_INFRA_RATE_LIMITS_EXCEEDED']))).toBe(
      true,
    );
    // Other (also retryable) codes are not retried by this controller, as in Gardener.
    expect(failedDueToRateLimits(shoot('Failed', ['ERR_RETRYABLE_INFRA_DEPENDENCIES']))).toBe(false);
    expect(failedDueToRateLimits(shoot('Error', ['ERR_INFRA_RATE_LIMITS_EXCEEDED']))).toBe(false);
    expect(failedDueToRateLimits(shoot('Failed', ['ERR_INFRA_RATE_LIMITS_EXCEEDED'], 3, 2))).toBe(false);
    expect(isShootFailed(shoot('Failed', []))).toBe(true);
  });

  it('retries once retryPeriod has passed since the last update, else waits for it plus jitter', () => {
    const s = shoot('Failed', ['ERR_INFRA_RATE_LIMITS_EXCEEDED']);
    const at = (m: number) => new Date(Date.parse(failedAt) + m * minute);
    expect(decideRetry(s, at(11), 10 * minute, 5 * minute)).toEqual({ retry: true });
    expect(decideRetry(s, at(4), 10 * minute, 5 * minute, () => 0.5)).toEqual({
      retry: false,
      requeueAfterMs: 6 * minute + 2.5 * minute,
    });
    delete s.status!.lastOperation;
    expect(decideRetry(s, at(11), 10 * minute, 5 * minute)).toEqual({ retry: false });
  });
});

describe('justFailedDueToRateLimits', () => {
  it('takes creations and the update by which the Shoot failed due to rate limits', () => {
    const failed = shoot('Failed', ['ERR_INFRA_RATE_LIMITS_EXCEEDED']);
    const processing = shoot('Succeeded', []);
    expect(justFailedDueToRateLimits({ type: 'create', object: processing })).toBe(true);
    expect(justFailedDueToRateLimits({ type: 'update', oldObject: processing, object: failed })).toBe(true);
    expect(justFailedDueToRateLimits({ type: 'update', oldObject: failed, object: failed })).toBe(false);
    expect(
      justFailedDueToRateLimits({ type: 'update', oldObject: processing, object: shoot('Failed', ['ERR_X']) }),
    ).toBe(false);
    expect(justFailedDueToRateLimits({ type: 'delete', object: failed })).toBe(false);
  });
});

describe('ShootRetryReconciler', () => {
  const make = (s: Shoot | undefined, minutesAfterFailure: number) => {
    const patches: unknown[] = [];
    const client = {
      get: () => (s ? Promise.resolve(structuredClone(s)) : Promise.reject(new ApiError(404, 'NotFound', 'gone'))),
      patch: (_k: unknown, _key: unknown, patch: unknown) => (patches.push(patch), Promise.resolve(s)),
    } as unknown as Client;
    const reconciler = new ShootRetryReconciler({
      client,
      retryPeriodMs: 10 * minute,
      retryJitterPeriodMs: 5 * minute,
      now: () => new Date(Date.parse(failedAt) + minutesAfterFailure * minute),
      random: () => 0,
    });
    return { patches, run: () => reconciler.reconcile({ namespace: 'garden-local', name: 'a' }, silentContext()) };
  };

  it('annotates gardener.cloud/operation=retry when due', async () => {
    const r = make(shoot('Failed', ['ERR_INFRA_RATE_LIMITS_EXCEEDED']), 11);
    expect(await r.run()).toBeUndefined();
    expect(r.patches).toEqual([
      { type: 'merge', patch: { metadata: { annotations: { 'gardener.cloud/operation': 'retry' } } } },
    ]);
  });

  it('requeues until due, and leaves other Shoots and gone ones alone', async () => {
    const early = make(shoot('Failed', ['ERR_INFRA_RATE_LIMITS_EXCEEDED']), 3);
    expect(await early.run()).toEqual({ requeueAfter: 7 * minute });
    expect(early.patches).toEqual([]);
    const other = make(shoot('Failed', ['ERR_INFRA_UNAUTHORIZED']), 60);
    expect(await other.run()).toBeUndefined();
    expect(other.patches).toEqual([]);
    expect(await make(undefined, 60).run()).toBeUndefined();
  });
});
