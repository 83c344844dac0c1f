// Tests of the ControllerInstallation controllers for self-hosted Shoots: what a shoot needs, the installations the
// reconciler creates, updates and deletes (`spec.shootRef`), the cluster finalizer on Shoots, and the triggers.
import { describe, expect, it } from 'vitest';
import type { BackupBucket, BackupEntry, ControllerInstallation, Shoot } from '@gardener-ts/api';
import type { Client, Condition } from '@gardener-ts/controller-runtime';
import { localShoot, registration } from '../../../../test/support/examples.js';
import { silentContext } from '../../../../test/support/csr.js';
import { ControllerInstallationKind, ShootKind } from '../../../kinds.js';
import { FakeGarden } from '../../testing/fake-garden.js';
import { FinalizerName } from '../finalizer/reconciler.js';
import {
  mapToReferencedShoot,
  selfHostedShootNeedsChanged,
  shootBackupEntryChanged,
  shootFinalizerTrigger,
  shootInstallationChanged,
} from './add.js';
import { ShootInstallationFinalizerReconciler } from './finalizer.js';
import { ControllerInstallationShootReconciler, ShootSpecHash } from './reconciler.js';
import { computeShootNeeds, isSelfHosted, planShootInstallations } from './required.js';

const NOW = '2026-01-01T00:00:00Z';

/** `garden-local/<name>` with a control plane worker pool backed up to `local` (a self-hosted shoot). */
const selfHosted = (name = 'root', backup = true): Shoot => {
  const shoot = localShoot(name, undefined);
  shoot.metadata!.uid = `${name}-uid`;
  shoot.spec.provider.workers = [
    {
      ...shoot.spec.provider.workers![0]!,
      name: 'control-plane',
      controlPlane: backup ? { backup: { provider: 'local' } } : {},
    },
  ];
  return shoot;
};

const registrations = () => [
  registration('provider-local', [
    { kind: 'ControlPlane', type: 'local' },
    { kind: 'Infrastructure', type: 'local' },
    { kind: 'Worker', type: 'local' },
    { kind: 'BackupBucket', type: 'local' },
    { kind: 'BackupEntry', type: 'local' },
  ]),
  registration('networking-calico', [{ kind: 'Network', type: 'calico' }]),
  registration('always', [{ kind: 'Extension', type: 'always' }], { policy: 'Always' }),
  registration('with-shoots', [{ kind: 'Extension', type: 'with-shoots' }], { policy: 'AlwaysExceptNoShoots' }),
  registration('unused', [{ kind: 'Extension', type: 'unused' }]),
];

const installation = (name: string, reg: string, shoot: Shoot, required?: boolean): ControllerInstallation => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'ControllerInstallation',
  metadata: { name },
  spec: {
    registrationRef: { name: reg },
    shootRef: { name: shoot.metadata!.name!, namespace: shoot.metadata!.namespace! },
  },
  ...(required === undefined
    ? {}
    : {
        status: {
          conditions: [
            { type: 'Required', status: required ? 'True' : 'False', reason: 'R', message: 'm' } as Condition,
          ],
        },
      }),
});

const needs = (shoot: Shoot, extra: Partial<Parameters<typeof computeShootNeeds>[0]> = {}) =>
  computeShootNeeds({
    shoot,
    registrations: registrations(),
    installations: [],
    backupBuckets: [],
    backupEntries: [],
    ...extra,
  });

