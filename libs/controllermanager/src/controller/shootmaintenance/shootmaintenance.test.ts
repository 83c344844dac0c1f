import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CloudProfile, Shoot } from '@gardener-ts/api';
import { example, localShoot } from '../../../test/support/examples.js';
import { maintainShoot } from './maintain.js';
import { effectiveWindow, inWindow, parseWindowTime, untilNextWindow } from './timewindow.js';
import { currentClassification, nextKubernetesVersion } from './versions.js';

const NOW = new Date('2026-06-01T22:30:00Z');

/** Gardener's local CloudProfile with more patch versions of 1.34 (one of them a preview) and an expired 1.33.0. */
function profile(): CloudProfile {
  const p = example<CloudProfile>('local', 'cloudprofile.yaml');
  p.spec.kubernetes!.versions = [
    { version: '1.35.4' },
    { version: '1.34.9', classification: 'preview' },
    { version: '1.34.5' },
    { version: '1.34.3' },
    { version: '1.33.0', expirationDate: '2026-01-01T00:00:00Z' },
    { version: '1.32.0' },
  ];
  return p;
}

function shoot(version: string, change: (s: Shoot) => void = () => undefined): Shoot {
  const s = localShoot('maintained', 'local');
  s.spec.kubernetes.version = version;
  s.spec.maintenance = {
    autoUpdate: { kubernetesVersion: true, machineImageVersion: true },
    timeWindow: { begin: '220000+0000', end: '230000+0000' },
  };
  s.spec.provider.workers![0]!.machine.image = { name: 'local', version: '1.0.0' };
  change(s);
  return s;
}

