import { describe, expect, it } from 'vitest';
import { ConfigError, parseComponentConfig } from '../load.js';
import type { ComponentConfigSpec } from '../spec.js';
import { admissionControllerConfigSpec } from './admission.js';
import { controllerManagerConfigSpec } from './controller-manager.js';
import { gardenletConfigSpec } from './gardenlet.js';
import { operatorConfigSpec } from './operator.js';

// Gardener's example component configurations (example/20-componentconfig-gardenlet.yaml,
// example/operator/10-componentconfig.yaml, example/20-componentconfig-gardener-controller-manager.yaml,
// example/20-componentconfig-gardener-admission-controller.yaml), without their comment lines.
const GARDENLET_EXAMPLE = `
apiVersion: gardenlet.config.gardener.cloud/v1alpha1
kind: GardenletConfiguration
gardenClientConnection:
  qps: 100
  burst: 130
seedClientConnection:
  qps: 100
  burst: 130
shootClientConnection:
  qps: 25
  burst: 50
controllers:
  bastion:
    concurrentSyncs: 20
  backupBucket:
    concurrentSyncs: 20
  backupEntry:
    concurrentSyncs: 20
    deletionGracePeriodHours: 0
  controllerInstallation:
    concurrentSyncs: 20
  controllerInstallationCare:
    concurrentSyncs: 20
    syncPeriod: 30s
  controllerInstallationRequired:
    concurrentSyncs: 1
  gardenlet:
    syncPeriod: 1h
  networkPolicy:
    concurrentSyncs: 5
  shoot:
    concurrentSyncs: 20
    syncPeriod: 1h
    retryDuration: 12h
  shootCare:
    concurrentSyncs: 5
    syncPeriod: 30s
    staleExtensionHealthChecks:
      enabled: true
    managedResourceProgressingThreshold: 1h
    conditionThresholds:
    - type: APIServerAvailable
      duration: 1m
    - type: ControlPlaneHealthy
      duration: 1m
    - type: ObservabilityComponentsHealthy
      duration: 1m
    - type: SystemComponentsHealthy
      duration: 1m
    - type: EveryNodeReady
      duration: 5m
    webhookRemediatorEnabled: false
  shootState:
    concurrentSyncs: 5
    syncPeriod: 6h
  shootStatus:
    concurrentSyncs: 5
  seed:
    syncPeriod: 1h
  seedCare:
    syncPeriod: 30s
    conditionThresholds:
    - type: SeedSystemComponentsHealthy
      duration: 1m
  managedSeed:
    concurrentSyncs: 5
    syncPeriod: 1h
    waitSyncPeriod: 15s
    syncJitterPeriod: 5m
  tokenRequestor:
    concurrentSyncs: 5
  tokenRequestorWorkloadIdentity:
    concurrentSyncs: 5
  vpaEvictionRequirements:
    concurrentSyncs: 5
resources:
  capacity:
    shoots: 200
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  retryPeriod: 2s
  resourceLock: leases
  resourceNamespace: garden
  resourceName: gardenlet-leader-election
logLevel: info
logFormat: text
server:
  healthProbes:
    port: 2728
  metrics:
    port: 2729
debugging:
  enableProfiling: false
  enableContentionProfiling: false
featureGates:
  DefaultSeccompProfile: true
logging:
  enabled: true
  vali:
    enabled: true
  shootNodeLogging:
    shootPurposes:
    - "infrastructure"
    - "production"
    - "development"
    - "evaluation"
etcdConfig:
  etcdController:
    workers: 3
  custodianController:
    workers: 3
  backupCompactionController:
    workers: 3
    enableBackupCompaction: false
    eventsThreshold: 1000000
    activeDeadlineDuration: "3h"
    metricsScrapeWaitDuration: "60s"
  deltaSnapshotRetentionPeriod: 48h
nodeToleration:
  defaultNotReadyTolerationSeconds: 60
  defaultUnreachableTolerationSeconds: 60
`;

