// Steps of the shoot flows over a seed client (the thin shell over the component renderers): the control plane
// namespace, the `Cluster` resource, the shoot's secrets from the secrets manager, kube-apiserver (Service,
// configuration, Deployment), the shoot's gardener-resource-manager (bootstrapped with a client certificate until its
// own shoot access token works), Gardener's shoot access Secrets, kube-controller-manager and kube-scheduler with their
// shoot access, and the Infrastructure, ControlPlane and Network extension resources with their waits. Each deploy is
// a server-side apply of what the pure renderers return. The other steps of `ReconcileOperation` are not implemented
// here yet.
import {
  isNotFound,
  kind,
  Kinds,
  type Client,
  type KubernetesObject,
  type Secret,
} from '@gardener-ts/controller-runtime';
import { withReplicasWhileHibernating } from './hibernation-steps.js';
import { sleep } from '@gardener-ts/flow';
import { pollDelays, waitForObject, type ObjectWaitClient } from './poll.js';
import {
  decode,
  generateAllSecrets,
  SecretsManager,
  type KeyPair,
  type KeySpec,
  type KeyStock,
} from '@gardener-ts/secrets-manager';
import type { V1Secret } from '@kubernetes/client-node';
import { renderCluster } from '../component/cluster.js';
import {
  GardenerAccessName,
  GardenerInternalAccessName,
  renderGardenerAccessSecrets,
  renderGardenerAccessShootResources,
  type GardenerAccessServers,
} from '../component/gardener-access.js';
import {
  BootstrapCertificateValidityMs,
  GardenerResourceManagerName,
  mustBootstrapResourceManager,
  renderResourceManagerBootstrapKubeconfigSecret,
  renderResourceManagerConfigMap,
  renderResourceManagerDeployment,
  renderResourceManagerRBAC,
  renderResourceManagerShootAccessSecret,
  renderResourceManagerShootResources,
  resourceManagerConfig,
  ResourceManagerBootstrapName,
  ResourceManagerManagedResourceName,
  resourceManagerNotBootstrapped,
  type ResourceManagerShootAccess,
} from '../component/resource-manager.js';
import {
  renderKubeControllerManagerShootResources,
  renderKubeSchedulerShootResources,
  renderShootClusterIdentityResources,
  renderShootNamespacesResources,
  ShootNamespacesManagedResourceName,
} from '../component/managed-resource.js';
import { checkManagedResource } from '../controller/seedcare/health.js';
import { renderShootSystemResources, type APIResourceList } from '../component/shoot-system.js';
import { renderControlPlane, renderInfrastructure, renderNetwork } from '../component/extensions.js';
import {
  renderAdmissionConfigSecret,
  renderAuditPolicyConfigMap,
  renderEncryptionConfigurationSecret,
  renderKubeAPIServerDeployment,
  renderKubeAPIServerService,
  type EncryptionKey,
  encryptedResources,
} from '../component/kube-apiserver.js';
import {
  renderKubeControllerManagerDeployment,
  KubeControllerManagerName,
} from '../component/kube-controller-manager.js';
import {
  renderKubeSchedulerConfigMap,
  renderKubeSchedulerDeployment,
  KubeSchedulerName,
} from '../component/kube-scheduler.js';
import { renderGenericTokenKubeconfigSecret, renderShootAccessSecret } from '../component/shoot-access.js';
import { renderControlPlaneNamespace, type NamespaceOptions } from '../component/namespace.js';
import { KubeProxyName, KubeProxyUser, renderKubeProxyManagedResources } from '../component/kube-proxy.js';
import {
  collectSecretNames,
  SecretNames,
  secretNameOf,
  shootSecretConfigs,
  type ShootSecretNames,
} from '../component/secrets.js';
import { externalClusterDomain, projectNameOfNamespace, shootNetworks, type ShootValues } from '../component/values.js';
import { extensionKeyOf, ExtensionResources, type WaitOptions } from './extension-resources.js';
import { SSHKeypairPublicKeyDataKey } from '../component/sshd.js';
import {
  RotatedSecretNames,
  secretsRotationConfig,
  sshKeypairConfig,
  withRotationOptions,
} from './rotation/secrets.js';
import { shootEnablesSSHAccess } from './rotation/status.js';

