// Registers provider-local's controllers with a manager on the seed, as a table (name → add function), each
// switchable: the extension kinds it serves through the SDK, their health checks, the seed's LoadBalancer Services and
// Ingresses, and the local machine controller.
import type { KubernetesObject, Manager } from '@gardener-ts/controller-runtime';
import { addExtensionController } from '@gardener-ts/extensions';
import { addMachineControllers } from '../machine/add.js';
import { BackupBucketActuator, DefaultBackupBucketDir, backupEntryActuator } from './backup/actuator.js';
import { addBastionController } from './bastion/add.js';
import { addControlPlaneController } from './controlplane/add.js';
import { addDNSRecordController } from './dnsrecord/add.js';
import { LocalExtSeedActuator, LocalExtSeedType } from './extension/local-ext-seed.js';
import { LocalExtShootType } from './extension/shoot/actuator.js';
import { addLocalExtShootController } from './extension/shoot/add.js';
import { LocalExtShootAfterWorkerType } from './extension/shootafterworker/actuator.js';
import { addLocalExtShootAfterWorkerController } from './extension/shootafterworker/add.js';
import { addHealthCheckControllers } from './healthcheck/add.js';
import { InfrastructureActuator } from './infrastructure/actuator.js';
import { addIngressController } from './ingress/add.js';
import { addOperatingSystemConfigController } from './operatingsystemconfig/add.js';
import { addServiceController, type ServiceControllerOptions } from './service/add.js';
import { addWorkerController } from './worker/add.js';

/** The provider type of every kind provider-local serves. */
export const LocalType = 'local';

/** The extension kinds and types provider-local serves (what its ControllerRegistration declares). */
export const ServedResources: readonly { kind: string; type: string }[] = [
  { kind: 'BackupBucket', type: LocalType },
  { kind: 'BackupEntry', type: LocalType },
  { kind: 'Bastion', type: LocalType },
  { kind: 'ControlPlane', type: LocalType },
  { kind: 'DNSRecord', type: LocalType },
  { kind: 'Infrastructure', type: LocalType },
  { kind: 'OperatingSystemConfig', type: LocalType },
  { kind: 'Worker', type: LocalType },
  { kind: 'Extension', type: LocalExtSeedType },
  { kind: 'Extension', type: LocalExtShootType },
  { kind: 'Extension', type: LocalExtShootAfterWorkerType },
];

/** Options of provider-local's controllers. */
export interface ProviderLocalOptions {
  /** The host directory of backup buckets (Gardener's `--local-backupbucket-dir`). */
  backupBucketDir?: string;
  /** How often the health checks run (the configuration's `healthCheckConfig.syncPeriod`); default 30 s. */
  healthCheckSyncPeriodMs?: number;
  /**
   * The load balancer addresses the Service controller writes (Gardener's `--host-ip`, `--zone-<n>-ip`); default none:
   * the local substrate's service proxy publishes them.
   */
  loadBalancer?: ServiceControllerOptions;
  /** The shoots' webhook configuration the ControlPlane controller deploys (the webhook server's); none without it. */
  shootWebhookConfiguration?: () => KubernetesObject | undefined;
}

/** What an add function of the table gets besides the manager. */
export interface AddContext extends ProviderLocalOptions {
  /** The names of the controllers being added. */
  enabled: readonly string[];
}

/** provider-local's controllers by name. */
export const ProviderLocalControllers: Record<string, (mgr: Manager, options: AddContext) => void> = {
  backupbucket: (mgr, options) => {
    addExtensionController(mgr, {
      kind: 'BackupBucket',
      types: [LocalType],
      actuator: new BackupBucketActuator(options.backupBucketDir ?? DefaultBackupBucketDir),
    });
  },
  backupentry: (mgr, options) => {
    addExtensionController(mgr, {
      kind: 'BackupEntry',
      types: [LocalType],
      actuator: backupEntryActuator(options.backupBucketDir ?? DefaultBackupBucketDir),
    });
  },
  bastion: (mgr) => {
    addBastionController(mgr);
  },
  controlplane: (mgr, options) => {
    addControlPlaneController(mgr, { shootWebhookConfiguration: options.shootWebhookConfiguration });
  },
  dnsrecord: (mgr) => {
    addDNSRecordController(mgr);
  },
  infrastructure: (mgr) => {
    addExtensionController(mgr, { kind: 'Infrastructure', types: [LocalType], actuator: new InfrastructureActuator() });
  },
  operatingsystemconfig: (mgr) => {
    addOperatingSystemConfigController(mgr);
  },
  worker: (mgr) => {
    addWorkerController(mgr);
  },
  'extension-local-ext-seed': (mgr) => {
    addExtensionController(mgr, {
      kind: 'Extension',
      types: [LocalExtSeedType],
      classes: ['shoot', 'seed'],
      actuator: new LocalExtSeedActuator(),
    });
  },
  'extension-local-ext-shoot': (mgr) => {
    addLocalExtShootController(mgr);
  },
  'extension-local-ext-shoot-after-worker': (mgr) => {
    addLocalExtShootAfterWorkerController(mgr);
  },
  machine: (mgr) => addMachineControllers(mgr),
  healthcheck: (mgr, options) => {
    addHealthCheckControllers(mgr, {
      ...(options.healthCheckSyncPeriodMs !== undefined ? { syncPeriodMs: options.healthCheckSyncPeriodMs } : {}),
      machineControllerInProcess: options.enabled.includes('machine'),
      shootWebhooks: options.shootWebhookConfiguration !== undefined,
    });
  },
  service: (mgr, options) => {
    addServiceController(mgr, options.loadBalancer);
  },
  ingress: (mgr) => {
    addIngressController(mgr);
  },
};

/** Adds the named controllers (all by default) to `mgr`. */
export function addProviderLocalControllers(
  mgr: Manager,
  enabled: string[] = Object.keys(ProviderLocalControllers),
  options: ProviderLocalOptions = {},
): void {
  for (const name of enabled) {
    const add = ProviderLocalControllers[name];
    if (!add) throw new Error(`unknown provider-local controller ${JSON.stringify(name)}`);
    add(mgr, { ...options, enabled });
  }
}
