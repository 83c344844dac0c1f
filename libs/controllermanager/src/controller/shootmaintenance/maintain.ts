// One maintenance run of a Shoot (Gardener's shoot maintenance reconciler, its data part): Kubernetes versions of the
// control plane and of worker pools, machine image versions, the `gardener.cloud/operation` annotation (reconcile, plus
// what `maintenance.gardener.cloud/operation` asked for and the automatic credentials rotations due, see credentials.ts;
// `retry` for failed shoots that need it), the tasks the next reconciliation runs, and the `status.lastMaintenance`
// description. Pure: shoot and CloudProfile in, result out.
import { Annotations, type CloudProfile, type Shoot } from '@gardener-ts/api';
import {
  kubernetesUpdateReason,
  machineImageUpdateReason,
  nextKubernetesVersion,
  nextMachineImageVersion,
  compareVersions,
} from './versions.js';
import { credentialsRotationResults, type UpdateResult } from './credentials.js';

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
}

export interface MaintenanceResult {
  /** The shoot with its maintained spec and annotations (metadata and spec only are meant to be written). */
  shoot: Shoot;
  /** `status.lastMaintenance` to write, when anything was done or failed. */
  lastMaintenance?: { description: string; state: 'Succeeded' | 'Failed'; failureReason?: string };
  kubernetes?: UpdateResult;
  workers: Record<string, { kubernetes?: UpdateResult; machineImage?: UpdateResult }>;
  /** The automatic credentials rotations started, by operation (`rotate-ssh-keypair`, …). */
  credentials: Record<string, UpdateResult>;
}

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

/** Gardener's buildMaintenanceMessages. */
function messages(result: MaintenanceResult, operations: string[]): { description: string; failureReason: string } {
  let ok = 0;
  let failed = 0;
  const description: string[] = [];
  const failures: string[] = [];
  if (result.kubernetes) {
    if (result.kubernetes.ok) {
      ok++;
      description.push(`Control Plane: ${result.kubernetes.description}. Reason: ${result.kubernetes.reason}`);
    } else {
      failed++;
      description.push(
        `Control Plane: Kubernetes version update failed. Reason for update: ${result.kubernetes.reason}`,
      );
      failures.push(`Control Plane: Kubernetes maintenance failure due to: ${result.kubernetes.description}`);
    }
  }
  for (const [worker, r] of Object.entries(result.workers)) {
    for (const [what, update] of [
      ['Kubernetes', r.kubernetes],
      ['machine image', r.machineImage],
    ] as const) {
      if (!update) continue;
      if (update.ok) {
        ok++;
        description.push(`Worker pool "${worker}": ${update.description}. Reason: ${update.reason}`);
      } else {
        failed++;
        description.push(
          `Worker pool "${worker}": ${what} version maintenance failed. Reason for update: ${update.reason}`,
        );
        failures.push(`Worker pool "${worker}": ${update.description}`);
      }
    }
  }
  for (const [credentials, update] of Object.entries(result.credentials)) {
    if (update.ok) {
      ok++;
      description.push(`Credentials "${credentials}": ${update.description}. Reason: ${update.reason}`);
    } else {
      failed++;
      description.push(`Credentials "${credentials}": Automatic rotation failed. Reason for update: ${update.reason}`);
      failures.push(`Credentials "${credentials}": Automatic rotation failure due to: ${update.description}`);
    }
  }
  description.push(...operations);
  const text = description.join(', ');
  const head =
    failed === 0
      ? 'All maintenance operations successful.'
      : `(${ok}/${ok + failed}) maintenance operations successful.`;
  return { description: `${head} ${text}`.trimEnd(), failureReason: failures.join(', ') };
}

/** Maintains a shoot (in its window, or asked to by `maintain`). */
export function maintainShoot(original: Shoot, profile: CloudProfile, options: MaintainOptions): MaintenanceResult {
  const shoot = structuredClone(original);
  const { now } = options;
  const autoUpdate = shoot.spec.maintenance?.autoUpdate;
  const result: MaintenanceResult = { shoot, workers: {}, credentials: {} };
  const workers = shoot.spec.provider.workers ?? [];

  for (const pool of workers) {
    const image = pool.machine.image;
    if (!image?.name) continue;
    const why = machineImageUpdateReason(image, profile, autoUpdate?.machineImageVersion ?? false, now);
    if (!why) continue;
    const next = nextMachineImageVersion(image, profile, why.forced, now);
    if ('error' in next) {
      result.workers[pool.name] = {
        machineImage: {
          ok: false,
          reason: why.reason,
          description: `failed to update machine image "${image.name}": ${next.error}`,
        },
      };
    } else if (next.version) {
      result.workers[pool.name] = {
        machineImage: {
          ok: true,
          reason: why.reason,
          description: `Updated machine image "${image.name}" from "${image.version ?? ''}" to "${next.version}"`,
        },
      };
      image.version = next.version;
    }
  }

  const version = shoot.spec.kubernetes.version;
  if (version) {
    const cp = maintainKubernetes(version, autoUpdate?.kubernetesVersion ?? false, profile, now);
    if (cp.version) shoot.spec.kubernetes.version = cp.version;
    if (cp.result) result.kubernetes = cp.result;
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

  result.credentials = credentialsRotationResults(shoot, now);

  // Operations: drop `maintain`, request a reconcile (with the operations asked for and the automatic rotations due),
  // or a retry of a failed shoot.
  const annotations: Record<string, string> = { ...shoot.metadata?.annotations };
  const operations: string[] = [];
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
      if (operation !== 'reconcile') operations.push(`Added "${operation}" operation annotation`);
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
    operations.length > 0;
  if (changed) {
    const { description, failureReason } = messages(result, operations);
    result.lastMaintenance = failureReason
      ? { description, state: 'Failed', failureReason }
      : { description, state: 'Succeeded' };
  }
  return result;
}
