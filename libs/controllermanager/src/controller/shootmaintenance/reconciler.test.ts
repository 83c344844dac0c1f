// Unit tests of the shoot maintenance reconciler against an in-memory garden: what it writes and the events it records
// (Kubernetes and machine image version maintenance, a failed write).
import { describe, expect, it } from 'vitest';
import type { CloudProfile, Shoot } from '@gardener-ts/api';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { example, localShoot } from '../../../test/support/examples.js';
import { silentContext } from '../../../test/support/csr.js';
import { FakeGarden } from '../testing/fake-garden.js';
import { maintenanceEvents, maintainShoot } from './maintain.js';
import { ShootMaintenanceReconciler } from './reconciler.js';

const NOW = new Date('2026-06-01T22:30:00Z');

function profile(): CloudProfile {
  const p = example<CloudProfile>('local', 'cloudprofile.yaml');
  p.spec.kubernetes!.versions = [{ version: '1.34.5' }, { version: '1.34.3' }];
  p.spec.machineImages = [
    {
      name: 'local',
      versions: [
        { version: '1.0.0', expirationDate: '2026-01-01T00:00:00Z' },
        { version: '1.1.0' },
        { version: '2.0.0' },
      ],
      updateStrategy: 'patch',
    },
  ];
  return p;
}

function shoot(): Shoot {
  const s = localShoot('maintained', 'local');
  s.metadata!.uid = 'uid-1';
  s.spec.kubernetes.version = '1.34.3';
  s.spec.maintenance = {
    autoUpdate: { kubernetesVersion: true, machineImageVersion: false },
    timeWindow: { begin: '220000+0000', end: '230000+0000' },
  };
  s.spec.provider.workers![0]!.machine.image = { name: 'local', version: '1.0.0' };
  return s;
}

/**
 * A FakeGarden as the API server behaves for Shoots: dry-run updates write nothing, an update keeps the stored status
 * (it is a subresource), and real updates may fail.
 */
function client(garden: FakeGarden, failUpdate = false) {
  return Object.assign(Object.create(garden) as FakeGarden, {
    update: async (obj: KubernetesObject, opts?: { dryRun?: boolean }) => {
      if (opts?.dryRun) return obj;
      if (failUpdate) throw new Error('admission webhook denied the request');
      const stored = garden.find<Shoot>('Shoot', obj.metadata!.namespace!, obj.metadata!.name!);
      return garden.update({ ...obj, status: stored?.status } as KubernetesObject);
    },
  });
}

function reconcilerFor(garden: FakeGarden, failUpdate = false) {
  const events: string[] = [];
  const reconciler = new ShootMaintenanceReconciler({
    client: client(garden, failUpdate) as never,
    events: {
      actionEvent: (regarding, _related, type, reason, action, note) =>
        events.push(`${regarding.metadata?.name} ${type} ${reason} ${action}: ${note}`),
    },
    now: () => NOW,
    random: () => 0,
  });
  return { reconciler, events };
}

describe('ShootMaintenanceReconciler', () => {
  it('writes the maintained spec and lastMaintenance and records an event per version update', async () => {
    const garden = new FakeGarden(shoot(), profile());
    const { reconciler, events } = reconcilerFor(garden);
    await reconciler.reconcile({ namespace: 'garden-local', name: 'maintained' }, silentContext());

    const stored = garden.find<Shoot>('Shoot', 'garden-local', 'maintained')!;
    expect(stored.spec.kubernetes.version).toBe('1.34.5');
    expect(stored.spec.provider.workers![0]!.machine.image?.version).toBe('1.1.0');
    expect(stored.status?.lastMaintenance).toMatchObject({
      state: 'Succeeded',
      description:
        'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.34.3" to "1.34.5". Reason: Automatic update of Kubernetes version configured, ' +
        'Worker pool "local": Updated machine image "local" from "1.0.0" to "1.1.0". Reason: Machine image version expired - force update required (image update strategy: patch)',
    });
    expect(events).toEqual([
      'maintained Normal KubernetesVersionMaintenance Reconcile: Control Plane: Updated Kubernetes version from "1.34.3" to "1.34.5". Reason: Automatic update of Kubernetes version configured.',
      'maintained Normal MachineImageVersionMaintenance Reconcile: Worker pool "local": Updated machine image "local" from "1.0.0" to "1.1.0". Reason: Machine image version expired - force update required (image update strategy: patch).',
    ]);
  });

  it('records MaintenanceFailed when the maintained Shoot cannot be written', async () => {
    const garden = new FakeGarden(shoot(), profile());
    const { reconciler, events } = reconcilerFor(garden, true);
    await expect(
      reconciler.reconcile({ namespace: 'garden-local', name: 'maintained' }, silentContext()),
    ).rejects.toThrow('admission webhook denied the request');
    expect(events).toEqual(['maintained Warning MaintenanceFailed Reconcile: admission webhook denied the request']);
  });

  it('records nothing outside the window', async () => {
    const garden = new FakeGarden(shoot(), profile());
    const events: string[] = [];
    const outside = new ShootMaintenanceReconciler({
      client: garden as never,
      events: { actionEvent: () => events.push('unexpected') },
      now: () => new Date('2026-06-01T12:00:00Z'),
    });
    await outside.reconcile({ namespace: 'garden-local', name: 'maintained' }, silentContext());
    expect(events).toEqual([]);
    expect(garden.writes).toEqual([]);
  });
});