const OPERATOR_EXAMPLE = `
apiVersion: operator.config.gardener.cloud/v1alpha1
kind: OperatorConfiguration
runtimeClientConnection:
  qps: 100
  burst: 130
virtualClientConnection:
  qps: 100
  burst: 130
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  retryPeriod: 2s
  resourceLock: leases
  resourceNamespace: garden
  resourceName: gardener-operator-leader-election
logLevel: info
logFormat: text
server:
  webhooks:
    port: 2750
  healthProbes:
    port: 2751
  metrics:
    port: 2752
debugging:
  enableProfiling: false
  enableContentionProfiling: false
featureGates:
  DefaultSeccompProfile: true
controllers:
  garden:
    concurrentSyncs: 1
    syncPeriod: 1h
    etcdConfig:
      etcdController:
        workers: 3
      custodianController:
        workers: 3
      backupCompactionController:
        workers: 3
        enableBackupCompaction: false
        eventsThreshold: 1000000
        activeDeadlineDuration: "3h"
        metricsScrapeWaitDuration: "60s"
  gardenCare:
    syncPeriod: 1m
    conditionThresholds:
    - type: RuntimeComponentsHealthy
      duration: 1m
    - type: VirtualComponentsHealthy
      duration: 1m
    - type: VirtualGardenAPIServerAvailable
      duration: 1m
    - type: ObservabilityComponentsHealthy
      duration: 1m
  gardenletDeployer:
    concurrentSyncs: 5
  networkPolicy:
    concurrentSyncs: 5
  vpaEvictionRequirements:
    concurrentSyncs: 5
  extension:
    concurrentSyncs: 5
  extensionRequiredRuntime:
    concurrentSyncs: 5
  extensionRequiredVirtual:
    concurrentSyncs: 5
nodeToleration:
  defaultNotReadyTolerationSeconds: 60
  defaultUnreachableTolerationSeconds: 60
`;

const CONTROLLER_MANAGER_EXAMPLE = `
apiVersion: controllermanager.config.gardener.cloud/v1alpha1
kind: ControllerManagerConfiguration
gardenClientConnection:
  qps: 100
  burst: 130
controllers:
  bastion:
    maxLifetime: 24h
    concurrentSyncs: 5
  certificateSigningRequest:
    concurrentSyncs: 5
  cloudProfile:
    concurrentSyncs: 5
  namespacedCloudProfile:
    concurrentSyncs: 5
  secretBinding:
    concurrentSyncs: 5
  credentialsBinding:
    concurrentSyncs: 5
  seed:
    concurrentSyncs: 5
    syncPeriod: 10s
  seedExtensionsCheck:
    concurrentSyncs: 5
    syncPeriod: 30s
    conditionThresholds:
      - type: ExtensionsReady
        duration: 1m
  seedBackupBucketsCheck:
    concurrentSyncs: 5
    syncPeriod: 30s
    conditionThresholds:
      - type: BackupBucketsReady
        duration: 1m
  shootMaintenance:
    concurrentSyncs: 5
  shootHibernation:
    concurrentSyncs: 5
    triggerDeadlineDuration: 2h
  shootQuota:
    concurrentSyncs: 5
    syncPeriod: 60m
  shootReference:
    concurrentSyncs: 5
  shootRetry:
    concurrentSyncs: 5
  shootMigration:
    concurrentSyncs: 5
  project:
    concurrentSyncs: 5
    minimumLifetimeDays: 30
    staleGracePeriodDays: 14
    staleExpirationTimeDays: 90
    staleSyncPeriod: 12h
  event:
    concurrentSyncs: 5
    ttlNonShootEvents: 1h
  managedSeedSet:
    concurrentSyncs: 5
    syncPeriod: 30m
  controllerDeployment:
    concurrentSyncs: 5
  controllerRegistration:
    concurrentSyncs: 5
  exposureClass:
    concurrentSyncs: 5
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  retryPeriod: 2s
  resourceLock: leases
  resourceNamespace: garden
  resourceName: gardener-controller-manager-leader-election
logLevel: info
logFormat: text
server:
  healthProbes:
    port: 2718
  metrics:
    port: 2719
debugging:
  enableProfiling: false
  enableContentionProfiling: false
`;

