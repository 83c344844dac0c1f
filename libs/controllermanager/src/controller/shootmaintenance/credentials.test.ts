// Tests of the automatic credentials rotation in the maintenance: when the SSH keypair and observability rotations
// are due, and what the maintenance writes for them (operation annotation, lastMaintenance description).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CloudProfile, Shoot } from '@gardener-ts/api';
import { example, localShoot } from '../../../test/support/examples.js';
import { autoRotationPeriod, credentialsRotationResults } from './credentials.js';
import { maintainShoot } from './maintain.js';

const NOW = new Date('2026-06-01T22:30:00Z');
const DAY = 24 * 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function shoot(change: (s: Shoot) => void = () => undefined): Shoot {
  const s = localShoot('rotated', 'local');
  s.metadata!.creationTimestamp = iso(NOW.getTime() - 30 * DAY);
  s.spec.maintenance = {
    timeWindow: { begin: '220000+0000', end: '230000+0000' },
    autoRotation: {
      credentials: { sshKeypair: { rotationPeriod: '168h' }, observability: { rotationPeriod: '168h' } },
    },
  };
  s.status = { lastOperation: { type: 'Reconcile', state: 'Succeeded' } } as Shoot['status'];
  change(s);
  return s;
}

describe('autoRotationPeriod', () => {
  it('is the rotation period, undefined when off', () => {
    expect(autoRotationPeriod({ rotationPeriod: '168h' })).toBe(7 * DAY);
    expect(autoRotationPeriod({ enabled: true, rotationPeriod: '1h30m' })).toBe(90 * 60 * 1000);
    expect(autoRotationPeriod(undefined)).toBeUndefined();
    expect(autoRotationPeriod({ enabled: false, rotationPeriod: '168h' })).toBeUndefined();
    expect(autoRotationPeriod({ enabled: true })).toBeUndefined();
    expect(autoRotationPeriod({ rotationPeriod: '0s' })).toBeUndefined();
    expect(autoRotationPeriod({ rotationPeriod: 'soon' })).toBeUndefined();
  });
});

describe('credentialsRotationResults', () => {
  it('starts both rotations when the period passed since the creation (never rotated)', () => {
    expect(credentialsRotationResults(shoot(), NOW)).toEqual({
      'rotate-ssh-keypair': {
        description: 'SSH keypair rotation started',
        reason: 'Automatic rotation of SSH keypair configured',
        ok: true,
      },
      'rotate-observability-credentials': {
        description: 'Observability passwords rotation started',
        reason: 'Automatic rotation of observability passwords configured',
        ok: true,
      },
    });
  });

  it('waits for the period since the last completion', () => {
    const recent = shoot((s) => {
      s.status!.credentials = {
        rotation: {
          sshKeypair: { lastCompletionTime: iso(NOW.getTime() - DAY) },
          observability: { lastCompletionTime: iso(NOW.getTime() - 8 * DAY) },
        },
      };
    });
    expect(Object.keys(credentialsRotationResults(recent, NOW))).toEqual(['rotate-observability-credentials']);
  });

  it('leaves a young shoot, a disabled rotation and the SSH keypair of a shoot without SSH access alone', () => {
    const young = shoot((s) => (s.metadata!.creationTimestamp = iso(NOW.getTime() - DAY)));
    expect(credentialsRotationResults(young, NOW)).toEqual({});
    const disabled = shoot((s) => (s.spec.maintenance!.autoRotation!.credentials!.observability!.enabled = false));
    expect(Object.keys(credentialsRotationResults(disabled, NOW))).toEqual(['rotate-ssh-keypair']);
    const noSSH = shoot((s) => (s.spec.provider.workersSettings = { sshAccess: { enabled: false } }));
    expect(Object.keys(credentialsRotationResults(noSSH, NOW))).toEqual(['rotate-observability-credentials']);
  });

  it('property: a rotation is due exactly when its period has passed since the last completion', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 60 * 24 }), (days, hoursAgo) => {
        const s = shoot((x) => {
          x.spec.maintenance!.autoRotation = { credentials: { observability: { rotationPeriod: `${days * 24}h` } } };
          x.status!.credentials = {
            rotation: { observability: { lastCompletionTime: iso(NOW.getTime() - hoursAgo * 3600_000) } },
          };
        });
        const due = hoursAgo * 3600_000 > days * DAY;
        expect('rotate-observability-credentials' in credentialsRotationResults(s, NOW)).toBe(due);
      }),
    );
  });
});

describe('maintainShoot with automatic credentials rotation', () => {
  const profile = () => example<CloudProfile>('local', 'cloudprofile.yaml');

  it('adds the due rotations to the reconcile operation and names them in lastMaintenance', () => {
    const result = maintainShoot(shoot(), profile(), { now: NOW });
    expect(result.shoot.metadata?.annotations?.['gardener.cloud/operation']).toBe(
      'reconcile;rotate-ssh-keypair;rotate-observability-credentials',
    );
    expect(result.lastMaintenance).toEqual({
      state: 'Succeeded',
      description:
        'All maintenance operations successful. ' +
        'Credentials "rotate-ssh-keypair": SSH keypair rotation started. Reason: Automatic rotation of SSH keypair configured, ' +
        'Credentials "rotate-observability-credentials": Observability passwords rotation started. Reason: Automatic rotation of observability passwords configured, ' +
        'Added "reconcile;rotate-ssh-keypair;rotate-observability-credentials" operation annotation',
    });
  });

  it('keeps what the maintenance annotation asked for and adds a rotation only once', () => {
    const s = shoot((x) => {
      x.metadata!.annotations = { 'maintenance.gardener.cloud/operation': 'rotate-ssh-keypair' };
      x.spec.maintenance!.autoRotation!.credentials!.observability = undefined;
    });
    const result = maintainShoot(s, profile(), { now: NOW });
    expect(result.shoot.metadata?.annotations?.['gardener.cloud/operation']).toBe('rotate-ssh-keypair;reconcile');
    expect(result.shoot.metadata?.annotations?.['maintenance.gardener.cloud/operation']).toBeUndefined();
  });

  it('starts no rotation of a failed shoot (it gets retry, if anything)', () => {
    const failed = shoot((x) => (x.status!.lastOperation = { type: 'Reconcile', state: 'Failed' } as never));
    const result = maintainShoot(failed, profile(), { now: NOW });
    expect(result.shoot.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
  });

  it('changes nothing without automatic rotation', () => {
    const s = shoot((x) => (x.spec.maintenance!.autoRotation = undefined));
    const result = maintainShoot(s, profile(), { now: NOW });
    expect(result.credentials).toEqual({});
    expect(result.shoot.metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
  });
});
