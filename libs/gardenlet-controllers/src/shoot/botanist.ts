// The shoot flows' steps over the garden and the seed for one shoot (Gardener's botanist): `SeedShootSteps` for what
// lives in the seed, plus the garden side — the cloud provider secret from the CredentialsBinding, referenced
// resources, the cluster identity and advertised addresses in the Shoot's status — the waits for etcd, kube-apiserver
// and gardener-resource-manager, and the connection to the shoot (`shootClient()`, from Gardener's `gardener` and
// `gardener-internal` shoot access kubeconfigs). `reconcileSteps()` returns only the steps that are implemented and
// can run on this landscape; the flow lists every other task as skipped with its reason. An extension kind whose type
// no ControllerRegistration in the garden serves is skipped with that reason instead of waiting for an extension that
// will never come.
import { lookup } from 'node:dns/promises';
import { Annotations, Operations, type corev1beta1 } from '@gardener-ts/api';
import {
  ApiClient,
  Kinds,
  isNotFound,
  kind as kindOf,
  type Client,
  type Kind,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { KubeConfig, type V1Deployment, type V1Secret, type V1Service } from '@kubernetes/client-node';
import { etcdName, renderEtcd, type EtcdOptions, type EtcdRole } from '../component/etcd.js';
import { CloudProviderSecretName, machineImageOf, renderBackupEntry } from '../component/extensions.js';
import { GardenerAccessName, GardenerInternalAccessName } from '../component/gardener-access.js';
import { KubeControllerManagerName } from '../component/kube-controller-manager.js';
import { encryptedResources, KubeAPIServerName } from '../component/kube-apiserver.js';
import { KubeProxyManagedResourceName } from '../component/kube-proxy.js';
import { GardenerResourceManagerName } from '../component/resource-manager.js';
import { kubeconfigToken } from '../component/shoot-access.js';
import { apiServerDomains, externalClusterDomain, hibernationEnabled, type ShootValues } from '../component/values.js';
import type { DeleteSteps, ReconcileSteps, StepOrSkip } from './flow/operation.js';
import {
  ControllerRegistrationKind,
  CredentialsBindingKind,
  EtcdKind,
  SecretBindingKind,
  ShootKind,
  type Shoot,
} from './kinds.js';
import { hibernateControlPlane, scaleUpForDeletion, withReplicasWhileHibernating } from './hibernation-steps.js';
import {
  cleanUntilGone,
  ExtendedAPITargets,
  KubernetesResourceTargets,
  SkipCleanupAnnotation,
  WebhookTargets,
  type CleanTarget,
} from './cleanup.js';
import { backupBucketName, BackupEntrySteps } from './backupentry-steps.js';
import { EtcdCopyBackupsSteps, etcdCopyBackupsReconcileSteps } from './etcd-copy-backups-steps.js';
import { BackupEntryMigrationSteps } from './backupentry-migration-steps.js';
import { ContainerRuntimeSteps } from './containerruntime-steps.js';
import { preferredAPIResources } from './discovery.js';
import { InternalDNSRecordSteps, internalDNSSkipReason } from './dnsrecord-steps.js';
import {
  ExternalDNSRecordSteps,
  externalDNSSkipReason,
  readExternalDomain,
  usesUnmanagedDNS,
  type Domain,
} from './external-dns.js';
import {
  ExtensionSteps,
  extensionRegistrations,
  wantedExtensionTypes,
  type ExtensionRegistrations,
} from './extension-steps.js';
import { shallowDeleteMachineResources, waitUntilMachineResourcesDeleted } from './machine-resources.js';
import { pollUntil, waitForObject, type BotanistWait } from './poll.js';

export { waitForObject, type ObjectWaitClient } from './poll.js';
import { SeedShootSteps, type SeedShootStepsOptions } from './seed-steps.js';
import { WorkerSteps, workerDeleteSteps, workerReconcileSteps } from './worker-steps.js';
import type { MigrateSteps as MigrateFlowSteps } from './flow/migrate.js';
import { MigrateSteps, isMigrated, requestFinalSnapshot, type MigratableObject } from './migrate-steps.js';
import { SecretNames, secretNameOf } from '../component/secrets.js';
import { EtcdBackupRestorePort } from '../component/etcd.js';
import type { ShootStateSpec } from './shootstate.js';
import { restorePersistedSecrets, restoringSeedClient } from './shootstate-restore.js';
import { deleteShootState, deployShootState } from './shootstate-writer.js';
import { syncClientCAToGarden } from './client-ca-sync.js';
import {
  createNewServiceAccountSecrets,
  deleteOldServiceAccountSecrets,
  labelEncryptedDataOnce,
  renewShootAccessSecrets,
  rewriteEncryptedData,
  rewriteTargets,
  snapshotEtcdAfterRewrite,
  unlabelEncryptedData,
} from './rotation-steps.js';
import { RotatedSecretNames } from './rotation/secrets.js';
import { deleteSSHKeypairFromGarden, syncSSHKeypairToGarden } from './ssh-keypair-sync.js';

const ClusterKind = kindOf('extensions.gardener.cloud/v1alpha1', 'Cluster');

/** The Gardener label of the cloud provider secret in the control plane namespace. */
export const CloudProviderPurposeLabel = { 'gardener.cloud/purpose': 'cloudprovider' } as const;
/** Prefix of referenced resources copied into the control plane namespace (Gardener's `ref-`). */
export const ReferencedResourcePrefix = 'ref-';
/** The advertised address name for a shoot API server reached by its load balancer address (no DNS record). */
export const AdvertisedAddressUnmanaged = 'unmanaged';

/**
 * The shoot's advertised addresses (Gardener's ToAdvertisedAddresses): `external` (`https://api.<spec.dns.domain>`)
 * first, then `internal` (`https://api.<internal cluster domain>`); the load balancer address as `unmanaged` comes
 * last — Gardener lists it only when there is no other, the local landscape always, since only the substrate's Pods
 * resolve the `*.local.gardener.cloud` names and a user on the host reaches the API server by its load balancer (pure).
 * The botanist passes only the domains whose DNS records exist (a record no registration serves is never written).
 */
export function advertisedAddresses(
  domains: { internal?: string; external?: string },
  loadBalancer: string,
): { name: string; url: string }[] {
  return [
    ...(domains.external ? [{ name: 'external', url: `https://${domains.external}` }] : []),
    ...(domains.internal ? [{ name: 'internal', url: `https://${domains.internal}` }] : []),
    { name: AdvertisedAddressUnmanaged, url: loadBalancer },
  ];
}

export { pollUntil, type BotanistWait } from './poll.js';

/** Options of {@link Botanist}. */
export interface BotanistOptions extends SeedShootStepsOptions {
  /** The garden's cluster identity (`kube-system/cluster-identity`), part of the shoot's cluster identity. */
  readonly gardenClusterIdentity?: string;
  /** Polling of the etcd, kube-apiserver Service and Deployment waits (default: from 100 ms, doubling up to every 500 ms, for 5 min). */
  readonly controlPlaneWait?: BotanistWait;
  /** Polling of the BackupEntry wait (default Gardener's: every 5 s for 10 min). */
  readonly backupEntryWait?: BotanistWait;
  /**
   * Whether the gardenlet runs in the seed, so it reaches the shoot's API server by its Service
   * (`gardener-internal`); by default a DNS lookup of `kube-apiserver.<namespace>.svc` decides, as in Gardener.
   */
  readonly inSeedCluster?: (host: string) => Promise<boolean>;
  /**
   * Restore from this ShootState (the second half of a control plane migration): its persisted secrets are created
   * before the secrets manager runs, and every extension resource is restored with its state before `restore`.
   */
  readonly restoreFrom?: ShootStateSpec;
}

// `watch` where the client has it (the gardenlet's clients do): the waits then also see each new version of the object
// they wait for.
type GardenClient = Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'> & Partial<Pick<ApiClient, 'watch'>>;
type SeedClient = Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'> & Partial<Pick<ApiClient, 'watch'>>;

const ManagedResourceKind = kindOf<KubernetesObject & { spec?: { class?: string; keepObjects?: boolean } }>(
  'resources.gardener.cloud/v1alpha1',
  'ManagedResource',
);
/** The finalizer the shoot's gardener-resource-manager puts on the ManagedResources it serves. */
const ResourceManagerFinalizer = 'resources.gardener.cloud/gardener-resource-manager';

/** Whether a host name resolves (within 2 s): Gardener's test whether the gardenlet runs in the seed cluster. */
async function resolves(host: string): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2_000)));
  try {
    return await Promise.race([
      lookup(host).then(
        (a) => Boolean(a.address),
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The extension kinds (and types) a shoot needs, with the flow steps that deploy and wait for each. */
function neededExtensions(values: ShootValues): { kind: string; type: string }[] {
  const shoot = values.shoot;
  const needed = [
    { kind: 'Infrastructure', type: shoot.spec.provider.type },
    { kind: 'ControlPlane', type: shoot.spec.provider.type },
  ];
  if (shoot.spec.networking?.type) needed.push({ kind: 'Network', type: shoot.spec.networking.type });
  const workers = shoot.spec.provider.workers ?? [];
  for (const w of workers) needed.push({ kind: 'OperatingSystemConfig', type: machineImageOf(values, w).name });
  if (workers.length > 0) needed.push({ kind: 'Worker', type: shoot.spec.provider.type });
  return needed;
}

/** Whether a ControllerRegistration serves `kind` of `type` (pure). */
export function isRegistered(
  registrations: readonly corev1beta1.ControllerRegistration[],
  kind: string,
  type: string,
): boolean {
  return registrations.some((r) => (r.spec.resources ?? []).some((res) => res.kind === kind && res.type === type));
}

/** Why a Deployment is not rolled out yet, or undefined when it is (pure). */
export function deploymentNotRolledOut(d: V1Deployment): string | undefined {
  const name = `deployment ${d.metadata?.namespace}/${d.metadata?.name}`;
  const want = d.spec?.replicas ?? 1;
  const status = d.status ?? {};
  if ((status.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) return `${name} has not observed its spec yet`;
  if ((status.updatedReplicas ?? 0) < want)
    return `${name} has ${status.updatedReplicas ?? 0}/${want} updated replicas`;
  if ((status.availableReplicas ?? 0) < want) {
    return `${name} has ${status.availableReplicas ?? 0}/${want} available replicas`;
  }
  if ((status.replicas ?? 0) > want) return `${name} still has ${status.replicas} replicas, wants ${want}`;
  return undefined;
}

/** The load balancer address of a Service (`https://<ip or host>[:<port>]`), or undefined before it has one (pure). */
export function loadBalancerURL(service: V1Service): string | undefined {
  const ingress = service.status?.loadBalancer?.ingress?.[0];
  const host = loadBalancerHostOf(service);
  if (!host) return undefined;
  // Local mode exposes the load balancer on a local port; a cloud load balancer listens on the Service port.
  const port = ingress?.ports?.[0]?.port ?? service.spec?.ports?.[0]?.port ?? 443;
  return port === 443 ? `https://${host}` : `https://${host}:${port}`;
}

/** The host (IP or name) of a LoadBalancer Service's first ingress, if it has one yet. */
function loadBalancerHostOf(service: V1Service): string | undefined {
  const ingress = service.status?.loadBalancer?.ingress?.[0];
  return ingress?.ip ?? ingress?.hostname;
}

/** {@link loadBalancerHostOf}, throwing when the Service has no load balancer address yet. */
function loadBalancerHost(service: V1Service): string {
  const host = loadBalancerHostOf(service);
  if (!host)
    throw new Error(`Service ${service.metadata?.namespace}/${service.metadata?.name} has no load balancer address`);
  return host;
}

/** Steps of the shoot flows for one shoot, over the garden and its seed. */
export class Botanist {
  readonly seedSteps: SeedShootSteps;
  private registered = new Set<string>();
  private extensionRegistrations: ExtensionRegistrations = extensionRegistrations([]);
  private registrations: readonly corev1beta1.ControllerRegistration[] = [];
  private readonly wait: BotanistWait;
  private shootApi: ApiClient | undefined;
  private readonly seed: SeedClient;
  // What the shoot's external domain is served with (read in `prepare`); an Error when reading it failed.
  private externalDomain: Domain | Error | undefined;

  constructor(
    private readonly garden: GardenClient,
    seed: SeedClient,
    readonly values: ShootValues,
    private readonly options: BotanistOptions = {},
  ) {
    // On restore every deployment of an extension resource goes through Gardener's restore sequence.
    this.seed = options.restoreFrom ? restoringSeedClient(seed, options.restoreFrom) : seed;
    this.seedSteps = new SeedShootSteps(this.seed, values, options);
    this.wait = options.controlPlaneWait ?? { interval: 500, timeout: 300_000 };
  }

  private get shoot(): Shoot {
    return this.values.shoot as Shoot;
  }

  private get shootKey() {
    return { namespace: this.shoot.metadata?.namespace, name: this.shoot.metadata?.name ?? '' };
  }

  /** Reads which extension kinds/types the garden's ControllerRegistrations serve. */
  async prepare(): Promise<void> {
    const registrations = (await this.garden.list(ControllerRegistrationKind)).items;
    this.registrations = registrations;
    this.registered = new Set(
      neededExtensions(this.values)
        .filter((n) => isRegistered(registrations, n.kind, n.type))
        .map((n) => n.kind),
    );
    this.extensionRegistrations = extensionRegistrations(registrations);
    this.externalDomain = await this.readExternalDomain();
  }

  // The shoot's external domain with its provider, or the Error reading it (the deploy step reads again and fails).
  private async readExternalDomain(): Promise<Domain | Error | undefined> {
    if (!externalClusterDomain(this.values)) return undefined;
    return readExternalDomain(this.garden, this.values).catch((err: unknown) =>
      err instanceof Error ? err : new Error(String(err)),
    );
  }

  // The steps of the shoot's Extension resources (one instance per flow run: it remembers its reconcile requests).
  private extensionSteps(): ExtensionSteps {
    return new ExtensionSteps(this.seed, this.values, this.extensionRegistrations, this.extensionStepOptions);
  }

  // The clock and the wait interval of the extension resource steps.
  private get extensionStepOptions() {
    return { ...(this.options.now ? { now: this.options.now } : {}), wait: { interval: this.wait.interval } };
  }

  // The steps of the shoot's ContainerRuntime resources (one instance per flow run, like the Extension steps).
  private containerRuntimeSteps(): ContainerRuntimeSteps {
    return new ContainerRuntimeSteps(
      this.seed,
      this.values,
      (type) => isRegistered(this.registrations, 'ContainerRuntime', type),
      this.extensionStepOptions,
    );
  }

  // The DNS record steps of both flows: the internal record where the seed has an internal domain and a registration
  // serves its type; the external record where the shoot has a domain (`spec.dns.domain`) with a served provider.
  private dnsRecordSteps(): Pick<
    ReconcileSteps,
    'deployInternalDNSRecord' | 'destroyInternalDNSRecord' | 'deployExternalDNSRecord' | 'destroyExternalDNSRecord'
  > {
    const internalSkip = internalDNSSkipReason(this.values, (type) =>
      isRegistered(this.registrations, 'DNSRecord', type),
    );
    const internal = new InternalDNSRecordSteps(this.seed, this.garden, this.values, this.extensionStepOptions);
    const externalSkip = externalDNSSkipReason(this.values.shoot, this.externalDomain, (type) =>
      isRegistered(this.registrations, 'DNSRecord', type),
    );
    // Destroying needs no provider: skipped only when the shoot has no external record at all.
    const externalDestroySkip = externalDNSSkipReason(this.values.shoot, undefined, () => true);
    const external = new ExternalDNSRecordSteps(this.seed, this.values, this.extensionStepOptions);
    return {
      deployInternalDNSRecord: internalSkip
        ? { skip: internalSkip }
        : async (signal) => internal.deploy(loadBalancerHost(await this.kubeAPIServerService()), signal),
      destroyInternalDNSRecord: internalSkip ? { skip: internalSkip } : (signal) => internal.destroy(signal),
      deployExternalDNSRecord: externalSkip
        ? { skip: externalSkip }
        : async (signal) => {
            const read = this.externalDomain instanceof Error ? await this.readExternalDomain() : this.externalDomain;
            if (read instanceof Error) throw read;
            this.externalDomain = read;
            if (!read) throw new Error(`shoot ${this.values.namespace} has no external domain`);
            await external.deploy(read, loadBalancerHost(await this.kubeAPIServerService()), signal);
          },
      // The record goes whatever its provider: only a shoot without a domain (or with unmanaged DNS) has none.
      destroyExternalDNSRecord: externalDestroySkip
        ? { skip: externalDestroySkip }
        : (signal) => external.destroy(signal),
    };
  }

  private extension(kind: string): boolean {
    return this.registered.has(kind);
  }

  /** Why an extension kind's tasks are skipped, for the flow's skipped list. */
  unregisteredReason(kind: string): string | undefined {
    if (this.extension(kind)) return undefined;
    const needed = neededExtensions(this.values).find((n) => n.kind === kind);
    return needed
      ? `no ControllerRegistration in the garden serves ${kind} of type ${needed.type}`
      : `${kind} is not needed by this shoot`;
  }

  /** The steps of the reconcile flow that run on this landscape; the others are skipped by the flow with a reason. */
  reconcileSteps(): ReconcileSteps {
    const s = this.seedSteps;
    const steps: ReconcileSteps = {
      deployNamespace: async () => {
        await s.deployNamespace();
        await s.deployCluster();
      },
      ensureShootClusterIdentity: () => this.ensureShootClusterIdentity(),
      deployCloudProviderSecret: () => this.deployCloudProviderSecret(),
      initializeSecretsManagement: async () => {
        // Restore: the persisted secrets (CAs, service account key, ...) first, so the secrets manager adopts them.
        if (this.options.restoreFrom) {
          await restorePersistedSecrets(this.seed, this.options.restoreFrom, this.values.namespace);
        }
        await s.initializeSecretsManagement();
        await this.syncClusterCAToGarden();
        await this.syncClientCAToGarden();
        await this.syncSSHKeypairToGarden();
      },
      deployReferencedResources: () => this.deployReferencedResources(),
      deployKubeAPIServerService: s.deployKubeAPIServerService,
      waitForKubeAPIServerService: (signal) => this.waitForKubeAPIServerService(signal),
      updateAdvertisedAddresses: () => this.updateAdvertisedAddresses(),
      deployEtcd: () => this.deployEtcd(),
      waitForEtcd: (signal) => this.waitForEtcd(signal),
      deployKubeAPIServer: s.deployKubeAPIServer,
      waitForKubeAPIServer: (signal) => this.waitForDeployment(KubeAPIServerName, signal),
      deployGardenerResourceManager: async (signal) => {
        await s.deployGardenerResourceManager(signal);
      },
      waitForGardenerResourceManager: (signal) => this.waitForDeployment(GardenerResourceManagerName, signal),
      deployGardenerAccess: () => this.deployGardenerAccess(),
      initializeShootClients: (signal) => this.initializeShootClients(signal),
      deployKubeControllerManager: s.deployKubeControllerManager,
      deployKubeScheduler: s.deployKubeScheduler,
      deployShootNamespaces: s.deployShootNamespaces,
      waitForShootNamespaces: s.waitForShootNamespaces,
      deployClusterIdentity: () => s.deployClusterIdentity(this.clusterIdentity()),
      // The read-only ClusterRole covers what the shoot's discovery lists (groups it cannot read are left out).
      deployShootSystemResources: async (signal) =>
        s.deployShootSystemResources(
          wantedExtensionTypes(this.values.shoot, this.extensionRegistrations),
          (await preferredAPIResources(this.shootClient().transport, signal)).lists,
        ),
      deployKubeProxy: async () => s.deployKubeProxy(await this.nodeAPIServerURL()),
      destroyKubeProxy: (signal) => this.destroyKubeProxy(signal),
    };
    // The core BackupEntry in the garden (the flow runs these only when the seed has backup).
    if (this.values.seed.spec.backup) {
      const backupEntry = new BackupEntrySteps(this.garden, this.values, {
        ...(this.options.now ? { now: this.options.now } : {}),
        ...(this.options.backupEntryWait ? { wait: this.options.backupEntryWait } : {}),
      });
      steps.deployBackupEntry = () => backupEntry.deploy();
      steps.waitForBackupEntry = (signal) => backupEntry.wait(signal);
      // A restore asks the destination's BackupEntry controller to `restore` the entry (Gardener's DeployBackupEntry).
      if (this.options.restoreFrom) {
        const migration = this.backupEntryMigrationSteps();
        // Gardener's Restore moves the entry to this seed's bucket; the copy steps bring etcd's backups along.
        steps.deployBackupEntry = () => migration.restore(backupBucketName(this.values.seed));
        steps.waitForBackupEntry = (signal) => migration.waitUntilRestored(signal);
        Object.assign(steps, etcdCopyBackupsReconcileSteps(this.etcdCopyBackupsSteps()));
      }
    }
    const x = this.extensionSteps();
    steps.deployExtensionsBeforeKubeAPIServer = () => x.deploy('BeforeKubeAPIServer');
    steps.waitForExtensionsBeforeKubeAPIServer = (signal) => x.waitUntilReady('BeforeKubeAPIServer', signal);
    steps.deployExtensionsAfterKubeAPIServer = () => x.deploy('AfterKubeAPIServer');
    steps.waitForExtensionsAfterKubeAPIServer = (signal) => x.waitUntilReady('AfterKubeAPIServer', signal);
    steps.deployExtensionsAfterWorker = () => x.deploy('AfterWorker');
    steps.waitForExtensionsAfterWorker = (signal) => x.waitUntilReady('AfterWorker', signal);
    steps.deleteStaleExtensions = () => x.deleteStale();
    steps.waitForStaleExtensionsDeleted = (signal) => x.waitUntilStaleDeleted(signal);
    Object.assign(steps, this.dnsRecordSteps());
    const cr = this.containerRuntimeSteps();
    steps.deployContainerRuntime = () => cr.deploy();
    steps.waitForContainerRuntime = (signal) => cr.waitUntilReady(signal);
    steps.deleteStaleContainerRuntimes = () => cr.destroy();
    steps.waitForStaleContainerRuntimesDeleted = (signal) => cr.waitUntilDeleted(signal);
    const extension = (kind: string, deploy: StepOrSkip, wait: StepOrSkip): [StepOrSkip, StepOrSkip] => {
      const reason = this.unregisteredReason(kind);
      return reason ? [{ skip: reason }, { skip: reason }] : [deploy, wait];
    };
    [steps.deployInfrastructure, steps.waitForInfrastructure] = extension(
      'Infrastructure',
      s.deployInfrastructure,
      s.waitForInfrastructure,
    );
    [steps.deployControlPlane, steps.waitForControlPlane] = extension(
      'ControlPlane',
      s.deployControlPlane,
      s.waitForControlPlane,
    );
    [steps.deployNetwork, steps.waitForNetwork] = extension('Network', s.deployNetwork, s.waitForNetwork);
    // OperatingSystemConfigs and the Worker: one WorkerSteps per run (it remembers its reconcile requests).
    const w = workerReconcileSteps(this.workerSteps(), { hasShootClient: true });
    const osc = this.unregisteredReason('OperatingSystemConfig');
    const worker = this.unregisteredReason('Worker') ?? osc;
    const gate = (reason: string | undefined, step: StepOrSkip | undefined) => (reason ? { skip: reason } : step);
    for (const k of [
      'deployOperatingSystemConfig',
      'waitForOperatingSystemConfig',
      'deleteStaleOperatingSystemConfigs',
      'waitForStaleOperatingSystemConfigsDeleted',
      'deployNodeAgentManagedResource',
    ] as const)
      steps[k] = gate(osc, w[k]);
    for (const k of [
      'deployWorker',
      'waitForWorkerStatus',
      'waitForWorker',
      'waitForOperatingSystemConfigUpdated',
    ] as const)
      steps[k] = gate(worker, w[k]);
    steps.hibernateControlPlane = (signal) =>
      hibernateControlPlane(
        {
          seed: this.seed,
          values: this.values,
          shoot: () => this.shootApi,
          wait: this.wait,
          now: () => this.options.now?.() ?? new Date(),
        },
        signal,
      );
    Object.assign(steps, this.rotationSteps());
    return steps;
  }

  // The credentials rotation steps beyond the secrets manager: the shoot access Secrets renewed and kube-controller-
  // manager awaited for a new ServiceAccount signing key, the shoot's legacy ServiceAccount token Secrets replaced,
  // the encrypted data rewritten for a new ETCD encryption key and etcd-main snapshotted after it (the flow runs them
  // only in the rotation phases that need them).
  private rotationSteps(): Pick<
    ReconcileSteps,
    | 'renewShootAccessSecrets'
    | 'rewriteEncryptedDataAddLabel'
    | 'rewriteEncryptedDataRemoveLabel'
    | 'snapshotEtcdAfterRewrite'
    | 'waitForKubeControllerManager'
    | 'createNewServiceAccountSecrets'
    | 'deleteOldServiceAccountSecrets'
  > {
    const targets = async (signal: AbortSignal) =>
      rewriteTargets(
        encryptedResources(this.values.shoot),
        (await preferredAPIResources(this.shootClient().transport, signal)).lists,
      );
    const namespace = this.values.namespace;
    return {
      renewShootAccessSecrets: () => renewShootAccessSecrets(this.seed, namespace, this.options.now?.() ?? new Date()),
      rewriteEncryptedDataAddLabel: (signal) =>
        labelEncryptedDataOnce(this.seed, namespace, KubeAPIServerName, async () => {
          const key = secretNameOf(this.seedSteps.secrets, SecretNames.ETCDEncryptionKey);
          await rewriteEncryptedData(this.shootClient().transport, await targets(signal), { add: key }, signal);
        }),
      rewriteEncryptedDataRemoveLabel: (signal) =>
        unlabelEncryptedData(this.seed, namespace, KubeAPIServerName, async () => {
          await rewriteEncryptedData(this.shootClient().transport, await targets(signal), { remove: true }, signal);
        }),
      snapshotEtcdAfterRewrite: (signal) =>
        snapshotEtcdAfterRewrite(this.seed, namespace, KubeAPIServerName, () => this.snapshotEtcdMain(signal)),
      waitForKubeControllerManager: (signal) => this.waitForDeployment(KubeControllerManagerName, signal),
      createNewServiceAccountSecrets: async () => {
        const name = secretNameOf(this.seedSteps.secrets, SecretNames.ServiceAccountKey);
        const secret = (await this.seed.get(Kinds.Secret, { namespace, name })) as V1Secret;
        await createNewServiceAccountSecrets(this.shootClient(), { name, data: secret.data ?? {} });
      },
      deleteOldServiceAccountSecrets: async () => {
        const prepared = this.values.shoot.status?.credentials?.rotation?.serviceAccountKey?.lastInitiationFinishedTime;
        if (prepared === undefined) {
          throw new Error(
            `shoot ${namespace}: status.credentials.rotation.serviceAccountKey.lastInitiationFinishedTime is not set`,
          );
        }
        await deleteOldServiceAccountSecrets(this.shootClient(), new Date(prepared));
      },
    };
  }

  /**
   * A full snapshot of etcd-main (Gardener's `SnapshotEtcd`): its backup-restore sidecar is asked through the client
   * Service (`GET /snapshot/full?final=true`, as Gardener asks), trusting the etcd CA bundle.
   */
  private async snapshotEtcdMain(signal: AbortSignal): Promise<void> {
    const bundle = secretNameOf(this.seedSteps.secrets, SecretNames.CAETCD, 'bundle');
    const secret = await this.seed.get(Kinds.Secret, { namespace: this.values.namespace, name: bundle });
    const ca = Buffer.from((secret as V1Secret).data?.['bundle.crt'] ?? '', 'base64').toString('utf8');
    const url = `https://${etcdName('main')}-client.${this.values.namespace}.svc:${EtcdBackupRestorePort}/snapshot/full?final=true`;
    await requestFinalSnapshot(url, ca, signal);
  }

  // The steps of the shoot's OperatingSystemConfigs and Worker (machines reach the API server at its LB address).
  private workerSteps(): WorkerSteps {
    return new WorkerSteps(this.seed, this.values, {
      nodeAccess: async () => ({
        apiServerURL: await this.nodeAPIServerURL(),
        caBundle: this.seedSteps.clusterCABundle,
        kubeletCACertificate: this.seedSteps.kubeletCACertificate,
        sshPublicKeys: this.seedSteps.sshPublicKeys(),
      }),
      sshPublicKey: () => this.seedSteps.sshPublicKeys()[0],
      shootClient: async () => this.shootClient(),
      ...(this.options.now ? { now: this.options.now } : {}),
    });
  }

  // The API server address machines (kubelet, node-agent, kube-proxy) reach: its load balancer's.
  private async nodeAPIServerURL(): Promise<string> {
    const url = loadBalancerURL(await this.kubeAPIServerService());
    if (!url) throw new Error(`Service ${this.values.namespace}/${KubeAPIServerName} has no load balancer address`);
    return url;
  }

  /** "Deleting kube-proxy system component" (kube-proxy disabled): its ManagedResources, and their Secrets once gone. */
  private async destroyKubeProxy(signal: AbortSignal): Promise<void> {
    const names = (await this.seed.list(ManagedResourceKind, { namespace: this.values.namespace })).items
      .map((mr) => mr.metadata?.name ?? '')
      .filter((name) => name === KubeProxyManagedResourceName || name.startsWith(`${KubeProxyManagedResourceName}-`));
    for (const name of names) await this.deleteObject(ManagedResourceKind, name);
    for (const name of names) {
      await this.waitForGone(ManagedResourceKind, name, signal);
      await this.deleteObject(Kinds.Secret, `managedresource-${name}`);
    }
  }

  /**
   * The steps of the delete flow that run on this landscape: extension resources (of registered extensions) deleted
   * and waited for, kube-apiserver, its Service, etcd, then the namespace. Steps that bring the control plane up for
   * cleaning the shoot's resources are not implemented yet (the flow lists them).
   */
  deleteSteps(): DeleteSteps {
    // The control plane comes up again far enough to clean the shoot (a hibernated one is scaled up; the flow's state
    // decides which of these run): the same deploy and wait steps as the reconcile flow.
    const r = this.reconcileSteps();
    const scaleUp = scaleUpForDeletion(this.seed, this.values, this.options.now);
    const steps: DeleteSteps = {
      deployNamespace: r.deployNamespace,
      ensureShootClusterIdentity: r.ensureShootClusterIdentity,
      deployCloudProviderSecret: r.deployCloudProviderSecret,
      initializeSecretsManagement: r.initializeSecretsManagement,
      deployReferencedResources: r.deployReferencedResources,
      deployKubeAPIServerService: r.deployKubeAPIServerService,
      waitForKubeAPIServerService: r.waitForKubeAPIServerService,
      updateAdvertisedAddresses: r.updateAdvertisedAddresses,
      deployEtcd: r.deployEtcd,
      scaleUpEtcd: scaleUp.etcd,
      waitForEtcd: r.waitForEtcd,
      deployKubeAPIServer: r.deployKubeAPIServer,
      scaleUpKubeAPIServer: scaleUp.kubeAPIServer,
      waitForKubeAPIServer: r.waitForKubeAPIServer,
      deployGardenerResourceManager: r.deployGardenerResourceManager,
      waitForGardenerResourceManager: r.waitForGardenerResourceManager,
      deployGardenerAccess: r.deployGardenerAccess,
      initializeShootClients: r.initializeShootClients,
      deployKubeControllerManager: r.deployKubeControllerManager,
      scaleUpKubeControllerManager: scaleUp.kubeControllerManager,
      deleteManagedResources: () => this.deleteShootManagedResources(),
      waitForManagedResourcesDeleted: (signal) => this.waitForShootManagedResourcesDeleted(signal),
      destroyGardenerResourceManager: () => this.destroyGardenerResourceManager(),
      deleteKubeAPIServer: () => this.deleteObject(Kinds.Deployment, KubeAPIServerName),
      waitForKubeAPIServerDeleted: (signal) => this.waitForGone(Kinds.Deployment, KubeAPIServerName, signal),
      destroyKubeAPIServerService: () => this.deleteObject(Kinds.Service, KubeAPIServerName),
      destroyEtcd: async () => {
        for (const role of ['main', 'events'] as const) await this.deleteObject(EtcdKind, etcdName(role));
      },
      waitForEtcdDeleted: async (signal) => {
        for (const role of ['main', 'events'] as const) await this.waitForGone(EtcdKind, etcdName(role), signal);
      },
      deleteNamespace: () => this.deleteObject(Kinds.Namespace, this.values.namespace, true),
      waitForNamespaceDeleted: (signal) => this.waitForGone(Kinds.Namespace, this.values.namespace, signal, true),
      deleteShootState: () => deleteShootState(this.garden, this.shoot),
    };
    // Cleaning the shoot (through its client, after "Initializing connection to Shoot").
    const clean = (targets: readonly CleanTarget[]) => (signal: AbortSignal) =>
      cleanUntilGone(this.shootClient(), targets, this.wait, signal, {
        ...(this.options.now ? { now: this.options.now } : {}),
      });
    steps.cleanWebhooks = clean(WebhookTargets);
    steps.waitForKubeControllerManagerActive = (signal) => this.waitForKubeControllerManagerActive(signal);
    steps.cleanExtendedAPIs = clean(ExtendedAPITargets);
    // With `shoot.gardener.cloud/skip-cleanup` only Services and PVCs go (what holds infrastructure), as in Gardener.
    const skipCleanup = this.shoot.metadata?.annotations?.[SkipCleanupAnnotation] !== undefined;
    steps.cleanKubernetesResources = clean(
      skipCleanup
        ? KubernetesResourceTargets.filter((t) => ['Service', 'PersistentVolumeClaim'].includes(t.kind.kind))
        : KubernetesResourceTargets,
    );
    const x = this.extensionSteps();
    steps.destroyExtensionsBeforeKubeAPIServer = () => x.destroy('BeforeKubeAPIServer');
    steps.waitForExtensionsBeforeKubeAPIServerDeleted = (signal) => x.waitUntilDeleted('BeforeKubeAPIServer', signal);
    steps.deleteStaleExtensions = r.deleteStaleExtensions;
    steps.waitForStaleExtensionsDeleted = r.waitForStaleExtensionsDeleted;
    Object.assign(steps, this.dnsRecordSteps());
    const cr = this.containerRuntimeSteps();
    steps.destroyContainerRuntimes = () => cr.destroy(true);
    steps.waitForContainerRuntimesDeleted = (signal) => cr.waitUntilDeleted(signal, true);
    steps.destroyExtensionsAfterKubeAPIServer = () => x.destroy('AfterKubeAPIServer');
    steps.waitForExtensionsAfterKubeAPIServerDeleted = (signal) => x.waitUntilDeleted('AfterKubeAPIServer', signal);
    steps.waitForExtensionsDeleted = (signal) => x.waitUntilDeleted(undefined, signal);
    const extension = (kind: string): [StepOrSkip, StepOrSkip] => {
      const reason = this.unregisteredReason(kind);
      if (reason) return [{ skip: reason }, { skip: reason }];
      // Extension resources are named after the shoot (Gardener's botanist), in the control plane namespace.
      const named = { kind, name: this.shoot.metadata?.name ?? '', namespace: this.values.namespace };
      return [
        () => this.seedSteps.extensions.destroy(named),
        (signal) => this.seedSteps.extensions.waitUntilDeleted(named, { signal, interval: this.wait.interval }),
      ];
    };
    [steps.destroyInfrastructure, steps.waitForInfrastructureDeleted] = extension('Infrastructure');
    [steps.destroyControlPlane, steps.waitForControlPlaneDeleted] = extension('ControlPlane');
    [steps.destroyNetwork, steps.waitForNetworkDeleted] = extension('Network');
    const w = workerDeleteSteps(this.workerSteps());
    const osc = this.unregisteredReason('OperatingSystemConfig');
    const worker = this.unregisteredReason('Worker') ?? osc;
    steps.destroyWorker = worker ? { skip: worker } : w.destroyWorker;
    steps.waitForWorkerDeleted = worker ? { skip: worker } : w.waitForWorkerDeleted;
    steps.destroyOperatingSystemConfigs = osc ? { skip: osc } : w.destroyOperatingSystemConfigs;
    steps.waitForOperatingSystemConfigsDeleted = osc ? { skip: osc } : w.waitForOperatingSystemConfigsDeleted;
    return steps;
  }

  // The lifecycle phase in which an Extension type is migrated (its registration's `lifecycle.migrate`, Gardener's
  // default BeforeKubeAPIServer).
  private migratePhaseOf(type: string): 'BeforeKubeAPIServer' | 'AfterKubeAPIServer' | 'AfterWorker' {
    for (const registration of this.registrations) {
      for (const resource of registration.spec.resources ?? []) {
        if (resource.kind === 'Extension' && resource.type === type) {
          return resource.lifecycle?.migrate ?? 'BeforeKubeAPIServer';
        }
      }
    }
    return 'BeforeKubeAPIServer';
  }

  /**
   * The steps of the migrate flow in the source seed: the control plane far enough up to release the shoot's
   * ManagedResources (their objects kept in the shoot), every extension resource migrated and then deleted, the
   * ShootState persisted in the garden, then kube-apiserver, etcd and the namespace deleted.
   */
  migrateSteps(): MigrateFlowSteps {
    const r = this.reconcileSteps();
    const d = this.deleteSteps();
    const scaleUp = scaleUpForDeletion(this.seed, this.values, this.options.now);
    const m = new MigrateSteps(this.seed, this.values.namespace, this.extensionStepOptions);
    const x = this.extensionSteps();
    // Gardener's `MigrateExtensionResourcesInParallel`: the kinds migrated (and deleted) before the ShootState is kept.
    const early = ['ContainerRuntime', 'Network', 'OperatingSystemConfig', 'Worker'];
    const extensionsIn =
      (phase: 'BeforeKubeAPIServer' | 'AfterKubeAPIServer', migratedOnly = false) =>
      (obj: MigratableObject) => {
        const spec = (obj as { spec?: { type?: string; class?: string } }).spec;
        if (spec?.class && spec.class !== 'shoot') return false;
        // After kube-apiserver also takes the AfterWorker ones (Gardener has no later migrate phase).
        const migratedIn = this.migratePhaseOf(spec?.type ?? obj.metadata?.name ?? '');
        const inPhase = phase === 'BeforeKubeAPIServer' ? migratedIn === phase : migratedIn !== 'BeforeKubeAPIServer';
        // Only what reported Migrate is deleted: deleting anything else would make its extension delete for real.
        return inPhase && (!migratedOnly || isMigrated(obj));
      };
    const shootExtensions = (obj: MigratableObject) => {
      const cls = (obj as { spec?: { class?: string } }).spec?.class;
      return !cls || cls === 'shoot';
    };
    const migrated = (kind: string, wait = true) => {
      const reason = this.unregisteredReason(kind);
      if (reason) return { migrate: { skip: reason }, wait: { skip: reason }, destroy: { skip: reason } };
      return {
        migrate: async (signal: AbortSignal) => {
          await m.migrate([kind]);
          if (wait) await m.waitUntilMigrated([kind], signal);
        },
        wait: (signal: AbortSignal) => m.waitUntilMigrated([kind], signal),
        destroy: () => m.destroy([kind]),
      };
    };
    const controlPlane = migrated('ControlPlane', false);
    const infrastructure = migrated('Infrastructure', false);
    const dns = this.dnsRecordSteps();
    // Each record by its name (`<shoot>-internal`, `<shoot>-external`), where its steps run.
    const migrateDNSRecord = (purpose: 'internal' | 'external', deploy: StepOrSkip | undefined): StepOrSkip => {
      const named = (obj: MigratableObject) => obj.metadata?.name === `${this.shoot.metadata?.name}-${purpose}`;
      return typeof deploy === 'function'
        ? async (signal) => {
            await m.migrate(['DNSRecord'], named);
            await m.waitUntilMigrated(['DNSRecord'], signal, named);
          }
        : (deploy ?? { skip: `no ${purpose} DNS record` });
    };
    const backupEntry = this.backupEntryMigrationSteps();
    return {
      deployNamespace: r.deployNamespace,
      initializeSecretsManagement: r.initializeSecretsManagement,
      deployEtcd: r.deployEtcd,
      scaleUpEtcd: scaleUp.etcd,
      waitForEtcd: r.waitForEtcd,
      wakeUpKubeAPIServer: async (signal) => {
        await scaleUp.kubeAPIServer();
        await this.waitForDeployment(KubeAPIServerName, signal);
      },
      deployGardenerResourceManager: r.deployGardenerResourceManager,
      scaleUpGardenerResourceManager: {
        skip: 'gardener-resource-manager is not scaled up: when it runs no replica, the gardenlet releases the finalizers of the ManagedResources (their objects are kept anyway)',
      },
      keepManagedResourcesObjects: () => this.keepShootManagedResourcesObjects(),
      deleteManagedResources: () => this.deleteShootManagedResources(),
      waitForManagedResourcesDeleted: (signal) => this.waitForShootManagedResourcesDeleted(signal),
      migrateExtensionResources: () => m.migrate(early),
      waitForExtensionResourcesMigrated: (signal) => m.waitUntilMigrated(early, signal),
      migrateExtensionsBeforeKubeAPIServer: () => m.migrate(['Extension'], extensionsIn('BeforeKubeAPIServer')),
      waitForExtensionsBeforeKubeAPIServerMigrated: (signal) =>
        m.waitUntilMigrated(['Extension'], signal, extensionsIn('BeforeKubeAPIServer')),
      persistShootState: async () => {
        await deployShootState(
          this.garden,
          this.seed,
          this.shoot,
          this.values.namespace,
          this.options.now?.() ?? new Date(),
        );
      },
      deleteExtensionResources: () => m.destroy(early),
      waitForExtensionResourcesDeleted: (signal) => m.waitUntilDeleted(early, signal),
      shallowDeleteMachineResources: () => shallowDeleteMachineResources(this.seed, this.values.namespace),
      waitForMachineResourcesDeleted: (signal) =>
        waitUntilMachineResourcesDeleted(this.seed, this.values.namespace, this.wait, signal),
      destroyExtensionsBeforeKubeAPIServer: () => m.destroy(['Extension'], extensionsIn('BeforeKubeAPIServer', true)),
      waitForExtensionsBeforeKubeAPIServerDeleted: (signal) =>
        m.waitUntilDeleted(['Extension'], signal, extensionsIn('BeforeKubeAPIServer')),
      deleteStaleExtensions: () => x.deleteStale(),
      waitForStaleExtensionsDeleted: (signal) => x.waitUntilStaleDeleted(signal),
      migrateControlPlane: controlPlane.migrate,
      destroyControlPlane: controlPlane.destroy,
      waitForControlPlaneDeleted: d.waitForControlPlaneDeleted,
      waitForShootManagedResourcesDeleted: (signal) => this.waitForShootManagedResourcesDeleted(signal),
      deleteKubeAPIServer: d.deleteKubeAPIServer,
      waitForKubeAPIServerDeleted: d.waitForKubeAPIServerDeleted,
      migrateExtensionsAfterKubeAPIServer: () => m.migrate(['Extension'], extensionsIn('AfterKubeAPIServer')),
      waitForExtensionsAfterKubeAPIServerMigrated: (signal) =>
        m.waitUntilMigrated(['Extension'], signal, extensionsIn('AfterKubeAPIServer')),
      destroyExtensionsAfterKubeAPIServer: () => m.destroy(['Extension'], extensionsIn('AfterKubeAPIServer', true)),
      waitForExtensionsAfterKubeAPIServerDeleted: (signal) =>
        m.waitUntilDeleted(['Extension'], signal, extensionsIn('AfterKubeAPIServer')),
      waitForExtensionsDeleted: (signal) => m.waitUntilDeleted(['Extension'], signal, shootExtensions),
      migrateInfrastructure: infrastructure.migrate,
      waitForInfrastructureMigrated: infrastructure.wait,
      destroyInfrastructure: infrastructure.destroy,
      waitForInfrastructureDeleted: d.waitForInfrastructureDeleted,
      migrateExternalDNSRecord: migrateDNSRecord('external', dns.deployExternalDNSRecord),
      migrateInternalDNSRecord: migrateDNSRecord('internal', dns.deployInternalDNSRecord),
      destroyDNSRecords: async (signal) => {
        await m.destroy(['DNSRecord'], isMigrated);
        await m.waitUntilDeleted(['DNSRecord'], signal, isMigrated);
      },
      snapshotEtcd: (signal) => this.snapshotEtcdMain(signal),
      migrateBackupEntry: () => backupEntry.migrate(),
      waitForBackupEntryMigrated: (signal) => backupEntry.waitUntilMigrated(signal),
      destroyEtcd: d.destroyEtcd,
      waitForEtcdDeleted: d.waitForEtcdDeleted,
      deleteNamespace: d.deleteNamespace,
      waitForNamespaceDeleted: d.waitForNamespaceDeleted,
    };
  }

  /** The steps copying etcd's backups into this seed's bucket on restore (one instance per flow run). */
  private etcdCopyBackupsSteps(): EtcdCopyBackupsSteps {
    return new EtcdCopyBackupsSteps(this.garden, this.seed, this.values, {
      ...(this.options.now ? { now: this.options.now } : {}),
      ...(this.options.backupEntryWait
        ? { backupEntryWait: this.options.backupEntryWait, copyWait: this.options.backupEntryWait }
        : {}),
    });
  }

  /** Whether this restore copies etcd's backups from the source seed's bucket (Gardener's IsCopyOfBackupsRequired). */
  isCopyOfBackupsRequired(): Promise<boolean> {
    return this.etcdCopyBackupsSteps().isCopyOfBackupsRequired(this.options.restoreFrom !== undefined);
  }

  /** The core BackupEntry's steps of a control plane migration (migrate in the source seed, restore in the destination). */
  private backupEntryMigrationSteps(): BackupEntryMigrationSteps {
    return new BackupEntryMigrationSteps(this.garden, this.values, {
      ...(this.options.now ? { now: this.options.now } : {}),
      ...(this.options.backupEntryWait ? { wait: this.options.backupEntryWait } : {}),
    });
  }

  /** The client of the shoot's API server; throws before "Initializing connection to Shoot" ran. */
  shootClient(): ApiClient {
    if (!this.shootApi) throw new Error(`the connection to shoot ${this.values.namespace} has not been initialized`);
    return this.shootApi;
  }

  /** Closes the shoot client, if one was opened. */
  close(): void {
    this.shootApi?.close();
    this.shootApi = undefined;
  }

  /**
   * "Deploying Gardener shoot access resources": `gardener` reaches the shoot through its advertised address,
   * `gardener-internal` through the Service `kube-apiserver.<namespace>.svc`.
   */
  async deployGardenerAccess(): Promise<void> {
    const outOfCluster = loadBalancerURL(await this.kubeAPIServerService());
    if (!outOfCluster) {
      throw new Error(`Service ${this.values.namespace}/${KubeAPIServerName} has no load balancer address`);
    }
    await this.seedSteps.deployGardenerAccess({ outOfCluster });
  }

  /**
   * "Initializing connection to Shoot": the client from `gardener-internal` when the gardenlet runs in the seed (the
   * Service name resolves), else from `gardener`; waits until the token requestor has filled the token and the shoot
   * answers with it (its ClusterRoleBinding applied). A shoot to be hibernated whose API server is already scaled to
   * zero has no connection to make (Gardener's `InitializeDesiredShootClients`): the steps after this one that need
   * the shoot are skipped for a hibernated shoot.
   */
  async initializeShootClients(signal: AbortSignal): Promise<void> {
    if (hibernationEnabled(this.values.shoot)) {
      const apiServer = await this.seed
        .get(Kinds.Deployment, { namespace: this.values.namespace, name: KubeAPIServerName })
        .catch((err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        });
      if (!apiServer?.spec?.replicas) {
        this.close();
        return;
      }
    }
    const internalHost = `${KubeAPIServerName}.${this.values.namespace}.svc`;
    const inSeed = await (this.options.inSeedCluster ?? resolves)(internalHost);
    const name = inSeed ? GardenerInternalAccessName : GardenerAccessName;
    const state: { client?: ApiClient; kubeconfig?: string } = {};
    try {
      await pollUntil(
        `Connection to shoot ${this.values.namespace}`,
        async () => {
          const encoded = (await this.seedSteps.shootAccessSecret(name))?.data?.kubeconfig;
          if (!encoded) return `shoot access secret ${name} has no kubeconfig yet`;
          const kubeconfig = Buffer.from(encoded, 'base64').toString();
          if (!kubeconfigToken(kubeconfig)) return `the token of shoot access secret ${name} is not filled yet`;
          if (!state.client || kubeconfig !== state.kubeconfig) {
            state.client?.close();
            const kc = new KubeConfig();
            kc.loadFromString(kubeconfig);
            state.client = await ApiClient.create(kc);
            state.kubeconfig = kubeconfig;
          }
          try {
            await state.client.get(Kinds.Namespace, { name: 'kube-system' });
            return undefined;
          } catch (err) {
            return `the shoot does not answer with the token of ${name} yet: ${(err as Error).message}`;
          }
        },
        this.wait,
        signal,
      );
    } catch (err) {
      state.client?.close();
      throw err;
    }
    this.shootApi?.close();
    this.shootApi = state.client;
  }

  // The ManagedResources the shoot's resource manager serves (no class) in the control plane namespace.
  private async shootManagedResources() {
    try {
      const list = await this.seed.list(ManagedResourceKind, { namespace: this.values.namespace });
      return list.items.filter((mr) => !mr.spec?.class);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
  }

  /** "Configuring Managed Resources objects to be kept in the Shoot": `keepObjects` on the shoot's ManagedResources. */
  async keepShootManagedResourcesObjects(): Promise<void> {
    for (const mr of await this.shootManagedResources()) {
      if (mr.metadata?.deletionTimestamp || mr.spec?.keepObjects === true) continue;
      await this.seed
        .patch(
          ManagedResourceKind,
          { namespace: this.values.namespace, name: mr.metadata?.name ?? '' },
          { type: 'merge', patch: { spec: { keepObjects: true } } },
        )
        .catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
    }
  }

  /**
   * "Deleting managed resources": the shoot goes away with its API server, so its ManagedResources keep their objects
   * (Gardener sets `keepObjects` before deleting them) and only lose their finalizer.
   */
  async deleteShootManagedResources(): Promise<void> {
    for (const mr of await this.shootManagedResources()) {
      const key = { namespace: this.values.namespace, name: mr.metadata?.name ?? '' };
      try {
        if (!mr.metadata?.deletionTimestamp) {
          await this.seed.patch(ManagedResourceKind, key, { type: 'merge', patch: { spec: { keepObjects: true } } });
        }
        await this.seed.delete(ManagedResourceKind, key);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  /**
   * "Waiting until managed resources have been deleted". Without a resource manager running (no Deployment, or
   * none of its replicas) nobody removes its finalizer, so it is removed here.
   */
  async waitForShootManagedResourcesDeleted(signal: AbortSignal): Promise<void> {
    await pollUntil(
      `ManagedResources in ${this.values.namespace}`,
      async () => {
        const left = await this.shootManagedResources();
        if (left.length === 0) return undefined;
        const deployment = await this.seed
          .get(Kinds.Deployment, { namespace: this.values.namespace, name: GardenerResourceManagerName })
          .catch((err: unknown) => {
            if (isNotFound(err)) return undefined;
            throw err;
          });
        // Nobody removes the finalizers without a running resource manager (none, or scaled to zero by hibernation).
        if (!deployment || (deployment.spec?.replicas ?? 1) === 0) {
          for (const mr of left) {
            const finalizers = (mr.metadata?.finalizers ?? []).filter((f) => !f.startsWith(ResourceManagerFinalizer));
            await this.seed
              .patch(
                ManagedResourceKind,
                { namespace: this.values.namespace, name: mr.metadata?.name ?? '' },
                { type: 'merge', patch: { metadata: { finalizers } } },
              )
              .catch((err: unknown) => {
                if (!isNotFound(err)) throw err;
              });
          }
        }
        return `${left.map((mr) => mr.metadata?.name).join(', ')} not deleted yet`;
      },
      this.wait,
      signal,
    );
  }

  /** "Destroying gardener-resource-manager": its Deployment (its other seed objects go with the namespace). */
  async destroyGardenerResourceManager(): Promise<void> {
    this.close();
    await this.deleteObject(Kinds.Deployment, GardenerResourceManagerName);
  }

  /** Deletes the shoot's `Cluster` resource (after the delete flow). */
  async deleteCluster(): Promise<void> {
    await this.deleteObject(ClusterKind, this.values.namespace, true);
  }

  private async deleteObject(kind: Kind, name: string, clusterScoped = false): Promise<void> {
    try {
      await this.seed.delete(kind, { name, ...(clusterScoped ? {} : { namespace: this.values.namespace }) });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async waitForGone(kind: Kind, name: string, signal: AbortSignal, clusterScoped = false): Promise<void> {
    await pollUntil(
      `${kind.kind} ${clusterScoped ? '' : `${this.values.namespace}/`}${name}`,
      async () => {
        try {
          await this.seed.get(kind, { name, ...(clusterScoped ? {} : { namespace: this.values.namespace }) });
          return 'is not deleted yet';
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      },
      this.wait,
      signal,
    );
  }

  /**
   * The shoot's cluster CA for its users: ConfigMap `<shoot>.ca-cluster` (key `ca.crt`) in the project namespace,
   * owned by the Shoot so it goes with it.
   */
  async syncClusterCAToGarden(): Promise<void> {
    const name = `${this.shoot.metadata?.name}.ca-cluster`;
    const namespace = this.shoot.metadata?.namespace;
    await this.garden.patch(
      Kinds.ConfigMap,
      { namespace, name },
      {
        type: 'apply',
        fieldManager: 'gardenlet',
        force: true,
        patch: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name,
            namespace,
            labels: { 'gardener.cloud/role': 'ca-cluster' },
            ownerReferences: [
              {
                apiVersion: 'core.gardener.cloud/v1beta1',
                kind: 'Shoot',
                name: this.shoot.metadata?.name,
                uid: this.shoot.metadata?.uid,
              },
            ],
          },
          data: { 'ca.crt': this.seedSteps.clusterCABundle },
        },
      },
    );
  }

  /**
   * The shoot's current client CA (certificate and key) for admin kubeconfigs: InternalSecret `<shoot>.ca-client` in
   * the project namespace, synced in the same task as the cluster CA, as in Gardener.
   */
  async syncClientCAToGarden(): Promise<void> {
    const name = secretNameOf(this.seedSteps.secrets, SecretNames.CAClient);
    const caClient = await this.seed.get(Kinds.Secret, { namespace: this.values.namespace, name });
    await syncClientCAToGarden(this.garden, this.shoot, caClient.data);
  }

  /**
   * The shoot's SSH keypair for its users: `<shoot>.ssh-keypair` (and `.old` while a rotated keypair is kept) in the
   * project namespace; both deleted when the workers accept no SSH.
   */
  async syncSSHKeypairToGarden(): Promise<void> {
    const current = this.seedSteps.managedSecret(RotatedSecretNames.SSHKeypair);
    if (!current) return deleteSSHKeypairFromGarden(this.garden, this.shoot);
    await syncSSHKeypairToGarden(
      this.garden,
      this.shoot,
      current,
      this.seedSteps.managedSecret(RotatedSecretNames.SSHKeypair, 'old'),
    );
  }

  /** "Ensuring Shoot cluster identity": `<technical ID>-<uid>-<garden cluster identity>`, written once. */
  async ensureShootClusterIdentity(): Promise<void> {
    if (this.shoot.status?.clusterIdentity) return;
    await this.patchShootStatus({ clusterIdentity: this.clusterIdentity() });
  }

  // The shoot's cluster identity: the one in its status, else the one "Ensuring Shoot cluster identity" writes.
  private clusterIdentity(): string {
    if (this.shoot.status?.clusterIdentity) return this.shoot.status.clusterIdentity;
    const garden = this.options.gardenClusterIdentity;
    if (!garden) throw new Error('the garden has no cluster identity (ConfigMap kube-system/cluster-identity)');
    return `${this.values.namespace}-${this.shoot.metadata?.uid}-${garden}`;
  }

  /**
   * "Deploying cloud provider account secret": the credentials the Shoot's CredentialsBinding (or SecretBinding)
   * references, copied into the control plane namespace as `cloudprovider`.
   */
  async deployCloudProviderSecret(): Promise<void> {
    const namespace = this.shoot.metadata?.namespace;
    let ref: { namespace?: string | undefined; name: string; kind?: string };
    if (this.shoot.spec.credentialsBindingName) {
      const binding = await this.garden.get(CredentialsBindingKind, {
        namespace,
        name: this.shoot.spec.credentialsBindingName,
      });
      ref = binding.credentialsRef;
      if (ref.kind !== 'Secret') {
        throw new Error(
          `CredentialsBinding ${namespace}/${binding.metadata?.name} references a ${ref.kind}; only Secrets are supported locally`,
        );
      }
    } else if (this.shoot.spec.secretBindingName) {
      const binding = await this.garden.get(SecretBindingKind, { namespace, name: this.shoot.spec.secretBindingName });
      ref = { namespace: binding.secretRef.namespace ?? namespace, name: binding.secretRef.name ?? '' };
    } else {
      throw new Error(
        `Shoot ${namespace}/${this.shoot.metadata?.name} has neither credentialsBindingName nor secretBindingName`,
      );
    }
    const secret = await this.garden.get(Kinds.Secret, { namespace: ref.namespace ?? namespace, name: ref.name });
    await this.seed.patch(
      Kinds.Secret,
      { namespace: this.values.namespace, name: CloudProviderSecretName },
      {
        type: 'apply',
        fieldManager: 'gardenlet',
        force: true,
        patch: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {
            name: CloudProviderSecretName,
            namespace: this.values.namespace,
            labels: CloudProviderPurposeLabel,
          },
          type: 'Opaque',
          data: secret.data ?? {},
        } satisfies V1Secret as unknown as Record<string, unknown>,
      },
    );
  }

  /** "Deploying referenced resources": Secrets and ConfigMaps of `spec.resources`, copied as `ref-<name>`. */
  async deployReferencedResources(): Promise<void> {
    const namespace = this.shoot.metadata?.namespace;
    for (const resource of this.shoot.spec.resources ?? []) {
      const ref = resource.resourceRef;
      const source = ref.kind === 'Secret' ? Kinds.Secret : ref.kind === 'ConfigMap' ? Kinds.ConfigMap : undefined;
      if (!source) throw new Error(`spec.resources[${resource.name}]: kind ${ref.kind} cannot be referenced`);
      const obj = (await this.garden.get(source, { namespace, name: ref.name })) as KubernetesObject & {
        data?: Record<string, string>;
        type?: string;
      };
      const name = `${ReferencedResourcePrefix}${ref.name}`;
      await this.seed.patch(
        source,
        { namespace: this.values.namespace, name },
        {
          type: 'apply',
          fieldManager: 'gardenlet',
          force: true,
          patch: {
            apiVersion: 'v1',
            kind: ref.kind,
            metadata: { name, namespace: this.values.namespace },
            ...(obj.type ? { type: obj.type } : {}),
            data: obj.data ?? {},
          },
        },
      );
    }
  }

  private async kubeAPIServerService(): Promise<V1Service> {
    return (await this.seed.get(Kinds.Service, {
      namespace: this.values.namespace,
      name: KubeAPIServerName,
    })) as V1Service;
  }

  /** "Waiting until Kubernetes API server service in the Seed cluster has reported readiness": its LB address. */
  async waitForKubeAPIServerService(signal: AbortSignal): Promise<void> {
    await pollUntil(
      `Service ${this.values.namespace}/${KubeAPIServerName}`,
      async () => (loadBalancerURL(await this.kubeAPIServerService()) ? undefined : 'has no load balancer address yet'),
      this.wait,
      signal,
    );
  }

  /**
   * "Ensuring advertised addresses for the Shoot": the API server's domains whose DNS records the flow writes (an
   * external domain with unmanaged DNS too: its owner writes the record), then its load balancer address.
   */
  async updateAdvertisedAddresses(): Promise<void> {
    const url = loadBalancerURL(await this.kubeAPIServerService());
    if (!url) throw new Error(`Service ${this.values.namespace}/${KubeAPIServerName} has no load balancer address`);
    const { internal, external } = apiServerDomains(this.values);
    const dns = this.dnsRecordSteps();
    const domains = {
      ...(external && (typeof dns.deployExternalDNSRecord === 'function' || usesUnmanagedDNS(this.values.shoot))
        ? { external }
        : {}),
      ...(internal && typeof dns.deployInternalDNSRecord === 'function' ? { internal } : {}),
    };
    await this.patchShootStatus({ advertisedAddresses: advertisedAddresses(domains, url) });
  }

  /** "Deploying main and events etcd": the Etcd resources with a reconcile request. */
  async deployEtcd(): Promise<void> {
    const now = (this.options.now?.() ?? new Date()).toISOString();
    const backup = await this.etcdBackupConfig();
    for (const role of ['main', 'events'] as const) {
      const etcd = await withReplicasWhileHibernating(
        this.seed,
        EtcdKind,
        // Gardener backs up etcd-main only.
        renderEtcd(this.values, role, this.seedSteps.secrets, {
          now,
          ...(role === 'main' && backup ? { backup } : {}),
        }),
        this.values.shoot,
      );
      await this.seed.patch(
        EtcdKind,
        { namespace: this.values.namespace, name: etcd.metadata!.name! },
        { type: 'apply', fieldManager: 'gardenlet', force: true, patch: etcd as unknown as Record<string, unknown> },
      );
    }
  }

  /**
   * etcd-main's backup store when the seed has backup (Gardener's DeployEtcd): the seed's backup provider, the
   * `etcd-backup` Secret the BackupEntry's extension deployed into the shoot namespace (its `bucketName` is the
   * container) and the BackupEntry's name as prefix. A missing Secret fails the step (it is retried).
   */
  private async etcdBackupConfig(): Promise<EtcdOptions['backup']> {
    const seedBackup = this.values.seed.spec.backup;
    if (!seedBackup) return undefined;
    const secretName = 'etcd-backup';
    const secret = await this.seed.get(Kinds.Secret, { namespace: this.values.namespace, name: secretName });
    const bucket = (secret as { data?: Record<string, string> }).data?.bucketName;
    if (!bucket) throw new Error(`Secret ${this.values.namespace}/${secretName} has no bucketName`);
    const entryName = renderBackupEntry(this.values, { bucketName: '' })?.metadata?.name;
    if (!entryName) throw new Error(`no BackupEntry name for shoot ${this.values.shoot.metadata?.name}`);
    return {
      provider: seedBackup.provider,
      secretRefName: secretName,
      container: Buffer.from(bucket, 'base64').toString('utf8'),
      prefix: entryName,
    };
  }

  /** "Waiting until main and event etcd report readiness". */
  async waitForEtcd(signal: AbortSignal): Promise<void> {
    // Both at once: the wait ends when the later of the two is ready.
    await Promise.all(
      (['main', 'events'] as EtcdRole[]).map((role) =>
        waitForObject(
          this.seed,
          EtcdKind,
          { namespace: this.values.namespace, name: etcdName(role) },
          (etcd) => (etcd ? etcdNotReady(etcd) : 'does not exist'),
          this.wait,
          signal,
        ),
      ),
    );
  }

  /** Waits until a control plane Deployment has rolled out. */
  async waitForDeployment(name: string, signal: AbortSignal): Promise<void> {
    await waitForObject(
      this.seed,
      Kinds.Deployment,
      { namespace: this.values.namespace, name },
      (deployment) => (deployment ? deploymentNotRolledOut(deployment as V1Deployment) : 'does not exist'),
      this.wait,
      signal,
    );
  }

  /**
   * "Waiting until kube-controller-manager is active" (Gardener's `WaitForControllersToBeActive`): its Deployment has
   * rolled out and a leader holds its Lease `kube-system/kube-controller-manager` in the shoot, renewed within the
   * Lease's duration — the shoot's controllers run (garbage collection, pod GC) before the shoot is cleaned.
   */
  async waitForKubeControllerManagerActive(signal: AbortSignal): Promise<void> {
    await this.waitForDeployment(KubeControllerManagerName, signal);
    await pollUntil(
      `kube-controller-manager of shoot ${this.values.namespace}`,
      async () => {
        const lease = await this.shootClient()
          .get(Kinds.Lease, { namespace: 'kube-system', name: KubeControllerManagerName })
          .catch((err: unknown) => {
            if (isNotFound(err)) return undefined;
            throw err;
          });
        return kubeControllerManagerNotActive(lease, this.options.now?.() ?? new Date());
      },
      this.wait,
      signal,
    );
  }

  private async patchShootStatus(status: Record<string, unknown>): Promise<void> {
    await this.garden.patch(ShootKind, this.shootKey, { type: 'merge', patch: { status } }, { subresource: 'status' });
  }
}

/** Why kube-controller-manager's leader Lease shows no active leader, or undefined (pure). */
export function kubeControllerManagerNotActive(
  lease: { spec?: { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number } } | undefined,
  now: Date,
): string | undefined {
  if (!lease) return 'has no leader Lease yet';
  const { holderIdentity, renewTime, leaseDurationSeconds } = lease.spec ?? {};
  if (!holderIdentity) return 'has no leader';
  const renewed = renewTime ? Date.parse(renewTime) : NaN;
  if (Number.isNaN(renewed) || renewed + (leaseDurationSeconds ?? 15) * 1000 < now.getTime())
    return `its leader ${holderIdentity} has not renewed the Lease since ${renewTime ?? 'ever'}`;
  return undefined;
}

/**
 * Why an Etcd is not ready for the flow to go on, or undefined (pure; Gardener's etcd check): the etcd controller has
 * picked up the last reconcile request and observed the current generation, and reports ready. A `ready` from before
 * the last spec change (a hibernated etcd being scaled up) does not count.
 */
export function etcdNotReady(etcd: {
  metadata?: { generation?: number; annotations?: Record<string, string> };
  status?: { ready?: boolean; observedGeneration?: number; lastErrors?: { description?: string }[] };
}): string | undefined {
  if (etcd.metadata?.annotations?.[Annotations.GardenerOperation] === Operations.OperationReconcile)
    return 'has not picked up the reconcile request yet';
  if (etcd.metadata?.generation !== undefined && etcd.status?.observedGeneration !== etcd.metadata.generation)
    return `has not observed generation ${etcd.metadata.generation} yet`;
  if (etcd.status?.ready === true) return undefined;
  const error = etcd.status?.lastErrors?.[0]?.description;
  return error ? `is not ready: ${error}` : 'is not ready yet';
}