/**
 * The key pairs a shoot's first reconcile generates with Gardener's keys: one per CA and certificate of
 * `shootSecretConfigs` and the resource manager's bootstrap and kube-proxy client certificates (RSA 3072 bits), the
 * service account and SSH keys (RSA 4096 bits). What a gardenlet's `KeyPool` keeps ready.
 */
export const ShootKeyStock: readonly KeyStock[] = [
  { spec: { algorithm: 'RSA', bits: 3072 }, count: 15 },
  { spec: { algorithm: 'RSA', bits: 4096 }, count: 2 },
];

/** The identity of the gardenlet's secrets manager for shoot control planes. */
export const SecretsManagerIdentity = 'gardenlet';

/** Options of {@link SeedShootSteps}. */
export interface SeedShootStepsOptions {
  readonly namespace?: NamespaceOptions;
  /** Key of the generated certificates (RSA 3072 as Gardener when unset). */
  readonly certificateKey?: KeySpec;
  /** How the secrets manager makes key pairs (e.g. a `KeyPool`'s `take`; Node's crypto when unset). */
  readonly generateKey?: (spec: KeySpec) => Promise<KeyPair>;
  /** Polling of the waits for extension resources. */
  readonly wait?: Omit<WaitOptions, 'signal'>;
  /** The clock: the `gardener.cloud/timestamp` of the reconcile requests. */
  readonly now?: () => Date;
  /** The image of the shoot's gardener-resource-manager (default `gardener-ts/resource-manager:<version>`). */
  readonly resourceManagerImage?: string;
  /**
   * How long the resource manager's bootstrap may take, and how often it is checked at most (Gardener: 2 min, every
   * 5 s; here from 100 ms, doubling up to every 1 s, so the flow goes on soon after it is done).
   */
  readonly resourceManagerBootstrap?: { readonly timeout: number; readonly interval: number };
}

const ManagedResourceKind = kind<KubernetesObject & { spec?: { class?: string }; status?: unknown }>(
  'resources.gardener.cloud/v1alpha1',
  'ManagedResource',
);

/** Steps of the shoot flows over the seed client, for one shoot. */
export class SeedShootSteps {
  /** Deploys, waits for and deletes the shoot's extension resources. */
  readonly extensions: ExtensionResources;
  private secretNames: ShootSecretNames | undefined;
  private caBundle: string | undefined;
  private kubeletCA: string | undefined;
  private encryptionKeys: EncryptionKey[] = [];
  private readonly requests = new Map<string, string>();
  private manager: SecretsManager | undefined;

  /** Steps for `values` (the shoot, seed, cloud profile and control plane namespace) over a seed client. */
  constructor(
    private readonly client: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'> & ObjectWaitClient,
    private readonly values: ShootValues,
    private readonly options: SeedShootStepsOptions = {},
  ) {
    this.extensions = new ExtensionResources(client);
  }

