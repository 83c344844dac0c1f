// The worker steps of the shoot reconcile flow (Gardener's botanist `operatingsystemconfig.go` and `worker.go` with
// the OperatingSystemConfig and Worker components): the pools' OperatingSystemConfigs (the machines' bootstrap
// tokens are the machine controller's, per machine), the wait for their extension, gardener-node-agent's resources in
// the shoot (its OSC Secrets and RBAC) as the ManagedResource `shoot-gardener-node-agent` the shoot's gardener-resource-manager
// applies — or applied directly with a shoot client —, the Worker with each pool's user data Secret, and the waits for
// its machine deployments, its readiness and the nodes' OSC checksum; for the delete flow, the Worker and the OSCs
// deleted and waited for. A thin shell over the pure renderers.
import { isNotFound, Kinds, kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { extensionsv1alpha1 } from '@gardener-ts/api';
import { managedResourceSecretData } from '../controller/controllerinstallation/install.js';
import { operatingSystemConfigName, renderOperatingSystemConfigs, renderWorker } from '../component/extensions.js';
import {
  nodeAgentOSCSecretName,
  OSCChecksumAnnotation,
  renderNodeAgentOSCSecret,
  renderNodeAgentRBAC,
  type NodeAccess,
} from '../component/operatingsystemconfig.js';
import type { ShootValues } from '../component/values.js';
import { sleep } from '@gardener-ts/flow';
import { ExtensionResources, GardenletFieldManager, type WaitOptions } from './extension-resources.js';
import { pollDelays, waitForObject, type ObjectWaitClient } from './poll.js';
import type { DeleteSteps, ReconcileSteps } from './flow/operation.js';
import { InfrastructureKind } from './kinds.js';

type OSC = extensionsv1alpha1.OperatingSystemConfig;
const OSCKind = kind<OSC & KubernetesObject>('extensions.gardener.cloud/v1alpha1', 'OperatingSystemConfig');
const WorkerKind = kind<extensionsv1alpha1.Worker & KubernetesObject>('extensions.gardener.cloud/v1alpha1', 'Worker');

/** The ManagedResource of gardener-node-agent's shoot resources (Gardener's `GardenerNodeAgentManagedResourceName`). */
export const NodeAgentManagedResourceName = 'shoot-gardener-node-agent';
/**
 * The seed Secret in which gardener-ts before per-machine bootstrap tokens kept one token for all machines; deleted
 * when the OSCs are deployed (machines now get theirs from the machine controller).
 */
export const LegacyBootstrapTokenSecretName = 'gardener-node-agent-bootstrap-token';

/** Options of {@link WorkerSteps}. */
export interface WorkerStepsOptions {
  /**
   * How machines reach the shoot: the API server URL reachable from machines (locally the kube-apiserver
   * LoadBalancer's address) and the cluster CA bundle (PEM). Read when the OSCs are deployed.
   */
  readonly nodeAccess: () => Promise<NodeAccess>;
  /** The shoot's current SSH public key, set on the Worker (Gardener's, with SSH access); none: not set. */
  readonly sshPublicKey?: () => string | undefined;
  /** A client of the shoot: the nodes' OSC checksums are read with it (and node-agent's resources applied, see below). */
  readonly shootClient?: () => Promise<Pick<Client, 'patch' | 'list'>>;
  /**
   * How node-agent's shoot resources get there: as the ManagedResource `shoot-gardener-node-agent` that the shoot's
   * gardener-resource-manager applies (default, Gardener's way), or applied with the shoot client (a landscape without
   * the shoot's gardener-resource-manager).
   */
  readonly nodeAgentResources?: 'managedResource' | 'shootClient';
  /** Polling of the waits for the extension resources (Worker: default up to 10 min). */
  readonly wait?: Omit<WaitOptions, 'signal'>;
  readonly now?: () => Date;
}

type SeedClient = Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'> & ObjectWaitClient;

/** The steps; one instance per flow run (it remembers the reconcile requests it made). */
export class WorkerSteps {
  private readonly extensions: ExtensionResources;
  private readonly requests = new Map<string, string>();

  constructor(
    private readonly seed: SeedClient,
    private readonly values: ShootValues,
    private readonly options: WorkerStepsOptions,
  ) {
    this.extensions = new ExtensionResources(seed);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private get namespace(): string {
    return this.values.namespace;
  }

  private get pools() {
    return this.values.shoot.spec.provider.workers ?? [];
  }

  private async apply(client: Pick<Client, 'patch'>, obj: KubernetesObject): Promise<void> {
    await client.patch(
      kind(obj.apiVersion ?? '', obj.kind ?? ''),
      { name: obj.metadata?.name ?? '', namespace: obj.metadata?.namespace },
      { type: 'apply', patch: obj as Record<string, unknown>, fieldManager: GardenletFieldManager, force: true },
    );
  }

  private async renderOSCs(now: string): Promise<OSC[]> {
    const access = await this.options.nodeAccess();
    return renderOperatingSystemConfigs(this.values, { now, ...access });
  }

  /** "Deploying operating system specific configuration for shoot workers": both OSCs of every pool. */
  readonly deployOperatingSystemConfig = async (): Promise<void> => {
    const now = this.now().toISOString();
    for (const osc of await this.renderOSCs(now)) {
      this.requests.set(`OperatingSystemConfig/${osc.metadata!.name}`, now);
      await this.extensions.deploy(osc as KubernetesObject);
    }
    await this.seed
      .delete(Kinds.Secret, { namespace: this.namespace, name: LegacyBootstrapTokenSecretName })
      .catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
  };

  /** "Waiting until operating system configurations for worker nodes have been reconciled". */
  readonly waitForOperatingSystemConfig = async (signal: AbortSignal): Promise<void> => {
    for (const pool of this.pools) {
      for (const purpose of ['provision', 'reconcile'] as const) {
        const name = operatingSystemConfigName(pool.name, purpose);
        await this.extensions.waitUntilReady(
          { kind: 'OperatingSystemConfig', name, namespace: this.namespace },
          this.requests.get(`OperatingSystemConfig/${name}`),
          { ...this.options.wait, signal },
        );
      }
    }
  };

  private async getOSC(pool: string, purpose: 'provision' | 'reconcile'): Promise<OSC> {
    const name = operatingSystemConfigName(pool, purpose);
    try {
      return await this.seed.get(OSCKind, { namespace: this.namespace, name });
    } catch (err) {
      throw new Error(`reading OperatingSystemConfig ${this.namespace}/${name} failed`, { cause: err });
    }
  }

  // Gardener resolves Secret references of files into inline content: node-agent cannot read the seed.
  private async inlineFiles(osc: OSC): Promise<OSC> {
    const resolve = async (files: OSC['spec']['files']) =>
      Promise.all(
        (files ?? []).map(async (file) => {
          const ref = file.content.secretRef;
          if (!ref) return file;
          const secret = await this.seed.get(Kinds.Secret, { namespace: this.namespace, name: ref.name });
          const data = secret.data?.[ref.dataKey];
          if (data === undefined) {
            throw new Error(`file ${file.path}: key ${ref.dataKey} of Secret ${this.namespace}/${ref.name} not found`);
          }
          return { ...file, content: { inline: { encoding: 'b64', data } } };
        }),
      );
    return {
      ...osc,
      spec: { ...osc.spec, files: await resolve(osc.spec.files) },
      ...(osc.status
        ? { status: { ...osc.status, extensionFiles: await resolve(osc.status.extensionFiles) } as OSC['status'] }
        : {}),
    };
  }

  /** The objects node-agent needs in the shoot: every pool's OSC Secret and the RBAC. */
  async nodeAgentShootResources(): Promise<{ pool: string; objects: KubernetesObject[] }[]> {
    const groups: { pool: string; objects: KubernetesObject[] }[] = [];
    const names: string[] = [];
    for (const pool of this.pools) {
      const osc = await this.inlineFiles(await this.getOSC(pool.name, 'reconcile'));
      const name = nodeAgentOSCSecretName(this.values, pool);
      names.push(name);
      groups.push({ pool: pool.name, objects: [renderNodeAgentOSCSecret(osc, name, pool.name) as KubernetesObject] });
    }
    groups.push({ pool: 'rbac', objects: renderNodeAgentRBAC(names) as KubernetesObject[] });
    return groups;
  }

  /**
   * "Deploying managed resources for the gardener-node-agent": the ManagedResource `shoot-gardener-node-agent` with
   * one Secret per pool and one for RBAC; or the objects applied to the shoot directly
   * (`nodeAgentResources: 'shootClient'`).
   */
  readonly deployNodeAgentManagedResource = async (): Promise<void> => {
    const groups = await this.nodeAgentShootResources();
    if (this.options.nodeAgentResources === 'shootClient') {
      if (!this.options.shootClient) throw new Error('applying node-agent resources to the shoot needs a shoot client');
      const shoot = await this.options.shootClient();
      for (const obj of groups.flatMap((g) => g.objects)) await this.apply(shoot, obj);
      return;
    }
    const labels = { 'managed-resource': NodeAgentManagedResourceName };
    const secretRefs: { name: string }[] = [];
    for (const group of groups) {
      const name = `managedresource-${NodeAgentManagedResourceName}-${group.pool}`;
      secretRefs.push({ name });
      const data = managedResourceSecretData(group.objects);
      await this.apply(this.seed, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace: this.namespace, labels },
        type: 'Opaque',
        data,
      } as KubernetesObject);
    }
    await this.apply(this.seed, {
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: {
        name: NodeAgentManagedResourceName,
        namespace: this.namespace,
        labels: { origin: 'gardener' },
      },
      spec: { secretRefs, injectLabels: { 'shoot.gardener.cloud/no-cleanup': 'true' }, keepObjects: false },
    } as KubernetesObject);
    // Secrets of pools that are gone.
    const wanted = new Set(secretRefs.map((r) => r.name));
    const existing = await this.seed.list(Kinds.Secret, { namespace: this.namespace, labelSelector: labels });
    for (const secret of existing.items) {
      const name = secret.metadata?.name ?? '';
      if (wanted.has(name)) continue;
      await this.seed.delete(Kinds.Secret, { namespace: this.namespace, name }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    }
  };

  private async renderedWorker(now: string): Promise<extensionsv1alpha1.Worker> {
    const userDataSecretNames: Record<string, string> = {};
    for (const pool of this.pools) {
      const osc = await this.getOSC(pool.name, 'provision');
      const name = osc.status?.cloudConfig?.secretRef?.name;
      if (!name) {
        throw new Error(
          `OperatingSystemConfig ${this.namespace}/${osc.metadata?.name} has no user data yet (status.cloudConfig.secretRef)`,
        );
      }
      userDataSecretNames[pool.name] = name;
    }
    const infrastructure = await this.seed
      .get(InfrastructureKind, { namespace: this.namespace, name: this.values.shoot.metadata?.name ?? '' })
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
    const providerStatus = infrastructure?.status?.providerStatus as Record<string, unknown> | undefined;
    const sshPublicKey = this.options.sshPublicKey?.();
    return renderWorker(this.values, {
      now,
      userDataSecretNames,
      ...(providerStatus ? { infrastructureProviderStatus: providerStatus } : {}),
      ...(sshPublicKey ? { sshPublicKey } : {}),
    });
  }

  /** "Configuring shoot worker pools": the Worker with each pool's user data Secret from its provision OSC. */
  readonly deployWorker = async (): Promise<void> => {
    const now = this.now().toISOString();
    const worker = await this.renderedWorker(now);
    this.requests.set('Worker', now);
    await this.extensions.deploy(worker as KubernetesObject);
  };

  /**
   * "Waiting until worker resource status is updated with latest machine deployments": the Worker's
   * `status.machineDeploymentsLastUpdateTime` is not older than this run's request.
   */
  readonly waitForWorkerStatus = async (signal: AbortSignal): Promise<void> => {
    const requested = this.requests.get('Worker');
    const key = { namespace: this.namespace, name: this.values.shoot.metadata?.name ?? '' };
    await waitForObject(
      this.seed,
      WorkerKind,
      key,
      (worker) => {
        const updated = worker?.status?.machineDeploymentsLastUpdateTime;
        if (updated && (!requested || Date.parse(updated) >= Date.parse(requested) - 1000)) return undefined;
        return `its machine deployments were not updated since ${requested}`;
      },
      { interval: this.options.wait?.interval ?? 2000, timeout: this.options.wait?.timeout ?? 600_000 },
      signal,
    );
  };

  /** "Waiting until shoot worker nodes have been reconciled": the Worker is ready for this run's request. */
  readonly waitForWorker = async (signal: AbortSignal): Promise<void> => {
    const worker = { kind: 'Worker', name: this.values.shoot.metadata?.name ?? '', namespace: this.namespace };
    await this.extensions.waitUntilReady(worker, this.requests.get('Worker'), {
      timeout: 600_000,
      ...this.options.wait,
      signal,
    });
  };

  /**
   * "Waiting until all shoot worker nodes have updated the operating system config": every Node of a pool carries
   * the checksum of its pool's OSC Secret (`checksum/cloud-config-data`, written by node-agent). Needs a shoot client.
   */
  readonly waitForOperatingSystemConfigUpdated = async (signal: AbortSignal): Promise<void> => {
    if (!this.options.shootClient) throw new Error('waiting for the nodes needs a client of the shoot');
    const shoot = await this.options.shootClient();
    const wanted = new Map<string, string>();
    for (const group of await this.nodeAgentShootResources()) {
      for (const obj of group.objects) {
        const checksum = obj.metadata?.annotations?.[OSCChecksumAnnotation];
        if (obj.kind === 'Secret' && checksum) wanted.set(group.pool, checksum);
      }
    }
    const deadline = Date.now() + (this.options.wait?.timeout ?? 600_000);
    const delays = pollDelays(this.options.wait?.interval ?? 2000);
    for (;;) {
      signal.throwIfAborted();
      const nodes = (await shoot.list(Kinds.Node)).items;
      const outdated = nodes.filter((node) => {
        const pool = node.metadata?.labels?.['worker.gardener.cloud/pool'];
        const checksum = pool ? wanted.get(pool) : undefined;
        return checksum !== undefined && node.metadata?.annotations?.['checksum/cloud-config-data'] !== checksum;
      });
      if (outdated.length === 0) return;
      if (Date.now() >= deadline) {
        throw new Error(
          `the nodes ${outdated.map((n) => n.metadata?.name).join(', ')} have not applied their pool's latest operating system config`,
        );
      }
      await sleep(delays.next().value, signal);
    }
  };

  // The OSCs in the control plane namespace that no current pool wants (of removed pools).
  private async staleOSCKeys() {
    const wanted = new Set(
      this.pools.flatMap((pool) =>
        (['provision', 'reconcile'] as const).map((p) => operatingSystemConfigName(pool.name, p)),
      ),
    );
    return (await this.oscKeys()).filter((key) => !wanted.has(key.name));
  }

  /** "Delete stale operating system config resources": the OSCs of pools that are gone. */
  readonly deleteStaleOperatingSystemConfigs = async (): Promise<void> => {
    for (const key of await this.staleOSCKeys()) await this.extensions.destroy(key);
  };

  /** "Waiting until stale operating system config resources are deleted". */
  readonly waitForStaleOperatingSystemConfigsDeleted = async (signal: AbortSignal): Promise<void> => {
    for (const key of await this.staleOSCKeys()) {
      await this.extensions.waitUntilDeleted(key, { ...this.options.wait, signal });
    }
  };

  private get workerKey() {
    return { kind: 'Worker', name: this.values.shoot.metadata?.name ?? '', namespace: this.namespace };
  }

  // Every OperatingSystemConfig in the control plane namespace (of current and of removed pools).
  private async oscKeys() {
    const items = (await this.seed.list(OSCKind, { namespace: this.namespace })).items;
    return items.map((osc) => ({
      kind: 'OperatingSystemConfig',
      name: osc.metadata?.name ?? '',
      namespace: this.namespace,
    }));
  }

  /** "Destroying Shoot workers": the Worker, confirmed for deletion. */
  readonly destroyWorker = async (): Promise<void> => {
    await this.extensions.destroy(this.workerKey);
  };

  /** "Waiting until shoot worker nodes have been terminated". */
  readonly waitForWorkerDeleted = async (signal: AbortSignal): Promise<void> => {
    await this.extensions.waitUntilDeleted(this.workerKey, { timeout: 600_000, ...this.options.wait, signal });
  };

  /** "Deleting operating system config resources". */
  readonly destroyOperatingSystemConfigs = async (): Promise<void> => {
    for (const key of await this.oscKeys()) await this.extensions.destroy(key);
  };

  /** "Waiting until operating system config resources are deleted". */
  readonly waitForOperatingSystemConfigsDeleted = async (signal: AbortSignal): Promise<void> => {
    for (const key of await this.oscKeys()) {
      await this.extensions.waitUntilDeleted(key, { ...this.options.wait, signal });
    }
  };
}

/**
 * The worker steps of the reconcile flow, for `Botanist.reconcileSteps()`; without a shoot client the wait for the
 * nodes' OSC checksums is skipped with its reason.
 */
export function workerReconcileSteps(
  steps: WorkerSteps,
  options: { hasShootClient: boolean },
): Pick<
  ReconcileSteps,
  | 'deployOperatingSystemConfig'
  | 'waitForOperatingSystemConfig'
  | 'deleteStaleOperatingSystemConfigs'
  | 'waitForStaleOperatingSystemConfigsDeleted'
  | 'deployNodeAgentManagedResource'
  | 'deployWorker'
  | 'waitForWorkerStatus'
  | 'waitForWorker'
  | 'waitForOperatingSystemConfigUpdated'
> {
  return {
    deployOperatingSystemConfig: steps.deployOperatingSystemConfig,
    waitForOperatingSystemConfig: steps.waitForOperatingSystemConfig,
    deleteStaleOperatingSystemConfigs: steps.deleteStaleOperatingSystemConfigs,
    waitForStaleOperatingSystemConfigsDeleted: steps.waitForStaleOperatingSystemConfigsDeleted,
    deployNodeAgentManagedResource: steps.deployNodeAgentManagedResource,
    deployWorker: steps.deployWorker,
    waitForWorkerStatus: steps.waitForWorkerStatus,
    waitForWorker: steps.waitForWorker,
    waitForOperatingSystemConfigUpdated: options.hasShootClient
      ? steps.waitForOperatingSystemConfigUpdated
      : { skip: 'the nodes are read through a shoot client, which this flow has not got' },
  };
}

/** The worker steps of the delete flow, for `Botanist.deleteSteps()`. */
export function workerDeleteSteps(
  steps: WorkerSteps,
): Pick<
  DeleteSteps,
  'destroyWorker' | 'waitForWorkerDeleted' | 'destroyOperatingSystemConfigs' | 'waitForOperatingSystemConfigsDeleted'
> {
  return {
    destroyWorker: steps.destroyWorker,
    waitForWorkerDeleted: steps.waitForWorkerDeleted,
    destroyOperatingSystemConfigs: steps.destroyOperatingSystemConfigs,
    waitForOperatingSystemConfigsDeleted: steps.waitForOperatingSystemConfigsDeleted,
  };
}
