// One maintenance run of a Shoot (Gardener's shoot maintenance reconciler, its data part): machine image versions of the
// worker pools (among the versions that fit each pool, images.ts), Kubernetes versions of the control plane and of
// worker pools, the automatic credentials rotations due (credentials.ts), what the new Kubernetes version no longer
// accepts (cleanup.ts), the `gardener.cloud/operation` annotation (reconcile, plus what
// `maintenance.gardener.cloud/operation` asked for and the rotations; `retry` for failed shoots that need it), the tasks
// the next reconciliation runs, the `status.lastMaintenance` description and the events to record. Pure: shoot and
// CloudProfile in, result out.
import { Annotations, type CloudProfile, type Shoot } from '@gardener-ts/api';
import {
  removeFieldsForbiddenAfterUpdate,
  removeUnsupportedAdmissionPlugins,
  removeUnsupportedFeatureGatesOf,
} from './cleanup.js';
import { credentialsRotationResults, type UpdateResult } from './credentials.js';
import { needsCredentialsBindingMigration, type CredentialsBindingMigration } from './credentialsbinding.js';
import { effectiveKubeletVersion, filterMachineImageVersions } from './images.js';
import {
  compareVersions,
  kubernetesUpdateReason,
  machineImageUpdateReason,
  nextKubernetesVersion,
  nextMachineImageVersion,
} from './versions.js';

export type { UpdateResult } from './credentials.js';

/** `gardener.cloud/operation=maintain`: maintain now, outside the window. */
export const OperationMaintain = 'maintain';
/** Separator of several operations in one annotation value. */
export const OperationsSeparator = ';';
/** Annotation: a failed shoot should be retried in its next maintenance. */
export const FailedShootNeedsRetryOperation = 'maintenance.shoot.gardener.cloud/needs-retry-operation';
/** Tasks every maintenance asks the next reconciliation to run (Gardener's). */
export const MaintenanceTasks = [
  'deployInfrastructure',
  'deployDNSRecordInternal',
  'deployDNSRecordExternal',
  'deployDNSRecordIngress',
];
export const TaskRestartControlPlanePods = 'restartControlPlanePods';
export const TaskRestartCoreAddons = 'restartCoreAddons';

export interface MaintainOptions {
  now: Date;
  enableShootControlPlaneRestarter?: boolean;
  enableShootCoreAddonRestarter?: boolean;
  /**
   * The outcome of the SecretBinding → CredentialsBinding migration a forced update to 1.34+ needs (see
   * `MaintenanceResult.needsCredentialsBindingMigration`); the reconciler resolves it and maintains again.
   */
  credentialsBinding?: CredentialsBindingMigration;
}

export interface MaintenanceResult {
  /** The shoot with its maintained spec and annotations (metadata and spec only are meant to be written). */
  shoot: Shoot;
  /** `status.lastMaintenance` to write, when anything was done or failed. */
  lastMaintenance?: { description: string; state: 'Succeeded' | 'Failed'; failureReason?: string };
  kubernetes?: UpdateResult;
  /** Per worker pool (in the pools' order): its Kubernetes and machine image updates. */
  workers: Record<string, { kubernetes?: UpdateResult; machineImage?: UpdateResult }>;
  /** The automatic credentials rotations started, by operation (`rotate-ssh-keypair`, …). */
  credentials: Record<string, UpdateResult>;
  /** What else the maintenance did (removed fields, feature gates, admission plugins, the operation annotation). */
  operations: string[];
  /** Why machine images could not be maintained at all (a pool's machine type or image is not in the profile). */
  machineImageError?: string;
  /**
   * The update crosses 1.34 and the Shoot still names a SecretBinding, but no `credentialsBinding` outcome was given:
   * resolve one (credentialsbinding.ts) and maintain again with it.
   */
  needsCredentialsBindingMigration?: boolean;
}