  // Server-side apply as the gardenlet, like every object the flow writes.
  // A control plane Deployment keeps its replicas while the shoot is on its way to hibernation.
  private async apply(obj: KubernetesObject): Promise<void> {
    const deployment = obj.kind === 'Deployment' && obj.apiVersion === 'apps/v1';
    await this.extensions.deploy(
      deployment ? await withReplicasWhileHibernating(this.client, Kinds.Deployment, obj, this.values.shoot) : obj,
    );
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  /** "Deploying Shoot namespace in Seed". */
  readonly deployNamespace = async (): Promise<void> => {
    await this.apply(renderControlPlaneNamespace(this.values, this.options.namespace) as KubernetesObject);
  };

  /** Syncs the `Cluster` resource (before and after each flow, as Gardener). */
  readonly deployCluster = async (): Promise<void> => {
    await this.apply(renderCluster(this.values) as KubernetesObject);
  };

  /**
   * "Initializing secrets management": generates the shoot's secrets and remembers their names for the renderers.
   * The credentials rotation of the shoot's status decides the rotation times and keep-old/drop-old options.
   */
  readonly initializeSecretsManagement = async (): Promise<void> => {
    const rotation = secretsRotationConfig(this.values.shoot);
    const manager = await SecretsManager.create(this.client, {
      namespace: this.values.namespace,
      identity: SecretsManagerIdentity,
      secretNamesToTimes: rotation.secretNamesToTimes,
      ...(this.options.generateKey ? { generateKey: this.options.generateKey } : {}),
    });
    const configs = withRotationOptions(
      [
        ...shootSecretConfigs(this.values, this.options.certificateKey ? { key: this.options.certificateKey } : {}),
        ...(shootEnablesSSHAccess(this.values.shoot) ? [sshKeypairConfig()] : []),
      ],
      rotation,
    );
    const caPhase = rotation.phases.certificateAuthorities === 'drop-old' ? 'Completing' : undefined;
    const generated = await generateAllSecrets(manager, configs, caPhase);
    this.manager = manager;
    this.secretNames = collectSecretNames(generated, (name) => manager.get(name));
    this.caBundle = decode(manager.get(SecretNames.CACluster)!, 'bundle.crt').toString();
    this.kubeletCA = decode(manager.get(SecretNames.CAKubelet, { class: 'current' })!, 'ca.crt').toString();
    // The current key first, the old one (during a rotation) after it, so existing data stays readable.
    this.encryptionKeys = (['current', 'old'] as const).flatMap((cls) => {
      const secret = manager.get(SecretNames.ETCDEncryptionKey, { class: cls });
      if (!secret) return [];
      // kube-apiserver takes the AES key base64 encoded; `encoding: none` marks a raw key (Gardener's
      // aesKeyFromSecretData); without it the secret is base64 already.
      const value = decode(secret, 'secret');
      const isRaw = secret.data?.encoding !== undefined && decode(secret, 'encoding').toString() === 'none';
      return [{ key: decode(secret, 'key').toString(), secret: isRaw ? value.toString('base64') : value.toString() }];
    });
  };

  /**
   * Deletes the secrets of the shoot's secrets manager this run did not generate (Gardener's `Cleanup` after a
   * successful reconcile): old CAs and keys once their rotation completes, secrets of replaced configs.
   */
  readonly cleanupSecrets = async (): Promise<void> => {
    if (!this.manager) throw new Error('secrets management has not been initialized');
    await this.manager.cleanup();
  };

  /** A secret the last `initializeSecretsManagement` generated, by config name (`old`: kept by a rotation). */
  managedSecret(name: string, cls: 'current' | 'old' = 'current'): Secret | undefined {
    return this.manager?.get(name, { class: cls });
  }

  /**
   * The shoot's SSH public keys (OpenSSH): the current `ssh-keypair`, then the old one while a rotation keeps it; none
   * without SSH access (the keypair is generated only with it).
   */
  sshPublicKeys(): string[] {
    return (['current', 'old'] as const).flatMap((cls) => {
      const secret = this.managedSecret(RotatedSecretNames.SSHKeypair, cls);
      return secret ? [decode(secret, SSHKeypairPublicKeyDataKey).toString().trim()] : [];
    });
  }

  /** The cluster CA bundle (PEM) of the last `initializeSecretsManagement`; throws before it ran. */
  get clusterCABundle(): string {
    if (!this.caBundle) throw new Error('secrets management has not been initialized');
    return this.caBundle;
  }

  /**
   * The current `ca-kubelet` certificate: the kubelets' client CA (`/var/lib/kubelet/ca.crt`), which signs the
   * kube-apiserver's client certificate for kubelets (Gardener's SetKubeletCACertificate).
   */
  get kubeletCACertificate(): string {
    if (!this.kubeletCA) throw new Error('secrets management has not been initialized');
    return this.kubeletCA;
  }

  /** The secret names of the last `initializeSecretsManagement`; throws before it ran. */
  get secrets(): ShootSecretNames {
    if (!this.secretNames) throw new Error('secrets management has not been initialized');
    return this.secretNames;
  }

  /** "Deploying Shoot infrastructure". */
  readonly deployInfrastructure = async (): Promise<void> => {
    const now = this.now();
    // Gardener sets the current SSH public key on the Infrastructure when the shoot allows SSH access.
    const [sshPublicKey] = this.sshPublicKeys();
    await this.deployExtension(
      renderInfrastructure(this.values, { now, ...(sshPublicKey ? { sshPublicKey } : {}) }) as KubernetesObject,
      now,
    );
  };

  /** "Waiting until shoot infrastructure has been reconciled". */
  readonly waitForInfrastructure = async (signal: AbortSignal): Promise<void> => {
    await this.waitForExtension(renderInfrastructure(this.values, { now: '' }) as KubernetesObject, signal);
  };

  /** "Deploying Kubernetes API server service in the Seed cluster". */
  readonly deployKubeAPIServerService = async (): Promise<void> => {
    await this.apply(renderKubeAPIServerService(this.values) as KubernetesObject);
  };

  /**
   * "Deploying Kubernetes API server": the encryption configuration, admission configuration and audit policy, then
   * the Deployment mounting them and the secrets of this run.
   */
  readonly deployKubeAPIServer = async (): Promise<void> => {
    const encryption = renderEncryptionConfigurationSecret(this.values, this.encryptionKeys);
    const admission = renderAdmissionConfigSecret(this.values);
    const audit = renderAuditPolicyConfigMap(this.values);
    for (const obj of [encryption, admission, audit]) await this.apply(obj as KubernetesObject);
    const deployment = renderKubeAPIServerDeployment(this.values, this.secrets, {
      encryptionConfigSecret: encryption.metadata!.name!,
      admissionConfigSecret: admission.metadata!.name!,
      auditPolicyConfigMap: audit.metadata!.name!,
    });
    await this.apply(deployment as KubernetesObject);
  };

  // The generic token kubeconfig (cluster CA of this run) and the shoot access Secret of a component.
  private async shootAccess(name: string): Promise<string> {
    if (!this.caBundle) throw new Error('secrets management has not been initialized');
    const generic = renderGenericTokenKubeconfigSecret(this.values, this.caBundle);
    await this.apply(generic as KubernetesObject);
    await this.apply(renderShootAccessSecret(this.values, name) as KubernetesObject);
    return generic.metadata!.name!;
  }

  private async readOptional<T = KubernetesObject>(
    k: Parameters<SeedShootSteps['client']['get']>[0],
    name: string,
  ): Promise<T | undefined> {
    try {
      return (await this.client.get(k, { namespace: this.values.namespace, name })) as unknown as T;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /**
   * "Deploying gardener-resource-manager": its seed RBAC, configuration, shoot access Secret and shoot objects, then
   * the Deployment. While its own token does not work yet (`mustBootstrapResourceManager`), it first runs with a
   * 10-minute client certificate of the client CA (`system:masters`) until its token requestor has filled its shoot
   * access Secret and its ManagedResource is healthy; the bootstrap kubeconfig is deleted after that (Gardener's
   * `DeployGardenerResourceManager`). Returns why it was bootstrapped, if it was.
   */
  readonly deployGardenerResourceManager = async (signal?: AbortSignal): Promise<string | undefined> => {
    if (!this.caBundle || !this.manager) throw new Error('secrets management has not been initialized');
    // A hibernated shoot has no resource manager, except while it is deleted: its ManagedResources must be cleaned up.
    const deleting = this.values.shoot.metadata?.deletionTimestamp !== undefined;
    const replicas = this.values.shoot.spec.hibernation?.enabled === true && !deleting ? 0 : 1;
    for (const obj of renderResourceManagerRBAC(this.values)) await this.apply(obj);
    await this.apply(renderResourceManagerShootAccessSecret(this.values) as KubernetesObject);
    const shootResources = renderResourceManagerShootResources(this.values);
    await this.apply(shootResources.secret);
    await this.apply(shootResources.managedResource);
    const generic = renderGenericTokenKubeconfigSecret(this.values, this.caBundle);
    await this.apply(generic as KubernetesObject);
    const config = renderResourceManagerConfigMap(
      this.values,
      resourceManagerConfig(this.values, { clusterIdentity: this.values.seed.status?.clusterIdentity }),
    );
    await this.apply(config as KubernetesObject);
    const deploy = (access: ResourceManagerShootAccess) =>
      this.apply(
        renderResourceManagerDeployment(this.values, {
          image: this.options.resourceManagerImage,
          configMap: config.metadata!.name!,
          clusterCASecret: secretNameOf(this.secrets, SecretNames.CACluster, 'bundle'),
          access,
          replicas,
        }) as KubernetesObject,
      );

    const reason = mustBootstrapResourceManager({
      replicas,
      shootAccessSecret: await this.readOptional<V1Secret>(
        Kinds.Secret,
        renderResourceManagerShootAccessSecret(this.values).metadata!.name!,
      ),
      managedResource: (await this.readOptional(ManagedResourceKind, ResourceManagerManagedResourceName)) as never,
      now: this.options.now?.() ?? new Date(),
    });
    if (reason) {
      const certificate = await this.manager.generate(
        {
          kind: 'certificate',
          name: ResourceManagerBootstrapName,
          commonName: `gardener.cloud:system:${GardenerResourceManagerName}`,
          organization: ['system:masters'],
          certType: 'client',
          validity: BootstrapCertificateValidityMs,
          skipPublishingCACertificate: true,
          ...(this.options.certificateKey ? { key: this.options.certificateKey } : {}),
        },
        { signedByCA: SecretNames.CAClient, signingCAClass: 'current' },
      );
      const bootstrap = renderResourceManagerBootstrapKubeconfigSecret(this.values, {
        caPEM: this.caBundle,
        certPEM: decode(certificate, 'tls.crt').toString(),
        keyPEM: decode(certificate, 'tls.key').toString(),
      });
      await this.apply(bootstrap as KubernetesObject);
      await deploy({ bootstrapKubeconfigSecret: bootstrap.metadata!.name! });
      await this.waitUntilResourceManagerBootstrapped(signal);
      // The bootstrap credentials are not needed any more (Gardener deletes its bootstrap kubeconfig secret).
      for (const name of [bootstrap.metadata!.name!, certificate.metadata!.name!]) {
        await this.client.delete(Kinds.Secret, { namespace: this.values.namespace, name });
      }
    }
    await deploy({ genericKubeconfigSecret: generic.metadata!.name! });
    return reason;
  };

  // Its shoot access Secret has a token that is not due for renewal, and its ManagedResource is healthy.
  private async waitUntilResourceManagerBootstrapped(signal: AbortSignal | undefined): Promise<void> {
    const { timeout, interval } = this.options.resourceManagerBootstrap ?? { timeout: 120_000, interval: 1_000 };
    const deadline = Date.now() + timeout;
    const name = renderResourceManagerShootAccessSecret(this.values).metadata!.name!;
    const delays = pollDelays(interval);
    for (;;) {
      signal?.throwIfAborted();
      let why = resourceManagerNotBootstrapped(
        await this.readOptional<V1Secret>(Kinds.Secret, name),
        this.options.now?.() ?? new Date(),
      );
      if (!why) {
        const mr = await this.readOptional(ManagedResourceKind, ResourceManagerManagedResourceName);
        const problem = mr ? checkManagedResource(mr as never) : { message: 'does not exist' };
        why = problem ? `ManagedResource ${ResourceManagerManagedResourceName}: ${problem.message}` : undefined;
      }
      if (!why) return;
      if (Date.now() >= deadline) {
        throw new Error(`gardener-resource-manager in ${this.values.namespace} was not bootstrapped in time: ${why}`);
      }
      await sleep(delays.next().value, signal);
    }
  }

  /**
   * "Deploying Gardener shoot access resources": the `gardener` and `gardener-internal` shoot access kubeconfigs
   * (tokens the resource manager fills are kept) and the ManagedResource with their ClusterRoleBinding.
   */
  readonly deployGardenerAccess = async (servers: GardenerAccessServers): Promise<void> => {
    if (!this.caBundle) throw new Error('secrets management has not been initialized');
    const existing = new Map<string, V1Secret>();
    for (const name of [GardenerAccessName, GardenerInternalAccessName]) {
      const secret = await this.readOptional<V1Secret>(Kinds.Secret, name);
      if (secret) existing.set(name, secret);
    }
    for (const secret of renderGardenerAccessSecrets(this.values, this.caBundle, servers, existing)) {
      await this.apply(secret as KubernetesObject);
    }
    const resources = renderGardenerAccessShootResources(this.values);
    await this.apply(resources.secret);
    await this.apply(resources.managedResource);
  };

  /** A shoot access Secret (`gardener`, `gardener-internal`), if it exists. */
  async shootAccessSecret(name: string): Promise<V1Secret | undefined> {
    return this.readOptional<V1Secret>(Kinds.Secret, name);
  }

  /** "Deploying Kubernetes controller manager". */
  readonly deployKubeControllerManager = async (): Promise<void> => {
    const generic = await this.shootAccess(KubeControllerManagerName);
    const shootResources = renderKubeControllerManagerShootResources(this.values.namespace);
    for (const obj of [shootResources.secret, shootResources.managedResource]) await this.apply(obj);
    await this.apply(renderKubeControllerManagerDeployment(this.values, this.secrets, generic) as KubernetesObject);
  };

  /** "Deploying Kubernetes scheduler". */
  readonly deployKubeScheduler = async (): Promise<void> => {
    const generic = await this.shootAccess(KubeSchedulerName);
    const shootResources = renderKubeSchedulerShootResources(this.values.namespace);
    for (const obj of [shootResources.secret, shootResources.managedResource]) await this.apply(obj);
    const config = renderKubeSchedulerConfigMap(this.values);
    await this.apply(config as KubernetesObject);
    await this.apply(
      renderKubeSchedulerDeployment(this.values, this.secrets, generic, config.metadata!.name!) as KubernetesObject,
    );
  };

  /**
   * "Deploying kube-proxy system component": kube-proxy's client certificate (`system:kube-proxy`, of the client CA)
   * in a kubeconfig for `server` (the API server address the nodes use), and its ManagedResources.
   */
  readonly deployKubeProxy = async (server: string): Promise<void> => {
    if (!this.caBundle || !this.manager) throw new Error('secrets management has not been initialized');
    const certificate = await this.manager.generate(
      {
        kind: 'certificate',
        name: KubeProxyName,
        commonName: KubeProxyUser,
        certType: 'client',
        skipPublishingCACertificate: true,
        ...(this.options.certificateKey ? { key: this.options.certificateKey } : {}),
      },
      { signedByCA: SecretNames.CAClient },
    );
    const access = {
      server,
      caPEM: this.caBundle,
      certPEM: decode(certificate, 'tls.crt').toString(),
      keyPEM: decode(certificate, 'tls.key').toString(),
    };
    for (const { secret, managedResource } of renderKubeProxyManagedResources(this.values, access)) {
      await this.apply(secret);
      await this.apply(managedResource);
    }
  };

  // Deploys an extension resource with a new reconcile request and remembers the request's time for the wait.
  private async deployExtension(obj: KubernetesObject, now: string): Promise<void> {
    this.requests.set(obj.kind!, now);
    await this.extensions.deploy(obj);
  }

  private async waitForExtension(obj: KubernetesObject, signal: AbortSignal): Promise<void> {
    await this.extensions.waitUntilReady(extensionKeyOf(obj), this.requests.get(obj.kind!), {
      ...this.options.wait,
      signal,
    });
  }

  /** "Deploying shoot control plane components" (the ControlPlane extension resource). */
  readonly deployControlPlane = async (): Promise<void> => {
    const now = this.now();
    await this.deployExtension(renderControlPlane(this.values, { now }) as KubernetesObject, now);
  };

  /** "Waiting until shoot control plane has been reconciled". */
  readonly waitForControlPlane = async (signal: AbortSignal): Promise<void> => {
    await this.waitForExtension(renderControlPlane(this.values, { now: '' }) as KubernetesObject, signal);
  };

  /**
   * "Deploying shoot system resources": `shoot-core-system` (kube-system's NetworkPolicies, `shoot-info`, the system
   * PriorityClasses, the read-only ClusterRole over the shoot's API resources).
   */
  readonly deployShootSystemResources = async (
    extensions: readonly string[],
    apiResources: readonly APIResourceList[] | undefined,
  ): Promise<void> => {
    const networks = shootNetworks(this.values);
    const externalDomain = externalClusterDomain(this.values);
    const resources = renderShootSystemResources(this.values.namespace, {
      shoot: this.values.shoot,
      projectName: projectNameOfNamespace(this.values.shoot.metadata?.namespace ?? ''),
      extensions: [...extensions].sort(),
      podNetworks: [networks.pods],
      serviceNetworks: [networks.services],
      nodeNetworks: networks.nodes ? [networks.nodes] : [],
      ...(externalDomain ? { externalDomain } : {}),
      ...(apiResources ? { apiResources } : {}),
      encryptedResources: encryptedResources(this.values.shoot),
    });
    for (const obj of [resources.secret, resources.managedResource]) await this.apply(obj);
  };

  /** "Deploying shoot cluster identity": `kube-system/cluster-identity` in the shoot, from `status.clusterIdentity`. */
  readonly deployClusterIdentity = async (identity: string): Promise<void> => {
    const resources = renderShootClusterIdentityResources(this.values.namespace, identity);
    for (const obj of [resources.secret, resources.managedResource]) await this.apply(obj);
  };

  /** "Deploying shoot namespaces system component": the shoot's `kube-system` labelled and pinned to its zones. */
  readonly deployShootNamespaces = async (): Promise<void> => {
    const resources = renderShootNamespacesResources(
      this.values.namespace,
      this.values.shoot.spec.provider.workers ?? [],
    );
    for (const obj of [resources.secret, resources.managedResource]) await this.apply(obj);
  };

  /** "Waiting until shoot namespaces have been reconciled": its ManagedResource applied and healthy (2 min). */
  readonly waitForShootNamespaces = async (signal: AbortSignal): Promise<void> => {
    await this.waitForManagedResourceHealthy(ShootNamespacesManagedResourceName, signal, 120_000);
  };

  // A ManagedResource of the control plane namespace is observed at its generation, applied and healthy.
  private async waitForManagedResourceHealthy(name: string, signal: AbortSignal, timeout: number): Promise<void> {
    await waitForObject(
      this.client,
      ManagedResourceKind,
      { namespace: this.values.namespace, name },
      (mr) => (mr ? checkManagedResource(mr as never)?.message : 'does not exist'),
      { interval: this.options.wait?.interval ?? 1000, timeout: this.options.wait?.timeout ?? timeout },
      signal,
    );
  }

  /** "Deploying shoot network plugin". */
  readonly deployNetwork = async (): Promise<void> => {
    const now = this.now();
    await this.deployExtension(renderNetwork(this.values, { now }) as KubernetesObject, now);
  };

  /** "Waiting until shoot network plugin has been reconciled". */
  readonly waitForNetwork = async (signal: AbortSignal): Promise<void> => {
    await this.waitForExtension(renderNetwork(this.values, { now: '' }) as KubernetesObject, signal);
  };

  /** Whether the control plane namespace exists (and is not terminating): the delete flow's first question. */
  async namespaceActive(): Promise<boolean> {
    try {
      const ns = await this.client.get(Kinds.Namespace, { name: this.values.namespace });
      return !ns.metadata?.deletionTimestamp;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw new Error(`reading namespace ${this.values.namespace} failed`, { cause: err });
    }
  }
}