describe('maintenanceEvents', () => {
  it('warns about failed updates with the reason and the error', () => {
    const p = profile();
    p.spec.kubernetes!.versions = [{ version: '1.34.3', expirationDate: '2026-01-01T00:00:00Z' }];
    p.spec.machineImages[0]!.updateStrategy = 'major';
    p.spec.machineImages[0]!.versions = [{ version: '1.0.0', expirationDate: '2026-01-01T00:00:00Z' }];
    const s = shoot();
    s.spec.provider.workers![0]!.kubernetes = { version: '1.34.3' };
    const result = maintainShoot(s, p, { now: NOW });
    expect(result.lastMaintenance?.state).toBe('Failed');
    expect(result.lastMaintenance?.description).toBe(
      '(0/3) maintenance operations successful. ' +
        'Control Plane: Kubernetes version update failed. Reason for update: Kubernetes version expired - force update required, ' +
        'Worker pool "local": Kubernetes version maintenance failed. Reason for update: Kubernetes version expired - force update required, ' +
        'Worker pool "local": machine image version maintenance failed. Reason for update: Machine image version expired - force update required (image update strategy: major)',
    );
    expect(result.lastMaintenance?.failureReason).toMatch(
      /^Control Plane: Kubernetes maintenance failure due to: could not determine .*, Worker pool "local": Kubernetes maintenance failure due to: could not determine .*, Worker pool "local": failed to update machine image "local": /,
    );
    const events = maintenanceEvents(result);
    expect(events.map((e) => `${e.type} ${e.reason}`)).toEqual([
      'Warning KubernetesVersionMaintenance',
      'Warning KubernetesVersionMaintenance',
      'Warning MachineImageVersionMaintenance',
    ]);
    expect(events[0]!.message).toMatch(
      /^Control Plane: Kubernetes version maintenance failed\. Reason for update: Kubernetes version expired - force update required\. Error: could not determine higher suitable version than "1\.34\.3": cannot perform forceful update/,
    );
    expect(events[1]!.message).toMatch(
      /^Worker pool "local": Kubernetes version maintenance failed\. Reason for update: Kubernetes version expired - force update required\. Error: /,
    );
    expect(events[2]!.message).toMatch(
      /^Worker pool "local": Machine image version maintenance failed\. Reason for update: Machine image version expired - force update required \(image update strategy: major\)\. Error: failed to update machine image "local": /,
    );
  });
});

describe('ShootMaintenanceReconciler across 1.34 with a SecretBinding', () => {
  it('creates the CredentialsBinding and moves the Shoot to it', async () => {
    const p = profile();
    p.spec.kubernetes!.versions = [
      { version: '1.34.3' },
      { version: '1.33.0', expirationDate: '2026-01-01T00:00:00Z' },
    ];
    const s = shoot();
    s.spec.kubernetes.version = '1.33.0';
    s.spec.secretBindingName = 'local';
    delete s.spec.credentialsBindingName;
    const secretBinding = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'SecretBinding',
      metadata: { name: 'local', namespace: 'garden-local' },
      secretRef: { name: 'local-secret', namespace: 'garden-local' },
      provider: { type: 'local' },
    } as KubernetesObject;
    const garden = new FakeGarden(s, p, secretBinding);
    const { reconciler } = reconcilerFor(garden);
    await reconciler.reconcile({ namespace: 'garden-local', name: 'maintained' }, silentContext());

    const stored = garden.find<Shoot>('Shoot', 'garden-local', 'maintained')!;
    expect(stored.spec.kubernetes.version).toBe('1.34.3');
    expect(stored.spec.credentialsBindingName).toBe('force-migrated-local');
    expect(stored.spec.secretBindingName).toBeUndefined();
    expect(garden.find('CredentialsBinding', 'garden-local', 'force-migrated-local')).toBeDefined();
  });
});
