// What provider-local's Worker wants of the machine API, computed from the Worker (Gardener's generic Worker actuator
// with provider-local's delegate): per pool and zone a MachineDeployment `<namespace>-<pool>-z<n>` and a MachineClass
// `<deployment>-<pool hash>` (a change of machine image, type, Kubernetes version, user data or a CA/service account
// key rotation's start gives a new class, so
// the deployment rolls its machines), the class's Secret carrying the pool's user data, the node labels and taints of
// the pool. Pure: the Worker, the machine images of the CloudProfile and the existing replicas in, objects out.
import { createHash } from 'node:crypto';
import type { extensionsv1alpha1 } from '@gardener-ts/api';
import { DefaultMachineImage } from '../../machine/controller/machine/reconciler.js';
import type { MachineClass, MachineDeployment } from '../../machine/objects.js';

type WorkerSpec = extensionsv1alpha1.WorkerSpec;
/** A worker pool of a Worker. */
export type WorkerPool = WorkerSpec['pools'][number];

/** provider-local's CloudProfileConfig: the image of each machine image version. */
export interface CloudProfileConfig {
  machineImages?: { name: string; versions?: { version: string; image: string }[] }[];
}

/** The labels gardener puts on the Nodes of a pool. */
export const PoolLabel = 'worker.gardener.cloud/pool';
/** The legacy pool label Gardener keeps setting. */
export const LegacyPoolLabel = 'worker.garden.sapcloud.io/group';
/** The label marking MachineClass Secrets (Gardener's). */
export const MachineClassSecretPurpose = { 'gardener.cloud/purpose': 'machineclass' } as const;

/** One zone's share of `total` over `zones` zones (Gardener's DistributeOverZones: the first zones get the rest). */
export function distributeOverZones(zoneIndex: number, total: number, zones: number): number {
  const base = Math.floor(total / zones);
  return base + (zoneIndex < total % zones ? 1 : 0);
}

/** The part of `status.credentials.rotation` of the shoot that rolls worker pools (CA and service account key). */
export interface WorkerRotationStatus {
  certificateAuthorities?: RolloutRotation;
  serviceAccountKey?: RolloutRotation;
}

interface RolloutRotation {
  lastInitiationTime?: string;
  /** Pools not rolled by a `…-without-workers-rollout` rotation: the rotation they last rolled for. */
  pendingWorkersRollouts?: { name: string; lastInitiationTime?: string }[];
}

/** When the rotation that `pool` must have rolled for was initiated: the pool's pending entry, else the rotation's. */
function rotationTimeForPool(rotation: RolloutRotation | undefined, pool: string): string | undefined {
  const pending = rotation?.pendingWorkersRollouts?.find((p) => p.name === pool);
  return pending ? pending.lastInitiationTime : rotation?.lastInitiationTime;
}

/**
 * The hash of what makes a pool's machines different (a change means new machines). As Gardener's WorkerPoolHash, a
 * CA or service account key rotation's initiation time is part of it: the rotation's Preparing phase rolls the
 * machines, so every node gets credentials of the new CA before the old one is dropped.
 */
export function workerPoolHash(
  pool: WorkerPool,
  kubernetesVersion: string | undefined,
  rotation?: WorkerRotationStatus,
): string {
  const caRotation = rotationTimeForPool(rotation?.certificateAuthorities, pool.name);
  const serviceAccountKeyRotation = rotationTimeForPool(rotation?.serviceAccountKey, pool.name);
  const relevant = {
    machineType: pool.machineType,
    machineImage: pool.machineImage,
    kubernetesVersion: pool.kubernetesVersion ?? kubernetesVersion,
    volume: pool.volume,
    architecture: pool.architecture,
    providerConfig: pool.providerConfig,
    userData: pool.userDataSecretRef,
    // Only when set: pools of shoots that never rotated keep their hash.
    ...(caRotation ? { caRotation } : {}),
    ...(serviceAccountKeyRotation ? { serviceAccountKeyRotation } : {}),
  };
  return createHash('sha256').update(JSON.stringify(relevant)).digest('hex').slice(0, 5);
}

/** The image of a pool's machine image version from the CloudProfileConfig; the machine program's image otherwise. */
export function machineImageOf(pool: WorkerPool, config: CloudProfileConfig | undefined): string {
  const image = config?.machineImages
    ?.find((i) => i.name === pool.machineImage?.name)
    ?.versions?.find((v) => v.version === pool.machineImage?.version)?.image;
  return image ?? DefaultMachineImage;
}

/** The MCM settings of a Machine (MachineDeployment template `spec`) a pool asks for. */
export interface MachineConfiguration {
  drainTimeout?: string;
  healthTimeout?: string;
  creationTimeout?: string;
  maxEvictRetries?: number;
  nodeConditions?: string;
  disableHealthTimeout?: boolean;
}

/**
 * The machine-controller-manager settings of a pool (`machineControllerManager` of the Worker's pool) as the
 * MachineDeployment's template carries them (Gardener's generic Worker actuator, ReadMachineConfiguration):
 * `machineDrainTimeout` → `drainTimeout`, `machineHealthTimeout` → `healthTimeout`, `machineCreationTimeout` →
 * `creationTimeout`, `maxEvictRetries`, `nodeConditions` joined by commas, and `disableHealthTimeout`. The machine
 * controller honours them per machine instead of its defaults.
 */
