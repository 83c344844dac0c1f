import { describe, expect, it } from 'vitest';
import type { Quota, Shoot } from '@gardener-ts/api';
import { ApiError, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../test/support/csr.js';
import { localShoot } from '../../../test/support/examples.js';
import { created } from './add.js';
import { clusterLifetimeDays, planExpiration, ShootExpirationTimestamp } from './expiration.js';
import { ShootQuotaReconciler } from './reconciler.js';

const createdAt = '2026-01-01T10:00:00Z';
const day = 24 * 60 * 60 * 1000;
const quota = (name: string, days?: number): Quota =>
  ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Quota',
    metadata: { name, namespace: 'garden-trial' },
    spec: {
      ...(days !== undefined ? { clusterLifetimeDays: days } : {}),
      metrics: {},
      scope: { apiVersion: 'v1', kind: 'Secret' },
    },
  }) as unknown as Quota;
const shoot = (annotations: Record<string, string> = {}, binding: 'secret' | 'credentials' = 'credentials'): Shoot => {
  const s = localShoot('a', 'local');
  s.metadata = { ...s.metadata, creationTimestamp: createdAt, annotations };
  delete s.spec.secretBindingName;
  delete s.spec.credentialsBindingName;
  if (binding === 'secret') s.spec.secretBindingName = 'sb';
  else s.spec.credentialsBindingName = 'cb';
  return s;
};

describe('expiration', () => {
  it('takes the smallest clusterLifetimeDays of the quotas', () => {
    expect(clusterLifetimeDays([quota('a', 7), quota('b'), quota('c', 3)])).toBe(3);
    expect(clusterLifetimeDays([quota('b')])).toBeUndefined();
    expect(clusterLifetimeDays([])).toBeUndefined();
  });

  it('annotates creation + lifetime, keeps an annotated time, and expires after it', () => {
    const at = (days: number) => new Date(Date.parse(createdAt) + days * day);
    expect(planExpiration(shoot(), 7, at(1))).toEqual({
      action: 'limited',
      annotate: '2026-01-08T10:00:00Z',
      expirationTime: '2026-01-08T10:00:00Z',
      expired: false,
    });
    expect(planExpiration(shoot(), 7, at(8))).toMatchObject({ annotate: '2026-01-08T10:00:00Z', expired: true });
    const annotated = shoot({ [ShootExpirationTimestamp]: '2026-01-03T00:00:00Z' });
    expect(planExpiration(annotated, 7, at(2))).toEqual({
      action: 'limited',
      expirationTime: '2026-01-03T00:00:00Z',
      expired: true,
    });
    expect(planExpiration(annotated, undefined, at(2))).toEqual({ action: 'unlimited', removeAnnotation: true });
    expect(planExpiration(shoot(), undefined, at(2))).toEqual({ action: 'unlimited', removeAnnotation: false });
    expect(() => planExpiration(shoot({ [ShootExpirationTimestamp]: 'tomorrow' }), 1, at(0))).toThrow(
      'is no RFC 3339 time',
    );
  });
});

describe('created', () => {
  it('takes creations only', () => {
    const s = shoot();
    expect(created({ type: 'create', object: s })).toBe(true);
    expect(created({ type: 'update', oldObject: s, object: s })).toBe(false);
    expect(created({ type: 'delete', object: s })).toBe(false);
  });
});

describe('ShootQuotaReconciler', () => {
  const make = (s: Shoot, days: number | undefined, nowDays: number) => {
    const calls: string[] = [];
    const objects: Record<string, KubernetesObject & { quotas?: unknown[] }> = {
      'Shoot/a': s,
      'SecretBinding/sb': { metadata: { name: 'sb' }, quotas: [{ name: 'trial', namespace: 'garden-trial' }] },
      'CredentialsBinding/cb': { metadata: { name: 'cb' }, quotas: [{ name: 'trial', namespace: 'garden-trial' }] },
      'Quota/trial': quota('trial', days),
    };
    const client = {
      get: (kind: { kind: string }, key: { name: string }) => {
        const o = objects[`${kind.kind}/${key.name}`];
        return o ? Promise.resolve(structuredClone(o)) : Promise.reject(new ApiError(404, 'NotFound', 'gone'));
      },
      patch: (kind: { kind: string }, _key: unknown, patch: { patch: unknown }) => {
        calls.push(`patch ${kind.kind} ${JSON.stringify(patch.patch)}`);
        return Promise.resolve(s);
      },
      delete: (kind: { kind: string }, key: { name: string }) => {
        calls.push(`delete ${kind.kind} ${key.name}`);
        return Promise.resolve();
      },
    } as unknown as Client;
    const reconciler = new ShootQuotaReconciler({
      client,
      syncPeriodMs: 60 * 60 * 1000,
      now: () => new Date(Date.parse(createdAt) + nowDays * day),
    });
    return { calls, run: () => reconciler.reconcile({ namespace: 'garden-local', name: 'a' }, silentContext()) };
  };

  it('annotates the expiration timestamp and checks again after the sync period', async () => {
    const r = make(shoot(), 7, 1);
    expect(await r.run()).toEqual({ requeueAfter: 60 * 60 * 1000 });
    expect(r.calls).toEqual([
      `patch Shoot {"metadata":{"annotations":{"${ShootExpirationTimestamp}":"2026-01-08T10:00:00Z"}}}`,
    ]);
  });

  it('confirms the deletion of an expired Shoot, then deletes it (SecretBinding quotas too)', async () => {
    const r = make(shoot({ [ShootExpirationTimestamp]: '2026-01-02T00:00:00Z' }, 'secret'), 7, 2);
    expect(await r.run()).toBeUndefined();
    expect(r.calls).toEqual([
      'patch Shoot {"metadata":{"annotations":{"confirmation.gardener.cloud/deletion":"true"}}}',
      'delete Shoot a',
    ]);
  });

  it('removes the annotation when no quota limits the lifetime any more', async () => {
    const r = make(shoot({ [ShootExpirationTimestamp]: '2026-01-02T00:00:00Z' }), undefined, 2);
    expect(await r.run()).toEqual({ requeueAfter: 60 * 60 * 1000 });
    expect(r.calls).toEqual([`patch Shoot {"metadata":{"annotations":{"${ShootExpirationTimestamp}":null}}}`]);
  });
});