describe('maintenance time window', () => {
  it('parses HHMMSS+ZZZZ into seconds after midnight UTC', () => {
    expect(parseWindowTime('220000+0000')).toBe(22 * 3600);
    expect(parseWindowTime('230000+0100')).toBe(22 * 3600);
    expect(parseWindowTime('003000-0100')).toBe(3600 + 1800);
    expect(parseWindowTime('25:00')).toBeUndefined();
  });

  it('ends the effective window 15 minutes early and wraps past midnight', () => {
    const w = effectiveWindow({ begin: '220000+0000', end: '230000+0000' })!;
    expect(inWindow(w, new Date('2026-06-01T22:00:00Z'))).toBe(true);
    expect(inWindow(w, new Date('2026-06-01T22:44:59Z'))).toBe(true);
    expect(inWindow(w, new Date('2026-06-01T22:45:00Z'))).toBe(false);
    expect(inWindow(w, new Date('2026-06-01T21:59:59Z'))).toBe(false);
    const wrap = effectiveWindow({ begin: '233000+0000', end: '013000+0000' })!;
    expect(inWindow(wrap, new Date('2026-06-01T23:45:00Z'))).toBe(true);
    expect(inWindow(wrap, new Date('2026-06-02T01:00:00Z'))).toBe(true);
    expect(inWindow(wrap, new Date('2026-06-02T01:20:00Z'))).toBe(false);
    expect(inWindow(undefined, NOW)).toBe(true);
  });

  it('schedules the next run inside the next window, never in the past (property)', () => {
    const hhmm = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}00+0000`);
    fc.assert(
      fc.property(
        hhmm,
        fc.integer({ min: 30, max: 600 }),
        fc.date({ min: new Date('2026-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (begin, lengthMinutes, now, offset) => {
          const b = parseWindowTime(begin)!;
          const e = (b + lengthMinutes * 60) % 86400;
          const end = `${String(Math.floor(e / 3600)).padStart(2, '0')}${String(Math.floor((e % 3600) / 60)).padStart(2, '0')}00+0000`;
          const w = effectiveWindow({ begin, end })!;
          const ms = untilNextWindow(w, now, offset);
          expect(ms).toBeGreaterThan(0);
          expect(ms).toBeLessThanOrEqual(2 * 86400_000);
          expect(inWindow(w, new Date(now.getTime() + ms))).toBe(true);
        },
      ),
    );
  });
});

describe('versions', () => {
  it('classifies by lifecycle, else by classification and expiration date', () => {
    expect(currentClassification({ version: '1' }, NOW)).toBe('supported');
    expect(
      currentClassification(
        { version: '1', classification: 'deprecated', expirationDate: '2026-06-01T22:00:00Z' },
        NOW,
      ),
    ).toBe('expired');
    expect(
      currentClassification(
        {
          version: '1',
          lifecycle: [
            { classification: 'preview' },
            { classification: 'supported', startTime: '2026-07-01T00:00:00Z' },
          ],
        },
        NOW,
      ),
    ).toBe('preview');
    expect(
      currentClassification(
        { version: '1', lifecycle: [{ classification: 'supported', startTime: '2027-01-01T00:00:00Z' }] },
        NOW,
      ),
    ).toBe('unavailable');
  });

  it('moves to the latest qualifying patch of the minor; a forced update goes to the next minor when the minor has none', () => {
    expect(nextKubernetesVersion('1.34.3', profile(), false, NOW)).toEqual({ version: '1.34.5' });
    expect(nextKubernetesVersion('1.34.5', profile(), false, NOW)).toEqual({ version: '' });
    expect(nextKubernetesVersion('1.33.0', profile(), true, NOW)).toEqual({ version: '1.34.5' });
    expect(nextKubernetesVersion('1.35.4', profile(), true, NOW)).toMatchObject({
      error: expect.stringContaining('cannot perform forceful update of expired version "1.35.4"'),
    });
  });
});

describe('maintainShoot', () => {
  it("updates the Kubernetes patch version and says so in Gardener's words", () => {
    const result = maintainShoot(shoot('1.34.3'), profile(), { now: NOW });
    expect(result.shoot.spec.kubernetes.version).toBe('1.34.5');
    expect(result.lastMaintenance).toEqual({
      state: 'Succeeded',
      description:
        'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.34.3" to "1.34.5". Reason: Automatic update of Kubernetes version configured',
    });
    expect(result.shoot.metadata?.annotations?.['shoot.gardener.cloud/tasks']).toBe(
      'deployInfrastructure,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress',
    );
  });

  it('leaves the version without auto-update, but forces an expired one', () => {
    const manual = maintainShoot(
      shoot('1.34.3', (s) => (s.spec.maintenance!.autoUpdate!.kubernetesVersion = false)),
      profile(),
      { now: NOW },
    );
    expect(manual.shoot.spec.kubernetes.version).toBe('1.34.3');
    expect(manual.lastMaintenance).toBeUndefined();
    const expired = maintainShoot(
      shoot('1.33.0', (s) => (s.spec.maintenance!.autoUpdate!.kubernetesVersion = false)),
      profile(),
      { now: NOW },
    );
    expect(expired.shoot.spec.kubernetes.version).toBe('1.34.5');
    expect(expired.kubernetes?.reason).toBe('Kubernetes version expired - force update required');
  });

  it('never updates to a preview machine image, and caps worker pool versions at the control plane', () => {
    const result = maintainShoot(
      shoot('1.33.0', (s) => (s.spec.provider.workers![0]!.kubernetes = { version: '1.32.0' })),
      profile(),
      { now: NOW },
    );
    expect(result.shoot.spec.provider.workers![0]!.machine.image).toEqual({ name: 'local', version: '1.0.0' });
    expect(result.shoot.spec.kubernetes.version).toBe('1.34.5');
    expect(result.shoot.spec.provider.workers![0]!.kubernetes?.version).toBe('1.32.0');
  });

  it('asks for a reconcile with the requested maintenance operations, removes maintain, and retries failed shoots that need it', () => {
    const s = shoot('1.34.5', (x) => {
      x.metadata!.annotations = {
        'gardener.cloud/operation': 'maintain',
        'maintenance.gardener.cloud/operation': 'rotate-ssh-keypair',
      };
      x.status = {
        lastOperation: {
          type: 'Reconcile',
          state: 'Succeeded',
          progress: 100,
          description: '',
          lastUpdateTime: '2026-06-01T00:00:00Z',
        },
      } as Shoot['status'];
    });
    const result = maintainShoot(s, profile(), { now: NOW, enableShootControlPlaneRestarter: true });
    expect(result.shoot.metadata?.annotations).toMatchObject({
      'gardener.cloud/operation': 'rotate-ssh-keypair;reconcile',
    });
    expect(result.shoot.metadata?.annotations?.['maintenance.gardener.cloud/operation']).toBeUndefined();
    expect(result.shoot.metadata?.annotations?.['shoot.gardener.cloud/tasks']).toContain('restartControlPlanePods');

    const failed = shoot('1.34.5', (x) => {
      x.metadata!.annotations = { 'maintenance.shoot.gardener.cloud/needs-retry-operation': 'true' };
      x.status = {
        lastOperation: {
          type: 'Reconcile',
          state: 'Failed',
          progress: 50,
          description: '',
          lastUpdateTime: '2026-06-01T00:00:00Z',
        },
      } as Shoot['status'];
    });
    expect(
      maintainShoot(failed, profile(), { now: NOW }).shoot.metadata?.annotations?.['gardener.cloud/operation'],
    ).toBe('retry');
  });
});