describe('what a self-hosted shoot needs', () => {
  it('is self-hosted only with a control plane worker pool', () => {
    expect(isSelfHosted(selfHosted())).toBe(true);
    expect(isSelfHosted(selfHosted('x', false))).toBe(true);
    expect(isSelfHosted(localShoot('plain', 'local'))).toBe(false);
  });

  it('needs its flow’s extensions (backup from the control plane pool), Always and AlwaysExceptNoShoots ones', () => {
    const n = needs(selfHosted());
    if (!n.ok) throw new Error(n.error);
    expect([...n.registrations].sort()).toEqual(['always', 'networking-calico', 'provider-local', 'with-shoots']);
    expect([...n.kindTypes].sort()).toEqual([
      'BackupBucket/local',
      'BackupEntry/local',
      'ControlPlane/local',
      'Infrastructure/local',
      'Network/calico',
      'Worker/local',
    ]);
    const noBackup = needs(selfHosted('x', false));
    expect(noBackup.ok && noBackup.kindTypes.has('BackupBucket/local')).toBe(false);
  });

  it('in deletion needs only AlwaysExceptNoShoots and still-required installations', () => {
    const shoot = selfHosted();
    shoot.metadata!.deletionTimestamp = NOW;
    const n = needs(shoot, {
      installations: [
        installation('i1', 'provider-local', shoot, true),
        installation('i2', 'networking-calico', shoot, false),
        installation('i3', 'unused', selfHosted('other'), true),
      ],
    });
    expect(n.ok && [...n.registrations].sort()).toEqual(['provider-local', 'with-shoots']);
  });

  it('fails when no registration provides a needed kind/type', () => {
    const shoot = selfHosted();
    shoot.spec.networking = { ...shoot.spec.networking, type: 'cilium' };
    expect(needs(shoot)).toEqual({
      ok: false,
      error:
        'need to install an extension controller for "Network/cilium" but no appropriate ControllerRegistration found',
    });
  });

  it('counts BackupEntries of the shoot only with a bucket referencing the shoot', () => {
    const shoot = selfHosted('root', false);
    const ref = { name: 'root', namespace: 'garden-local' };
    const bucket = {
      kind: 'BackupBucket',
      metadata: { name: 'b' },
      spec: { provider: { type: 'local', region: 'r' }, shootRef: ref },
    } as unknown as BackupBucket;
    const entry = (bucketName: string) =>
      ({
        kind: 'BackupEntry',
        metadata: { name: `e-${bucketName}`, namespace: 'garden-local' },
        spec: { bucketName, shootRef: ref },
      }) as BackupEntry;
    const n = needs(shoot, { backupBuckets: [bucket], backupEntries: [entry('b'), entry('missing')] });
    if (!n.ok) throw new Error(n.error);
    expect(n.kindTypes).toContain('BackupBucket/local');
    expect(n.kindTypes).toContain('BackupEntry/local');
    expect(n.entriesWithoutBucket).toEqual(['garden-local/e-missing']);
  });

  it('plans only the shoot’s installations: deploy, skip deleted registrations, block on deleting installations', () => {
    const shoot = selfHosted();
    const regs = registrations();
    regs[4]!.metadata!.deletionTimestamp = NOW;
    const deleting = installation('i-calico', 'networking-calico', shoot);
    deleting.metadata!.deletionTimestamp = NOW;
    const plan = planShootInstallations(shoot, new Set(['provider-local', 'networking-calico', 'unused']), regs, [
      deleting,
      installation('i-always', 'always', shoot),
      installation('x', 'always', selfHosted('other')),
    ]);
    expect(plan).toMatchObject({ deploy: ['provider-local'], skipped: ['unused'], blocked: ['networking-calico'] });
    expect(plan.delete.map((i) => i.metadata?.name)).toEqual(['i-always']);
  });
});

describe('ControllerInstallationShootReconciler', () => {
  const key = { namespace: 'garden-local', name: 'root' };
  const reconciler = (g: FakeGarden) =>
    new ControllerInstallationShootReconciler({ client: g as unknown as Client, api: g as unknown as Client });
  const installationsOf = (g: FakeGarden, namespace = 'garden-local') =>
    ([...g.objects.values()] as ControllerInstallation[])
      .filter((o) => o.kind === 'ControllerInstallation' && o.spec.shootRef?.namespace === namespace)
      .sort((a, b) => (a.spec.registrationRef.name! < b.spec.registrationRef.name! ? -1 : 1));

  it('creates one installation per needed registration, then keeps them; deletes them once the shoot goes', async () => {
    const shoot = selfHosted();
    const g = new FakeGarden(shoot, ...registrations());
    await reconciler(g).reconcile(key, silentContext());
    const created = installationsOf(g);
    expect(created.map((i) => i.spec.registrationRef.name)).toEqual([
      'always',
      'networking-calico',
      'provider-local',
      'with-shoots',
    ]);
    expect(created[0]!.spec.shootRef).toMatchObject({ name: 'root', namespace: 'garden-local' });
    expect(created[0]!.spec.seedRef).toBeUndefined();
    expect(created[0]!.metadata?.labels?.[ShootSpecHash]).toMatch(/^[0-9a-f]{16}$/);

    const writes = g.writes.length;
    await reconciler(g).reconcile(key, silentContext());
    expect(g.writes.slice(writes).filter((w) => w.startsWith('create'))).toEqual([]);

    const stored = g.find<Shoot>('Shoot', 'garden-local', 'root')!;
    g.put({ ...stored, metadata: { ...stored.metadata, deletionTimestamp: NOW } });
    await reconciler(g).reconcile(key, silentContext());
    expect(installationsOf(g).map((i) => i.spec.registrationRef.name)).toEqual(['with-shoots']);
  });

  it('leaves other shoots’ installations alone and fails while an old installation is still being deleted', async () => {
    const shoot = selfHosted();
    const other = installation('other', 'unused', { ...selfHosted(), metadata: { name: 'root', namespace: 'x' } });
    const deleting = installation('old', 'provider-local', shoot);
    deleting.metadata!.deletionTimestamp = NOW;
    deleting.metadata!.finalizers = ['f'];
    const g = new FakeGarden(shoot, ...registrations(), other, deleting);
    await expect(reconciler(g).reconcile(key, silentContext())).rejects.toThrow(
      'cannot deploy new ControllerInstallation for "provider-local" because the deletion of the old ControllerInstallation is still pending',
    );
    expect(g.find('ControllerInstallation', '', 'other')).toBeDefined();
  });
});

