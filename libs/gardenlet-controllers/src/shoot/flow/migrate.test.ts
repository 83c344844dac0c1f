// The migrate flow over a recording fake: Gardener's order — ManagedResources released before extensions migrate,
// every extension resource migrated before the ShootState is persisted and before it is deleted, kube-apiserver gone
// before the infrastructure migrates, etcd destroyed only after the snapshot task and the namespace last — whatever
// order the steps finish in; and a source seed whose namespace is gone only does what is left.
import { FlowFailedError, type ProgressEvent } from '@gardener-ts/flow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Shoot } from '@gardener-ts/api';
import { exampleSeed, exampleShoot } from '../../component/testdata/fixtures.js';
import { recordingOperation } from '../testing/recording-operation.js';
import { flowConditions } from './conditions.js';
import { migrateFlow, type MigrateFlowState, type MigrateOperation } from './migrate.js';

const running: MigrateFlowState = {
  namespaceActive: true,
  kubeAPIServerDeploymentFound: true,
  etcdSnapshotRequired: true,
};

// Must-come-before pairs of Gardener's migrate flow (reconciler_migrate.go), by step.
const mustComeBefore: [keyof MigrateOperation, keyof MigrateOperation][] = [
  ['initializeSecretsManagement', 'deployEtcd'],
  ['waitForEtcd', 'deleteKubeAPIServer'],
  ['keepManagedResourcesObjects', 'deleteManagedResources'],
  ['waitForManagedResourcesDeleted', 'migrateExtensionResources'],
  ['waitForManagedResourcesDeleted', 'migrateExtensionsBeforeKubeAPIServer'],
  ['migrateExtensionResources', 'waitForExtensionResourcesMigrated'],
  ['waitForExtensionResourcesMigrated', 'persistShootState'],
  ['persistShootState', 'deleteExtensionResources'],
  ['waitForExtensionResourcesDeleted', 'migrateControlPlane'],
  ['waitForExtensionsBeforeKubeAPIServerMigrated', 'destroyExtensionsBeforeKubeAPIServer'],
  ['waitForExtensionsBeforeKubeAPIServerDeleted', 'migrateControlPlane'],
  ['migrateControlPlane', 'destroyControlPlane'],
  ['waitForControlPlaneDeleted', 'deleteKubeAPIServer'],
  ['waitForKubeAPIServerDeleted', 'migrateInfrastructure'],
  ['waitForKubeAPIServerDeleted', 'migrateExtensionsAfterKubeAPIServer'],
  ['waitForExtensionsAfterKubeAPIServerMigrated', 'destroyExtensionsAfterKubeAPIServer'],
  ['waitForInfrastructureMigrated', 'destroyInfrastructure'],
  ['waitForKubeAPIServerDeleted', 'migrateInternalDNSRecord'],
  ['migrateInternalDNSRecord', 'destroyDNSRecords'],
  ['waitForInfrastructureDeleted', 'snapshotEtcd'],
  ['snapshotEtcd', 'destroyEtcd'],
  ['waitForBackupEntryMigrated', 'destroyEtcd'],
  ['waitForEtcdDeleted', 'deleteNamespace'],
  ['destroyDNSRecords', 'deleteNamespace'],
  ['deleteNamespace', 'waitForNamespaceDeleted'],
];

async function run(
  shoot: Shoot,
  state: MigrateFlowState,
  options: { fail?: string[]; delay?: (s: string) => number } = {},
) {
  const { op, recording } = recordingOperation<MigrateOperation>(options);
  const { flow, skipped } = migrateFlow(op, flowConditions(shoot, exampleSeed()), state, { retry: false });
  const events: ProgressEvent[] = [];
  const result = await flow.run({ reporter: { report: (e) => void events.push(e) } }).then(
    () => undefined,
    (err: unknown) => err,
  );
  return { recording, skipped, events, result, name: flow.name };
}

describe('migrate flow', () => {
  it("prepares the shoot for migration in Gardener's order and reaches 100 %", async () => {
    const { result, events, recording, skipped, name } = await run(exampleShoot(), running);
    expect(result).toBeUndefined();
    expect(name).toBe('Shoot cluster preparation for migration');
    expect(events.at(-1)).toMatchObject({ type: 'flow-finished', stats: { progressPercent: 100 } });
    expect(recording.finished.at(-1)).toBe('waitForNamespaceDeleted');
    // An awake shoot is not woken up.
    for (const step of ['scaleUpEtcd', 'wakeUpKubeAPIServer']) expect(recording.started).not.toContain(step);
    expect(recording.finished).toContain('snapshotEtcd');
    expect(skipped.map((s) => s.task)).toEqual(
      expect.arrayContaining([
        'Reconcile Istio internal load balancing ConfigMap',
        'Deleting machine-controller-manager',
      ]),
    );
  });

  it("respects Gardener's ordering whatever order the steps finish in (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.func(fc.nat({ max: 3 })), async (delay) => {
        const { recording, result } = await run(exampleShoot(), running, { delay: (s) => delay(s) });
        expect(result).toBeUndefined();
        for (const [before, after] of mustComeBefore) {
          expect(recording.finished.indexOf(before), `${before} before ${after}`).toBeGreaterThanOrEqual(0);
          expect(recording.finished.indexOf(before), `${before} before ${after}`).toBeLessThan(
            recording.started.indexOf(after),
          );
        }
      }),
      { numRuns: 25 },
    );
  });

  it('wakes a hibernated shoot up far enough to release its ManagedResources', async () => {
    const hibernated = exampleShoot((s) => (s.status = { hibernated: true } as never));
    const { recording } = await run(hibernated, running);
    expect(recording.finished.indexOf('scaleUpEtcd')).toBeLessThan(recording.started.indexOf('wakeUpKubeAPIServer'));
    expect(recording.finished.indexOf('wakeUpKubeAPIServer')).toBeLessThan(
      recording.started.indexOf('deployGardenerResourceManager'),
    );
  });

  it('without the namespace only migrates and deletes what is left; without backup no snapshot', async () => {
    const { recording, result } = await run(exampleShoot(), {
      namespaceActive: false,
      kubeAPIServerDeploymentFound: false,
      etcdSnapshotRequired: false,
    });
    expect(result).toBeUndefined();
    for (const step of [
      'deployNamespace',
      'initializeSecretsManagement',
      'deployEtcd',
      'deployGardenerResourceManager',
      'snapshotEtcd',
      'destroyDNSRecords',
    ])
      expect(recording.started).not.toContain(step);
    expect(recording.finished).toEqual(
      expect.arrayContaining(['persistShootState', 'deleteExtensionResources', 'deleteNamespace']),
    );
  });

  it('never deletes an extension resource whose migration failed, nor the ShootState source', async () => {
    const { result, recording } = await run(exampleShoot(), running, { fail: ['waitForExtensionResourcesMigrated'] });
    expect(result).toBeInstanceOf(FlowFailedError);
    for (const step of ['persistShootState', 'deleteExtensionResources', 'migrateControlPlane', 'deleteNamespace'])
      expect(recording.started).not.toContain(step);
  });
});