const ADMISSION_EXAMPLE = `
apiVersion: admissioncontroller.config.gardener.cloud/v1alpha1
kind: AdmissionControllerConfiguration
gardenClientConnection:
  qps: 100
  burst: 130
logLevel: info
logFormat: json
server:
  webhooks:
    port: 2721
    tls:
      serverCertDir: dev/tls/gardener-admission-controller
  healthProbes:
    port: 2722
  metrics:
    port: 2723
  resourceAdmissionConfiguration:
    limits:
    - apiGroups: ["core.gardener.cloud"]
      apiVersions: ["*"]
      resources: ["shoots"]
      size: 100k
    unrestrictedSubjects:
    - kind: Group
      name: gardener.cloud:system:seeds
      apiGroup: rbac.authorization.k8s.io
    operationMode: block
  enableDebugHandlers: true
debugging:
  enableProfiling: false
  enableContentionProfiling: false
`;

function configError<T>(spec: ComponentConfigSpec<T>, text: string): ConfigError {
  try {
    parseComponentConfig(spec, text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('gardenletConfigSpec', () => {
  it("accepts Gardener's example and applies the defaults", () => {
    const { config, ignoredFields } = parseComponentConfig(gardenletConfigSpec, GARDENLET_EXAMPLE);
    expect(config.gardenClientConnection).toMatchObject({
      qps: 100,
      burst: 130,
      kubeconfigValidity: { autoRotationJitterPercentageMin: 70, autoRotationJitterPercentageMax: 90 },
    });
    expect(config.shootClientConnection).toMatchObject({ qps: 25, burst: 50 });
    expect(config.controllers.shoot).toMatchObject({
      concurrentSyncs: 20,
      syncPeriod: '1h',
      retryDuration: '12h',
      respectSyncPeriodOverwrite: false,
      reconcileInMaintenanceOnly: false,
      dnsEntryTTLSeconds: 120,
    });
    expect(config.controllers.shootCare.staleExtensionHealthChecks).toEqual({ enabled: true, threshold: '5m' });
    expect(config.controllers.shootCare.conditionThresholds).toHaveLength(5);
    expect(config.controllers.seed).toEqual({ syncPeriod: '1h', leaseResyncSeconds: 2, leaseResyncMissThreshold: 10 });
    expect(config.controllers.managedSeed.jitterUpdates).toBe(false);
    expect(config.controllers.shootState).toEqual({ concurrentSyncs: 5, syncPeriod: '6h' });
    expect(config.controllers.networkPolicy).toEqual({ concurrentSyncs: 5 });
    expect(ignoredFields).not.toContain('controllers.networkPolicy');
    expect(config.leaderElection).toMatchObject({
      resourceName: 'gardenlet-leader-election',
      resourceNamespace: 'garden',
    });
    expect(config.seedConfig).toBeUndefined();
    expect(config.featureGates).toEqual({ DefaultSeccompProfile: true });
    expect(gardenletConfigSpec.runtime(config)).toEqual({
      logLevel: 'info',
      logFormat: 'text',
      healthProbes: { bindAddress: '0.0.0.0', port: 2728 },
      metrics: { bindAddress: '0.0.0.0', port: 2729 },
    });
    expect(ignoredFields).toEqual(
      expect.arrayContaining([
        'controllers.gardenlet',
        'controllers.tokenRequestor',
        'debugging',
        'logging',
        'etcdConfig',
      ]),
    );
    expect(ignoredFields).not.toContain('server');
    expect(ignoredFields).not.toContain('nodeToleration');
    // Read by the seed reconciler: status.capacity / status.allocatable.
    expect(ignoredFields).not.toContain('resources');
    expect(config.resources).toEqual({ capacity: { shoots: 200 } });
  });

  it('defaults an empty configuration like Gardener', () => {
    const { config } = parseComponentConfig(
      gardenletConfigSpec,
      'apiVersion: gardenlet.config.gardener.cloud/v1alpha1\nkind: GardenletConfiguration\n',
    );
    expect(config.gardenClientConnection).toMatchObject({ qps: 50, burst: 100 });
    expect(config.controllers.controllerInstallationRequired.concurrentSyncs).toBe(1);
    expect(config.controllers.shootState).toEqual({ concurrentSyncs: 5, syncPeriod: '6h' });
    expect(config.logFormat).toBe('json');
    expect(config.server.healthProbes.port).toBe(2728);
    expect(config.server.metrics.port).toBe(2729);
  });

  it('keeps the seed template', () => {
    const { config, ignoredFields } = parseComponentConfig(
      gardenletConfigSpec,
      GARDENLET_EXAMPLE +
        'seedConfig:\n  metadata:\n    name: local\n    labels:\n      base: kind\n  spec:\n    provider:\n      type: local\n',
    );
    expect(config.seedConfig).toEqual({
      metadata: { name: 'local', labels: { base: 'kind' } },
      spec: { provider: { type: 'local' } },
    });
    expect(ignoredFields.filter((f) => f.startsWith('seedConfig'))).toEqual([]);
  });

  it('reports seedSelector as ignored: the gardenlet serves the one seed of seedConfig, as Gardener today', () => {
    const { config, ignoredFields } = parseComponentConfig(
      gardenletConfigSpec,
      GARDENLET_EXAMPLE + 'seedSelector:\n  matchLabels:\n    region: eu\n',
    );
    expect(ignoredFields.filter((f) => f.startsWith('seedSelector'))).not.toEqual([]);
    expect(config).not.toHaveProperty('seedSelector');
  });

  it('refuses a seed template without a name', () => {
    const err = configError(gardenletConfigSpec, GARDENLET_EXAMPLE + 'seedConfig:\n  metadata: {}\n  spec: {}\n');
    expect(err.message).toContain('seedConfig.metadata.name');
  });

  it('refuses a minimum kubeconfig rotation jitter that is not below the maximum', () => {
    const err = configError(
      gardenletConfigSpec,
      GARDENLET_EXAMPLE.replace(
        'gardenClientConnection:\n',
        'gardenClientConnection:\n  kubeconfigValidity:\n    autoRotationJitterPercentageMin: 90\n    autoRotationJitterPercentageMax: 80\n',
      ),
    );
    expect(err.errors).toEqual([
      {
        field: 'gardenClientConnection.kubeconfigValidity.autoRotationJitterPercentageMin',
        message: 'minimum percentage must be less than maximum percentage',
      },
    ]);
  });

  it('refuses deletion grace period purposes without grace period hours', () => {
    const err = configError(
      gardenletConfigSpec,
      GARDENLET_EXAMPLE.replace(
        '    deletionGracePeriodHours: 0\n',
        '    deletionGracePeriodHours: 0\n    deletionGracePeriodShootPurposes:\n    - production\n',
      ),
    );
    expect(err.message).toContain('controllers.backupEntry.deletionGracePeriodShootPurposes');
  });

  it('refuses an out-of-range DNS entry TTL', () => {
    const err = configError(
      gardenletConfigSpec,
      GARDENLET_EXAMPLE.replace('    retryDuration: 12h\n', '    retryDuration: 12h\n    dnsEntryTTLSeconds: 5\n'),
    );
    expect(err.message).toContain('controllers.shoot.dnsEntryTTLSeconds');
  });

  it('reads controllers.networkPolicy and refuses an additional namespace selector that does not convert', () => {
    const block = (selectors: string) =>
      GARDENLET_EXAMPLE.replace(
        '  networkPolicy:\n    concurrentSyncs: 5\n',
        `  networkPolicy:\n    concurrentSyncs: 0\n    additionalNamespaceSelectors:\n${selectors}`,
      );
    const { config } = parseComponentConfig(
      gardenletConfigSpec,
      block('    - matchLabels:\n        custom: namespace\n'),
    );
    expect(config.controllers.networkPolicy).toEqual({
      concurrentSyncs: 0,
      additionalNamespaceSelectors: [{ matchLabels: { custom: 'namespace' } }],
    });
    const err = configError(
      gardenletConfigSpec,
      block('    - matchLabels:\n        foo: bar\n    - matchLabels:\n        foo: no/slash/allowed\n'),
    );
    expect(err.errors.map((e) => e.field)).toEqual(['controllers.networkPolicy.additionalNamespaceSelectors[1]']);
  });
});

describe('operatorConfigSpec', () => {
  it("accepts Gardener's example and applies the defaults", () => {
    const { config, ignoredFields } = parseComponentConfig(operatorConfigSpec, OPERATOR_EXAMPLE);
    expect(config.runtimeClientConnection).toMatchObject({ qps: 100, burst: 130 });
    expect(config.server.webhooks).toEqual({ bindAddress: '', port: 2750 });
    expect(config.controllers.garden).toEqual({ concurrentSyncs: 1, syncPeriod: '1h' });
    expect(config.controllers.gardenCare.conditionThresholds).toHaveLength(4);
    expect(config.controllers.gardenletDeployer.concurrentSyncs).toBe(5);
    expect(config.leaderElection.resourceName).toBe('gardener-operator-leader-election');
    expect(operatorConfigSpec.runtime(config)).toEqual({
      logLevel: 'info',
      logFormat: 'text',
      healthProbes: { bindAddress: '0.0.0.0', port: 2751 },
      metrics: { bindAddress: '0.0.0.0', port: 2752 },
    });
    expect(ignoredFields).toEqual(expect.arrayContaining(['debugging', 'controllers.garden.etcdConfig']));
    expect(ignoredFields).not.toContain('nodeToleration');
  });

  it('defaults an empty configuration like Gardener', () => {
    const { config } = parseComponentConfig(
      operatorConfigSpec,
      'apiVersion: operator.config.gardener.cloud/v1alpha1\nkind: OperatorConfiguration\n',
    );
    expect(config.virtualClientConnection).toMatchObject({ qps: 100, burst: 130 });
    expect(config.controllers.gardenletDeployer.concurrentSyncs).toBe(1);
    expect(config.controllers.extension.concurrentSyncs).toBe(5);
    expect(config.leaderElection).toMatchObject({ resourceNamespace: 'garden', resourceLock: 'leases' });
    expect([config.server.webhooks.port, config.server.healthProbes.port, config.server.metrics.port]).toEqual([
      2750, 2751, 2752,
    ]);
  });

  it('refuses an invalid metrics port', () => {
    const err = configError(operatorConfigSpec, OPERATOR_EXAMPLE.replace('    port: 2752', '    port: 70000'));
    expect(err.errors).toEqual([{ field: 'server.metrics.port', message: 'must be between 0 and 65535' }]);
  });
});

describe('controllerManagerConfigSpec', () => {
  it("accepts Gardener's example and applies the defaults", () => {
    const { config, ignoredFields } = parseComponentConfig(controllerManagerConfigSpec, CONTROLLER_MANAGER_EXAMPLE);
    expect(config.gardenClientConnection).toMatchObject({ qps: 100, burst: 130 });
    expect(config.controllers.seed).toEqual({ concurrentSyncs: 5, syncPeriod: '10s', monitorPeriod: '40s' });
    expect(config.controllers.shootMaintenance).toEqual({ concurrentSyncs: 5, enableShootControlPlaneRestarter: true });
    expect(config.controllers.shootRetry).toEqual({ concurrentSyncs: 5, retryPeriod: '10m', retryJitterPeriod: '5m' });
    expect(config.controllers.managedSeedSet).toEqual({ concurrentSyncs: 5, syncPeriod: '30m', maxShootRetries: 3 });
    expect(config.controllers.event).toEqual({ concurrentSyncs: 5, ttlNonShootEvents: '1h' });
    expect(config.controllers.quota.concurrentSyncs).toBe(5);
    expect(config.leaderElection.resourceName).toBe('gardener-controller-manager-leader-election');
    expect(controllerManagerConfigSpec.runtime(config)).toEqual({
      logLevel: 'info',
      logFormat: 'text',
      healthProbes: { bindAddress: '0.0.0.0', port: 2718 },
      metrics: { bindAddress: '0.0.0.0', port: 2719 },
    });
    expect(ignoredFields).toEqual(['debugging']);
  });

  it('defaults an empty configuration like Gardener', () => {
    const { config } = parseComponentConfig(
      controllerManagerConfigSpec,
      'apiVersion: controllermanager.config.gardener.cloud/v1alpha1\nkind: ControllerManagerConfiguration\n',
    );
    expect(config.gardenClientConnection).toMatchObject({ qps: 50, burst: 100 });
    expect(config.controllers.event).toBeUndefined();
    expect(config.controllers.project).toMatchObject({ minimumLifetimeDays: 30, staleSyncPeriod: '12h' });
    expect(config.server.healthProbes.port).toBe(2718);
  });

  it('refuses an invalid sync period', () => {
    const err = configError(
      controllerManagerConfigSpec,
      CONTROLLER_MANAGER_EXAMPLE.replace('    syncPeriod: 60m', '    syncPeriod: one hour'),
    );
    expect(err.errors.map((e) => e.field)).toEqual(['controllers.shootQuota.syncPeriod']);
  });
});

describe('admissionControllerConfigSpec', () => {
  it("accepts Gardener's example and applies the defaults", () => {
    const { config, ignoredFields } = parseComponentConfig(admissionControllerConfigSpec, ADMISSION_EXAMPLE);
    expect(config.gardenClientConnection).toMatchObject({ qps: 100, burst: 130 });
    expect(config.server.webhooks).toEqual({
      bindAddress: '',
      port: 2721,
      tls: { serverCertDir: 'dev/tls/gardener-admission-controller' },
    });
    expect(config.server.resourceAdmissionConfiguration.operationMode).toBe('block');
    expect(config.server.resourceAdmissionConfiguration.limits).toEqual([
      { apiGroups: ['core.gardener.cloud'], apiVersions: ['*'], resources: ['shoots'], size: '100k' },
    ]);
    expect(admissionControllerConfigSpec.runtime(config)).toEqual({
      logLevel: 'info',
      logFormat: 'json',
      healthProbes: { bindAddress: '0.0.0.0', port: 2722 },
      metrics: { bindAddress: '0.0.0.0', port: 2723 },
    });
    expect(ignoredFields).toEqual(['debugging']);
  });

  it('defaults an empty configuration like Gardener', () => {
    const { config } = parseComponentConfig(
      admissionControllerConfigSpec,
      'apiVersion: admissioncontroller.config.gardener.cloud/v1alpha1\nkind: AdmissionControllerConfiguration\n' +
        'server:\n  resourceAdmissionConfiguration:\n    unrestrictedSubjects:\n    - kind: User\n      name: admin\n',
    );
    expect(config.gardenClientConnection).toMatchObject({ qps: 50, burst: 100 });
    expect([config.server.webhooks.port, config.server.healthProbes.port, config.server.metrics.port]).toEqual([
      2721, 2722, 2723,
    ]);
    expect(config.server.resourceAdmissionConfiguration.unrestrictedSubjects).toEqual([
      { kind: 'User', name: 'admin', apiGroup: 'rbac.authorization.k8s.io' },
    ]);
  });

  it('refuses an unknown operation mode', () => {
    const err = configError(
      admissionControllerConfigSpec,
      ADMISSION_EXAMPLE.replace('operationMode: block', 'operationMode: deny'),
    );
    expect(err.errors.map((e) => e.field)).toEqual(['server.resourceAdmissionConfiguration.operationMode']);
  });

  it('refuses an invalid webhook port', () => {
    const err = configError(admissionControllerConfigSpec, ADMISSION_EXAMPLE.replace('    port: 2721', '    port: -1'));
    expect(err.message).toContain('server.webhooks.port');
  });
});