describe('ShootInstallationFinalizerReconciler', () => {
  it('adds the finalizer, and on deletion removes it only once no installation references the shoot', async () => {
    const shoot = selfHosted();
    const key = { namespace: 'garden-local', name: 'root' };
    const g = new FakeGarden(shoot, installation('i', 'provider-local', shoot));
    const r = new ShootInstallationFinalizerReconciler(g as unknown as Client);
    await r.reconcile(key, silentContext());
    expect(g.find<Shoot>('Shoot', 'garden-local', 'root')?.metadata?.finalizers).toEqual([FinalizerName]);

    await g.delete(ShootKind, key);
    await r.reconcile(key, silentContext());
    expect(g.find<Shoot>('Shoot', 'garden-local', 'root')?.metadata?.finalizers).toEqual([FinalizerName]);

    await g.delete(ControllerInstallationKind, { name: 'i' });
    await r.reconcile(key, silentContext());
    expect(g.find<Shoot>('Shoot', 'garden-local', 'root')?.metadata?.finalizers).toEqual([]);
  });
});

describe('triggers for self-hosted shoots', () => {
  it('passes self-hosted shoots whose needs changed, or that are being deleted', () => {
    const a = selfHosted();
    expect(selfHostedShootNeedsChanged({ type: 'create', object: a })).toBe(true);
    expect(selfHostedShootNeedsChanged({ type: 'create', object: localShoot('p', 'local') })).toBe(false);
    const labelled = { ...structuredClone(a), metadata: { ...a.metadata, labels: { x: 'y' } } };
    expect(selfHostedShootNeedsChanged({ type: 'update', oldObject: a, object: labelled })).toBe(false);
    const networked = structuredClone(a);
    networked.spec.networking = { ...networked.spec.networking, type: 'cilium' };
    expect(selfHostedShootNeedsChanged({ type: 'update', oldObject: a, object: networked })).toBe(true);
    const deleting = { ...structuredClone(a), metadata: { ...a.metadata, deletionTimestamp: NOW } };
    expect(selfHostedShootNeedsChanged({ type: 'update', oldObject: a, object: deleting })).toBe(true);
  });

  it('passes installations for shoots on creation and on Required flips, and maps objects to their shoot', () => {
    const shoot = selfHosted();
    const i = installation('i', 'provider-local', shoot, false);
    expect(shootInstallationChanged({ type: 'create', object: i })).toBe(true);
    const forSeed = { ...i, spec: { registrationRef: { name: 'r' }, seedRef: { name: 's' } } };
    expect(shootInstallationChanged({ type: 'create', object: forSeed })).toBe(false);
    const required = installation('i', 'provider-local', shoot, true);
    expect(shootInstallationChanged({ type: 'update', oldObject: i, object: required })).toBe(true);
    expect(shootInstallationChanged({ type: 'update', oldObject: i, object: i })).toBe(false);
    expect(shootInstallationChanged({ type: 'delete', object: i })).toBe(false);
    expect(mapToReferencedShoot(i)).toEqual([{ namespace: 'garden-local', name: 'root' }]);
    expect(mapToReferencedShoot(forSeed)).toEqual([]);

    const entry = { kind: 'BackupEntry', metadata: { name: 'e' }, spec: { bucketName: 'b' } } as BackupEntry;
    expect(shootBackupEntryChanged({ type: 'create', object: entry })).toBe(true);
    expect(
      shootBackupEntryChanged({ type: 'create', object: { ...entry, spec: { ...entry.spec, seedName: 's' } } }),
    ).toBe(false);
  });

  it('wakes the finalizer on creation, generation changes and deletion only', () => {
    const a = selfHosted();
    a.metadata!.generation = 1;
    expect(shootFinalizerTrigger({ type: 'create', object: a })).toBe(true);
    const status = { ...structuredClone(a), status: { observedGeneration: 1 } } as Shoot;
    expect(shootFinalizerTrigger({ type: 'update', oldObject: a, object: status })).toBe(false);
    const deleting = { ...structuredClone(a), metadata: { ...a.metadata, deletionTimestamp: NOW } };
    expect(shootFinalizerTrigger({ type: 'update', oldObject: a, object: deleting })).toBe(true);
  });
});
