// The gardenlet's "Shoot cluster preparation for migration" flow in the source seed as a `@gardener-ts/flow` graph:
// Gardener's task names and dependencies (`pkg/gardenlet/controller/shoot/shoot/reconciler_migrate.go`). The shoot's
// ManagedResources go with their objects kept in the shoot; every extension resource is asked to `migrate` (its
// extension forgets it and keeps what it created outside), waited for, and the ShootState is persisted in the garden;
// then the extension resources, kube-apiserver, etcd (after its final full snapshot, when backups exist, and after the
// shoot's BackupEntry was moved to the destination seed and migrated by this seed's BackupEntry controller) and the
// control plane namespace are deleted. The destination seed's gardenlet restores from the ShootState.
import type { Flow, RetryOptions } from '@gardener-ts/flow';
import { DefaultStepRetry, ShootGraph } from './builder.js';
import type { FlowConditions } from './conditions.js';
import { SkipReasons, type SkippedTask, type Step, type StepOrSkip } from './operation.js';

/** The steps of the migrate flow that have a local counterpart. */
export interface MigrateOperation {
  deployNamespace: Step;
  initializeSecretsManagement: Step;
  deployEtcd: Step;
  scaleUpEtcd: Step;
  waitForEtcd: Step;
  wakeUpKubeAPIServer: Step;
  deployGardenerResourceManager: Step;
  scaleUpGardenerResourceManager: Step;
  keepManagedResourcesObjects: Step;
  deleteManagedResources: Step;
  waitForManagedResourcesDeleted: Step;
  migrateExtensionResources: Step;
  waitForExtensionResourcesMigrated: Step;
  migrateExtensionsBeforeKubeAPIServer: Step;
  waitForExtensionsBeforeKubeAPIServerMigrated: Step;
  persistShootState: Step;
  deleteExtensionResources: Step;
  waitForExtensionResourcesDeleted: Step;
  shallowDeleteMachineResources: Step;
  waitForMachineResourcesDeleted: Step;
  destroyExtensionsBeforeKubeAPIServer: Step;
  waitForExtensionsBeforeKubeAPIServerDeleted: Step;
  deleteStaleExtensions: Step;
  waitForStaleExtensionsDeleted: Step;
  migrateControlPlane: Step;
  destroyControlPlane: Step;
  waitForControlPlaneDeleted: Step;
  waitForShootManagedResourcesDeleted: Step;
  deleteKubeAPIServer: Step;
  waitForKubeAPIServerDeleted: Step;
  migrateExtensionsAfterKubeAPIServer: Step;
  waitForExtensionsAfterKubeAPIServerMigrated: Step;
  destroyExtensionsAfterKubeAPIServer: Step;
  waitForExtensionsAfterKubeAPIServerDeleted: Step;
  waitForExtensionsDeleted: Step;
  migrateInfrastructure: Step;
  waitForInfrastructureMigrated: Step;
  destroyInfrastructure: Step;
  waitForInfrastructureDeleted: Step;
  migrateExternalDNSRecord: Step;
  migrateInternalDNSRecord: Step;
  destroyDNSRecords: Step;
  snapshotEtcd: Step;
  migrateBackupEntry: Step;
  waitForBackupEntryMigrated: Step;
  destroyEtcd: Step;
  waitForEtcdDeleted: Step;
  deleteNamespace: Step;
  waitForNamespaceDeleted: Step;
}

/** The migrate steps an implementation provides; a missing one is skipped and listed as not implemented. */
export type MigrateSteps = { [K in keyof MigrateOperation]?: StepOrSkip };

/** What the migrate flow needs to know about the source seed and the garden before it starts. */
export interface MigrateFlowState {
  /** The control plane namespace exists and is not terminating. */
  readonly namespaceActive: boolean;
  /** The kube-apiserver Deployment exists and is not being deleted. */
  readonly kubeAPIServerDeploymentFound: boolean;
  /**
   * etcd's final full snapshot is needed: the shoot's BackupEntry belongs to this seed and the namespace exists
   * (Gardener's `etcdSnapshotRequired`).
   */
  readonly etcdSnapshotRequired: boolean;
}

/** Options of {@link migrateFlow}. */
export interface MigrateFlowOptions {
  /** Retry of deploy/destroy steps; Gardener's 5 s / 30 s by default, `false` for none. */
  readonly retry?: RetryOptions | false;
}