export function machineConfigurationOf(pool: WorkerPool): MachineConfiguration {
  const mcm = pool.machineControllerManager;
  if (!mcm) return {};
  return {
    ...(mcm.machineDrainTimeout ? { drainTimeout: mcm.machineDrainTimeout } : {}),
    ...(mcm.machineHealthTimeout ? { healthTimeout: mcm.machineHealthTimeout } : {}),
    ...(mcm.machineCreationTimeout ? { creationTimeout: mcm.machineCreationTimeout } : {}),
    ...(mcm.maxEvictRetries !== undefined ? { maxEvictRetries: mcm.maxEvictRetries } : {}),
    ...(mcm.nodeConditions && mcm.nodeConditions.length > 0 ? { nodeConditions: mcm.nodeConditions.join(',') } : {}),
    ...(mcm.disableHealthTimeout !== undefined ? { disableHealthTimeout: mcm.disableHealthTimeout } : {}),
  };
}

/** What the Worker wants. */
export interface WantedMachines {
  machineClasses: MachineClass[];
  /** The Secret of each class: its pool's user data, key `userData`. */
  classSecrets: { name: string; poolUserData: { secretName: string; key: string } }[];
  machineDeployments: MachineDeployment[];
  /** `status.machineDeployments` of the Worker. */
  statusDeployments: { name: string; minimum: number; maximum: number; priority?: number }[];
}

/**
 * Computes the wanted machine objects; `existingReplicas` keeps what an autoscaler set (by deployment name), a
 * hibernated shoot wants no machine.
 */
export function wantedMachines(
  worker: { metadata: { namespace: string }; spec: WorkerSpec },
  options: {
    cloudProfileConfig?: CloudProfileConfig;
    kubernetesVersion?: string;
    /** The shoot's `status.credentials.rotation` (CA and service account key rotations roll the machines). */
    rotation?: WorkerRotationStatus;
    existingReplicas?: Record<string, number>;
    /** The shoot asks to be hibernated: every machine deployment wants 0 machines (Gardener's generic actuator). */
    hibernated?: boolean;
  },
): WantedMachines {
  const namespace = worker.metadata.namespace;
  const wanted: WantedMachines = {
    machineClasses: [],
    classSecrets: [],
    machineDeployments: [],
    statusDeployments: [],
  };
  for (const pool of worker.spec.pools) {
    const zones = pool.zones && pool.zones.length > 0 ? pool.zones : [''];
    const hash = workerPoolHash(pool, options.kubernetesVersion, options.rotation);
    zones.forEach((zone, index) => {
      const deploymentName = `${namespace}-${pool.name}-z${index + 1}`;
      const className = `${deploymentName}-${hash}`;
      const minimum = distributeOverZones(index, pool.minimum, zones.length);
      const maximum = distributeOverZones(index, pool.maximum, zones.length);
      const existing = options.existingReplicas?.[deploymentName];
      // Hibernated: none; woken up (or new): the pool's minimum, and what an autoscaler set within the bounds.
      const replicas = options.hibernated
        ? 0
        : existing === undefined
          ? minimum
          : Math.min(Math.max(existing, minimum), maximum);

      wanted.machineClasses.push({
        apiVersion: 'machine.sapcloud.io/v1alpha1',
        kind: 'MachineClass',
        metadata: { name: className, namespace },
        provider: 'local',
        providerSpec: { image: machineImageOf(pool, options.cloudProfileConfig) },
        secretRef: { name: className, namespace },
        nodeTemplate: {
          capacity: pool.nodeTemplate?.capacity ?? { cpu: '100', memory: '100Gi' },
          instanceType: pool.machineType,
          region: worker.spec.region,
          zone,
          ...(pool.architecture ? { architecture: pool.architecture } : {}),
        },
      });
      wanted.classSecrets.push({
        name: className,
        poolUserData: {
          secretName: pool.userDataSecretRef?.name ?? '',
          key: pool.userDataSecretRef?.key ?? 'userData',
        },
      });
      const nodeLabels = {
        ...pool.labels,
        'node.kubernetes.io/role': 'node',
        [PoolLabel]: pool.name,
        [LegacyPoolLabel]: pool.name,
        ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}),
      };
      wanted.machineDeployments.push({
        apiVersion: 'machine.sapcloud.io/v1alpha1',
        kind: 'MachineDeployment',
        metadata: { name: deploymentName, namespace, labels: { [PoolLabel]: pool.name } },
        spec: {
          replicas,
          minReadySeconds: 0,
          strategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxSurge: pool.maxSurge, maxUnavailable: pool.maxUnavailable },
          },
          selector: { matchLabels: { name: deploymentName } },
          template: {
            metadata: { labels: { name: deploymentName } },
            spec: {
              class: { kind: 'MachineClass', name: className },
              nodeTemplate: {
                metadata: { labels: nodeLabels, ...(pool.annotations ? { annotations: pool.annotations } : {}) },
                ...(pool.taints ? { spec: { taints: pool.taints } } : {}),
              },
              ...machineConfigurationOf(pool),
            },
          },
        },
      });
      wanted.statusDeployments.push({
        name: deploymentName,
        minimum,
        maximum,
        ...(pool.priority !== undefined ? { priority: pool.priority } : {}),
      });
    });
  }
  return wanted;
}
