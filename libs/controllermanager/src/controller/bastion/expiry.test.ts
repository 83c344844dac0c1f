import { describe, expect, it } from 'vitest';
import type { Bastion, Shoot } from '@gardener-ts/api';
import { localShoot } from '../../../test/support/examples.js';
import { bastionVerdict } from './expiry.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const DAY = 24 * 3600_000;
const bastion = (status: Bastion['status'] = {}): Bastion =>
  ({
    apiVersion: 'operations.gardener.cloud/v1alpha1',
    kind: 'Bastion',
    metadata: { namespace: 'garden-local', name: 'b', creationTimestamp: '2026-06-01T10:00:00Z' },
    spec: { shootRef: { name: 'local' }, seedName: 'local', ingress: [{ ipBlock: { cidr: '0.0.0.0/0' } }] },
    status,
  }) as Bastion;
const shoot = (change: (s: Shoot) => void = () => undefined) => {
  const s = localShoot('local', 'local');
  change(s);
  return s;
};

describe('bastionVerdict', () => {
  it('keeps a live Bastion until the earlier of its expiration and its end of life', () => {
    expect(bastionVerdict(bastion({ expirationTimestamp: '2026-06-01T13:00:00Z' }), shoot(), NOW, DAY)).toEqual({
      action: 'keep',
      requeueAfterMs: 3600_000,
    });
    expect(bastionVerdict(bastion(), shoot(), NOW, 3 * 3600_000)).toEqual({ action: 'keep', requeueAfterMs: 3600_000 });
  });

  it('deletes it once expired, too old, or when its Shoot is gone, in deletion or on another seed', () => {
    expect(bastionVerdict(bastion({ expirationTimestamp: '2026-06-01T11:59:59Z' }), shoot(), NOW, DAY)).toEqual({
      action: 'delete',
      reason: 'Bastion has expired',
    });
    expect(bastionVerdict(bastion(), shoot(), NOW, 2 * 3600_000)).toEqual({
      action: 'delete',
      reason: 'Bastion has reached its maximum lifetime',
    });
    expect(bastionVerdict(bastion(), undefined, NOW, DAY)).toEqual({
      action: 'delete',
      reason: 'Shoot does not exist anymore',
    });
    expect(
      bastionVerdict(
        bastion(),
        shoot((s) => (s.metadata!.deletionTimestamp = '2026-06-01T11:00:00Z')),
        NOW,
        DAY,
      ),
    ).toMatchObject({ action: 'delete' });
    expect(
      bastionVerdict(
        bastion(),
        shoot((s) => (s.spec.seedName = 'other')),
        NOW,
        DAY,
      ),
    ).toEqual({ action: 'delete', reason: 'Shoot was migrated to a different seed' });
  });
});