/** Builds the migrate flow of a shoot over its operation. */
export function migrateFlow(
  op: MigrateSteps,
  c: FlowConditions,
  state: MigrateFlowState,
  options: MigrateFlowOptions = {},
): { flow: Flow; skipped: readonly SkippedTask[] } {
  const g = new ShootGraph(
    'Shoot cluster preparation for migration',
    options.retry === false ? undefined : (options.retry ?? DefaultStepRetry),
  );
  const active = state.namespaceActive;
  const cleanup = active && state.kubeAPIServerDeploymentFound;
  const wakeupRequired = cleanup && (c.hibernated || c.hibernationEnabled);
  const snapshot = state.etcdSnapshotRequired;
  const w = c.workerless;

  const deployNamespace = g.add({
    name: 'Deploying Shoot namespace in Seed',
    step: op.deployNamespace,
    retry: true,
    skipIf: !active,
  });
  const istioConfigMap = g.add({
    name: 'Reconcile Istio internal load balancing ConfigMap',
    local: SkipReasons.istio,
    dependencies: [deployNamespace],
  });
  const initializeSecretsManagement = g.add({
    name: 'Initializing secrets management',
    step: op.initializeSecretsManagement,
    retry: true,
    skipIf: !active,
    dependencies: [deployNamespace, istioConfigMap],
  });
  const deployETCD = g.add({
    name: 'Deploying main and events etcd',
    step: op.deployEtcd,
    retry: true,
    skipIf: !cleanup && !snapshot,
    dependencies: [initializeSecretsManagement],
  });
  const scaleUpETCD = g.add({
    name: 'Scaling etcd up',
    step: op.scaleUpEtcd,
    retry: true,
    skipIf: !wakeupRequired,
    dependencies: [deployETCD],
  });
  const waitUntilEtcdReady = g.add({
    name: 'Waiting until main and event etcd report readiness',
    step: op.waitForEtcd,
    skipIf: !cleanup && !snapshot,
    dependencies: [deployETCD, scaleUpETCD],
  });
  const wakeUpKubeAPIServer = g.add({
    name: 'Scaling Kubernetes API Server up and waiting until ready',
    step: op.wakeUpKubeAPIServer,
    skipIf: !wakeupRequired,
    dependencies: [deployETCD, scaleUpETCD, initializeSecretsManagement],
  });
  const deployGardenerResourceManager = g.add({
    name: 'Deploying gardener-resource-manager',
    step: op.deployGardenerResourceManager,
    skipIf: !cleanup,
    dependencies: [wakeUpKubeAPIServer],
  });
  const ensureResourceManagerScaledUp = g.add({
    name: 'Ensuring that the gardener-resource-manager is scaled to 1',
    step: op.scaleUpGardenerResourceManager,
    skipIf: !cleanup,
    dependencies: [deployGardenerResourceManager],
  });
  const keepManagedResourcesObjectsInShoot = g.add({
    name: 'Configuring Managed Resources objects to be kept in the Shoot',
    step: op.keepManagedResourcesObjects,
    skipIf: !cleanup,
    dependencies: [ensureResourceManagerScaledUp],
  });
  const deleteManagedResources = g.add({
    name: "Deleting all Managed Resources from the Shoot's namespace",
    step: op.deleteManagedResources,
    dependencies: [keepManagedResourcesObjectsInShoot, ensureResourceManagerScaledUp],
  });
  const waitForManagedResourcesDeletion = g.add({
    name: 'Waiting until ManagedResources are deleted',
    step: op.waitForManagedResourcesDeleted,
    dependencies: [deleteManagedResources],
  });
  const deleteMachineControllerManager = g.add({
    name: 'Deleting machine-controller-manager',
    local: w ? undefined : SkipReasons.machineControllerManager,
    skipIf: w,
    dependencies: [waitForManagedResourcesDeletion],
  });
  const waitUntilMachineControllerManagerDeleted = g.add({
    name: 'Waiting until machine-controller-manager has been deleted',
    local: w ? undefined : SkipReasons.machineControllerManager,
    skipIf: w,
    dependencies: [deleteMachineControllerManager],
  });
  const migrateExtensionResources = g.add({
    name: 'Migrating extension resources',
    step: op.migrateExtensionResources,
    dependencies: [waitUntilMachineControllerManagerDeleted],
  });
  const waitUntilExtensionResourcesMigrated = g.add({
    name: 'Waiting until extension resources have been migrated',
    step: op.waitForExtensionResourcesMigrated,
    dependencies: [migrateExtensionResources],
  });
  const migrateExtensionsBeforeKubeAPIServer = g.add({
    name: 'Migrating extensions before kube-apiserver',
    step: op.migrateExtensionsBeforeKubeAPIServer,
    dependencies: [waitForManagedResourcesDeletion],
  });
  const waitUntilExtensionsBeforeKubeAPIServerMigrated = g.add({
    name: 'Waiting until extensions that should be handled before kube-apiserver have been migrated',
    step: op.waitForExtensionsBeforeKubeAPIServerMigrated,
    dependencies: [migrateExtensionsBeforeKubeAPIServer],
  });
  const persistShootState = g.add({
    name: 'Persisting ShootState in garden cluster',
    step: op.persistShootState,
    dependencies: [waitUntilExtensionResourcesMigrated],
  });
  const deleteExtensionResources = g.add({
    name: 'Deleting extension resources from the Shoot namespace',
    step: op.deleteExtensionResources,
    dependencies: [persistShootState],
  });
  const waitUntilExtensionResourcesDeleted = g.add({
    name: 'Waiting until extension resources have been deleted',
    step: op.waitForExtensionResourcesDeleted,
    dependencies: [deleteExtensionResources],
  });
  const deleteMachineResources = g.add({
    name: 'Shallow-deleting machine resources from the Shoot namespace',
    step: op.shallowDeleteMachineResources,
    dependencies: [persistShootState],
  });
  const waitUntilMachineResourcesDeleted = g.add({
    name: 'Waiting until machine resources have been deleted',
    step: op.waitForMachineResourcesDeleted,
    dependencies: [deleteMachineResources],
  });
  const deleteExtensionsBeforeKubeAPIServer = g.add({
    name: 'Deleting extensions before kube-apiserver',
    step: op.destroyExtensionsBeforeKubeAPIServer,
    dependencies: [waitUntilExtensionResourcesDeleted, waitUntilExtensionsBeforeKubeAPIServerMigrated],
  });
  const waitUntilExtensionsBeforeKubeAPIServerDeleted = g.add({
    name: 'Waiting until extensions that should be handled before kube-apiserver have been deleted',
    step: op.waitForExtensionsBeforeKubeAPIServerDeleted,
    dependencies: [deleteExtensionsBeforeKubeAPIServer],
  });
  const deleteStaleExtensionResources = g.add({
    name: 'Deleting stale extensions',
    step: op.deleteStaleExtensions,
    dependencies: [waitUntilExtensionResourcesMigrated],
  });
  const waitUntilStaleExtensionResourcesDeleted = g.add({
    name: 'Waiting until all stale extensions have been deleted',
    step: op.waitForStaleExtensionsDeleted,
    dependencies: [deleteStaleExtensionResources],
  });
  const migrateControlPlane = g.add({
    name: 'Migrating shoot control plane',
    step: op.migrateControlPlane,
    skipIf: w,
    dependencies: [
      waitUntilExtensionResourcesDeleted,
      waitUntilExtensionsBeforeKubeAPIServerDeleted,
      waitUntilStaleExtensionResourcesDeleted,
    ],
  });
  const deleteControlPlane = g.add({
    name: 'Deleting shoot control plane',
    step: op.destroyControlPlane,
    retry: true,
    skipIf: w,
    dependencies: [migrateControlPlane],
  });
  const waitUntilControlPlaneDeleted = g.add({
    name: 'Waiting until shoot control plane has been deleted',
    step: op.waitForControlPlaneDeleted,
    skipIf: w,
    dependencies: [deleteControlPlane],
  });
  const waitUntilShootManagedResourcesDeleted = g.add({
    name: 'Waiting until shoot managed resources have been deleted',
    step: op.waitForShootManagedResourcesDeleted,
    retry: true,
    skipIf: !cleanup,
    dependencies: [waitUntilControlPlaneDeleted],
  });
  const deleteKubeAPIServer = g.add({
    name: 'Deleting kube-apiserver deployment',
    step: op.deleteKubeAPIServer,
    retry: true,
    dependencies: [
      waitForManagedResourcesDeletion,
      waitUntilEtcdReady,
      waitUntilControlPlaneDeleted,
      waitUntilShootManagedResourcesDeleted,
    ],
  });
  const waitUntilKubeAPIServerDeleted = g.add({
    name: 'Waiting until kube-apiserver has been deleted',
    step: op.waitForKubeAPIServerDeleted,
    dependencies: [deleteKubeAPIServer],
  });
  const migrateExtensionsAfterKubeAPIServer = g.add({
    name: 'Migrating extensions after kube-apiserver',
    step: op.migrateExtensionsAfterKubeAPIServer,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  const waitUntilExtensionsAfterKubeAPIServerMigrated = g.add({
    name: 'Waiting until extensions that should be handled after kube-apiserver have been migrated',
    step: op.waitForExtensionsAfterKubeAPIServerMigrated,
    dependencies: [migrateExtensionsAfterKubeAPIServer],
  });
  const deleteExtensionsAfterKubeAPIServer = g.add({
    name: 'Deleting extensions after kube-apiserver',
    step: op.destroyExtensionsAfterKubeAPIServer,
    dependencies: [waitUntilExtensionsAfterKubeAPIServerMigrated],
  });
  const waitUntilExtensionsAfterKubeAPIServerDeleted = g.add({
    name: 'Waiting until extensions that should be handled after kube-apiserver have been deleted',
    step: op.waitForExtensionsAfterKubeAPIServerDeleted,
    dependencies: [deleteExtensionsAfterKubeAPIServer],
  });
  const waitUntilExtensionsDeleted = g.add({
    name: 'Waiting until all extensions have been deleted',
    step: op.waitForExtensionsDeleted,
    dependencies: [waitUntilExtensionsAfterKubeAPIServerMigrated],
  });
  const migrateInfrastructure = g.add({
    name: 'Migrating shoot infrastructure',
    step: op.migrateInfrastructure,
    skipIf: w,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  const waitUntilInfrastructureMigrated = g.add({
    name: 'Waiting until shoot infrastructure has been migrated',
    step: op.waitForInfrastructureMigrated,
    skipIf: w,
    dependencies: [migrateInfrastructure],
  });
  const deleteInfrastructure = g.add({
    name: 'Deleting shoot infrastructure',
    step: op.destroyInfrastructure,
    skipIf: w,
    dependencies: [waitUntilInfrastructureMigrated],
  });
  const waitUntilInfrastructureDeleted = g.add({
    name: 'Waiting until shoot infrastructure has been deleted',
    step: op.waitForInfrastructureDeleted,
    skipIf: w,
    dependencies: [deleteInfrastructure],
  });
  const migrateIngressDNSRecord = g.add({
    name: 'Migrating nginx ingress DNS record',
    local: SkipReasons.addon,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  const migrateExternalDNSRecord = g.add({
    name: 'Migrating external domain DNS record',
    step: op.migrateExternalDNSRecord,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  const migrateInternalDNSRecord = g.add({
    name: 'Migrating internal domain DNS record',
    step: op.migrateInternalDNSRecord,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  const syncPoint = [
    waitUntilExtensionsAfterKubeAPIServerDeleted,
    waitUntilMachineResourcesDeleted,
    waitUntilExtensionsDeleted,
    waitUntilInfrastructureDeleted,
  ];
  const destroyDNSRecords = g.add({
    name: 'Deleting DNSRecords from the Shoot namespace',
    step: op.destroyDNSRecords,
    skipIf: !active,
    dependencies: [...syncPoint, migrateIngressDNSRecord, migrateExternalDNSRecord, migrateInternalDNSRecord],
  });
  const createETCDSnapshot = g.add({
    name: 'Creating ETCD Snapshot',
    step: op.snapshotEtcd,
    skipIf: !snapshot,
    dependencies: [...syncPoint, waitUntilKubeAPIServerDeleted],
  });
  const migrateBackupEntryInGarden = g.add({
    name: 'Migrating BackupEntry to new seed',
    step: op.migrateBackupEntry,
    dependencies: [...syncPoint, createETCDSnapshot],
  });
  const waitUntilBackupEntryInGardenMigrated = g.add({
    name: 'Waiting for BackupEntry to be migrated to new seed',
    step: op.waitForBackupEntryMigrated,
    dependencies: [migrateBackupEntryInGarden],
  });
  const destroyEtcd = g.add({
    name: 'Destroying main and events etcd',
    step: op.destroyEtcd,
    retry: true,
    dependencies: [...syncPoint, createETCDSnapshot, waitUntilBackupEntryInGardenMigrated],
  });
  const waitUntilEtcdDeleted = g.add({
    name: 'Waiting until main and event etcd have been destroyed',
    step: op.waitForEtcdDeleted,
    retry: true,
    dependencies: [destroyEtcd],
  });
  const deleteNamespace = g.add({
    name: 'Deleting shoot namespace in Seed',
    step: op.deleteNamespace,
    retry: true,
    dependencies: [
      ...syncPoint,
      waitUntilBackupEntryInGardenMigrated,
      deleteExtensionResources,
      destroyDNSRecords,
      waitForManagedResourcesDeletion,
      waitUntilEtcdDeleted,
    ],
  });
  g.add({
    name: 'Waiting until shoot namespace in Seed has been deleted',
    step: op.waitForNamespaceDeleted,
    dependencies: [deleteNamespace],
  });

  return { flow: g.graph.compile(), skipped: g.skipped };
}