/** An event the maintenance records about the Shoot (Gardener's reasons and messages; the action is `Reconcile`). */
export interface MaintenanceEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** Event reasons of the shoot maintenance (Gardener's). */
export const EventReasons = {
  kubernetes: 'KubernetesVersionMaintenance',
  machineImage: 'MachineImageVersionMaintenance',
  failed: 'MaintenanceFailed',
} as const;
/** The events.k8s.io action of the maintenance events. */
export const EventActionReconcile = 'Reconcile';

/** Whether `gardener.cloud/operation` asks to maintain now. */
export function hasMaintainNowAnnotation(shoot: Shoot): boolean {
  return (shoot.metadata?.annotations?.[Annotations.GardenerOperation] ?? '')
    .split(OperationsSeparator)
    .includes(OperationMaintain);
}

function maintainKubernetes(
  version: string,
  autoUpdate: boolean,
  profile: CloudProfile,
  now: Date,
): { version?: string; result?: UpdateResult } {
  const why = kubernetesUpdateReason(version, autoUpdate, profile, now);
  if (!why) return {};
  const next = nextKubernetesVersion(version, profile, why.forced, now);
  if ('error' in next) {
    return {
      result: {
        ok: false,
        reason: why.reason,
        description: `could not determine higher suitable version than "${version}": ${next.error}`,
      },
    };
  }
  if (!next.version) return {};
  return {
    version: next.version,
    result: {
      ok: true,
      reason: why.reason,
      description: `Updated Kubernetes version from "${version}" to "${next.version}"`,
    },
  };
}

/**
 * Gardener's maintainMachineImages: each pool's image to the version its update policy allows among the versions
 * that fit the pool (images.ts), judged with the control plane version before this maintenance's update. A pool whose
 * machine type or image the profile does not offer stops the machine image maintenance (the error is returned).
 */
function maintainMachineImages(
  shoot: Shoot,
  profile: CloudProfile,
  autoUpdate: boolean,
  now: Date,
): { results: Record<string, UpdateResult>; error?: string } {
  const results: Record<string, UpdateResult> = {};
  const controlPlane = shoot.spec.kubernetes.version ?? '';
  for (const pool of shoot.spec.provider.workers ?? []) {
    const image = pool.machine.image;
    if (!image?.name) continue;
    const machineType = profile.spec.machineTypes.find((t) => t.name === pool.machine.type);
    if (!machineType)
      return {
        results,
        error: `machine type "${pool.machine.type}" of worker "${pool.name}" does not exist in cloudprofile`,
      };
    const profileImage = profile.spec.machineImages.find((m) => m.name === image.name);
    if (!profileImage)
      return {
        results,
        error: `failure while determining the default machine image in the CloudProfile: no machineImage with name "${image.name}" (specified in shoot) could be found in the cloudProfile "${profile.metadata?.name ?? ''}"`,
      };
    const fitting = filterMachineImageVersions(
      profileImage,
      pool,
      effectiveKubeletVersion(controlPlane, pool),
      machineType,
      profile.spec.machineCapabilities ?? [],
    );
    const why = machineImageUpdateReason(image, fitting, autoUpdate, now);
    if (!why) continue;
    const next = nextMachineImageVersion(image, fitting, why.forced, now);
    if ('error' in next) {
      results[pool.name] = {
        ok: false,
        reason: why.reason,
        description: `failed to update machine image "${image.name}": ${next.error}`,
      };
    } else if (next.version) {
      results[pool.name] = {
        ok: true,
        reason: why.reason,
        description: `Updated machine image "${image.name}" from "${image.version ?? ''}" to "${next.version}"`,
      };
      image.version = next.version;
    }
  }
  return { results };
}

/** One kind of update in the lastMaintenance texts: who it is about, and the wording when it failed. */
interface Section {
  updates: [string, UpdateResult | undefined][];
  failedText: (who: string, u: UpdateResult) => string;
  failureReason: (who: string, u: UpdateResult) => string;
}

/** Gardener's buildMaintenanceMessages: control plane, pools' Kubernetes, pools' images, credentials, operations. */
function messages(result: MaintenanceResult): { description: string; failureReason: string } {
  const pools = Object.entries(result.workers);
  const sections: Section[] = [
    {
      updates: [['Control Plane', result.kubernetes]],
      failedText: (who, u) => `${who}: Kubernetes version update failed. Reason for update: ${u.reason}`,
      failureReason: (who, u) => `${who}: Kubernetes maintenance failure due to: ${u.description}`,
    },
    {
      updates: pools.map(([pool, u]) => [`Worker pool "${pool}"`, u.kubernetes]),
      failedText: (who, u) => `${who}: Kubernetes version maintenance failed. Reason for update: ${u.reason}`,
      failureReason: (who, u) => `${who}: Kubernetes maintenance failure due to: ${u.description}`,
    },
    {
      updates: pools.map(([pool, u]) => [`Worker pool "${pool}"`, u.machineImage]),
      failedText: (who, u) => `${who}: machine image version maintenance failed. Reason for update: ${u.reason}`,
      failureReason: (who, u) => `${who}: ${u.description}`,
    },
    {
      updates: Object.entries(result.credentials).map(([c, u]) => [`Credentials "${c}"`, u]),
      failedText: (who, u) => `${who}: Automatic rotation failed. Reason for update: ${u.reason}`,
      failureReason: (who, u) => `${who}: Automatic rotation failure due to: ${u.description}`,
    },
  ];
  let ok = 0;
  const description: string[] = [];
  const failures: string[] = [];
  for (const section of sections) {
    for (const [who, update] of section.updates) {
      if (!update) continue;
      if (update.ok) {
        ok++;
        description.push(`${who}: ${update.description}. Reason: ${update.reason}`);
      } else {
        description.push(section.failedText(who, update));
        failures.push(section.failureReason(who, update));
      }
    }
  }
  description.push(...result.operations);
  const head =
    failures.length === 0
      ? 'All maintenance operations successful.'
      : `(${ok}/${ok + failures.length}) maintenance operations successful.`;
  return { description: `${head} ${description.join(', ')}`.trimEnd(), failureReason: failures.join(', ') };
}

/**
 * The events Gardener records once the maintained Shoot is written: per Kubernetes version update of the control plane
 * and of each pool, and per machine image update of each pool; Normal when done, Warning when it failed.
 */
export function maintenanceEvents(result: MaintenanceResult): MaintenanceEvent[] {
  const events: MaintenanceEvent[] = [];
  const cp = result.kubernetes;
  if (cp) {
    events.push(
      cp.ok
        ? {
            type: 'Normal',
            reason: EventReasons.kubernetes,
            message: `Control Plane: ${cp.description}. Reason: ${cp.reason}.`,
          }
        : {
            type: 'Warning',
            reason: EventReasons.kubernetes,
            message: `Control Plane: Kubernetes version maintenance failed. Reason for update: ${cp.reason}. Error: ${cp.description}`,
          },
    );
  }
  const pools = Object.entries(result.workers);
  for (const [what, reason, key] of [
    ['Kubernetes', EventReasons.kubernetes, 'kubernetes'],
    ['Machine image', EventReasons.machineImage, 'machineImage'],
  ] as const) {
    for (const [worker, updates] of pools) {
      const update = updates[key];
      if (!update) continue;
      events.push(
        update.ok
          ? {
              type: 'Normal',
              reason,
              message: `Worker pool "${worker}": ${update.description}. Reason: ${update.reason}.`,
            }
          : {
              type: 'Warning',
              reason,
              message: `Worker pool "${worker}": ${what} version maintenance failed. Reason for update: ${update.reason}. Error: ${update.description}`,
            },
      );
    }
  }
  return events;
}

/** Maintains a shoot (in its window, or asked to by `maintain`). */
export function maintainShoot(original: Shoot, profile: CloudProfile, options: MaintainOptions): MaintenanceResult {
  const shoot = structuredClone(original);
  const { now } = options;
  const autoUpdate = shoot.spec.maintenance?.autoUpdate;
  const result: MaintenanceResult = { shoot, workers: {}, credentials: {}, operations: [] };
  const workers = shoot.spec.provider.workers ?? [];

  const images = maintainMachineImages(shoot, profile, autoUpdate?.machineImageVersion ?? false, now);
  for (const [pool, update] of Object.entries(images.results)) result.workers[pool] = { machineImage: update };
  if (images.error) result.machineImageError = images.error;

  const oldVersion = shoot.spec.kubernetes.version;
  if (oldVersion) {
    const cp = maintainKubernetes(oldVersion, autoUpdate?.kubernetesVersion ?? false, profile, now);
    if (cp.version) shoot.spec.kubernetes.version = cp.version;
    if (cp.result) result.kubernetes = cp.result;
  }

  result.credentials = credentialsRotationResults(shoot, now);
  if (oldVersion) {
    if (needsCredentialsBindingMigration(shoot, oldVersion) && !options.credentialsBinding)
      result.needsCredentialsBindingMigration = true;
    result.operations.push(...removeFieldsForbiddenAfterUpdate(shoot, oldVersion, options.credentialsBinding));
  }

  const controlPlane = shoot.spec.kubernetes.version;
  for (const pool of workers) {
    const poolVersion = pool.kubernetes?.version;
    if (!poolVersion) continue;
    const w = maintainKubernetes(poolVersion, autoUpdate?.kubernetesVersion ?? false, profile, now);
    if (w.version) {
      // A pool never overtakes the control plane.
      const capped = controlPlane && compareVersions(w.version, controlPlane) > 0 ? controlPlane : w.version;
      pool.kubernetes!.version = capped;
      w.result = { ...w.result!, description: `Updated Kubernetes version from "${poolVersion}" to "${capped}"` };
    }
    if (w.result) result.workers[pool.name] = { ...result.workers[pool.name], kubernetes: w.result };
  }
  // Report pools in the shoot's order.
  result.workers = Object.fromEntries(
    workers.filter((p) => result.workers[p.name]).map((p) => [p.name, result.workers[p.name]!]),
  );

  result.operations.push(...removeUnsupportedFeatureGatesOf(shoot), ...removeUnsupportedAdmissionPlugins(shoot));

  // Operations: drop `maintain`, request a reconcile (with the operations asked for and the automatic rotations due),
  // or a retry of a failed shoot.
  const annotations: Record<string, string> = { ...shoot.metadata?.annotations };
  if (hasMaintainNowAnnotation(shoot)) delete annotations[Annotations.GardenerOperation];
  const lastOperation = shoot.status?.lastOperation;
  if (lastOperation) {
    if (lastOperation.state === 'Failed') {
      if (annotations[FailedShootNeedsRetryOperation] === 'true') {
        annotations[Annotations.GardenerOperation] = 'retry';
        delete annotations[FailedShootNeedsRetryOperation];
      }
    } else {
      const requested = (annotations[Annotations.MaintenanceOperation] ?? '')
        .split(OperationsSeparator)
        .filter(Boolean);
      if (!requested.includes('reconcile')) requested.push('reconcile');
      for (const [credentials, update] of Object.entries(result.credentials)) {
        if (update.ok && !requested.includes(credentials)) requested.push(credentials);
      }
      annotations[Annotations.GardenerOperation] = requested.join(OperationsSeparator);
      delete annotations[Annotations.MaintenanceOperation];
      const operation = requested.join(OperationsSeparator);
      if (operation !== 'reconcile') result.operations.push(`Added "${operation}" operation annotation`);
    }
  }
  const tasks = new Set((annotations[Annotations.ShootTasks] ?? '').split(',').filter(Boolean));
  for (const task of MaintenanceTasks) tasks.add(task);
  if (options.enableShootControlPlaneRestarter) tasks.add(TaskRestartControlPlanePods);
  if (options.enableShootCoreAddonRestarter) tasks.add(TaskRestartCoreAddons);
  annotations[Annotations.ShootTasks] = [...tasks].join(',');
  shoot.metadata = { ...shoot.metadata, annotations };

  const changed =
    !!result.kubernetes ||
    Object.keys(result.workers).length > 0 ||
    Object.keys(result.credentials).length > 0 ||
    result.operations.length > 0;
  if (changed) {
    const { description, failureReason } = messages(result);
    result.lastMaintenance = failureReason
      ? { description, state: 'Failed', failureReason }
      : { description, state: 'Succeeded' };
  }
  return result;
}
