// Steps of the shoot flows over a seed client (the thin shell over the component renderers): the control plane
// namespace, the `Cluster` resource, the shoot's secrets from the secrets manager, kube-apiserver (Service,
// configuration, Deployment), kube-controller-manager and kube-scheduler with their shoot access, and the
// Infrastructure, ControlPlane and Network extension resources with their waits. Each deploy is a server-side apply
// of what the pure renderers return. The other steps of `ReconcileOperation` are not implemented here yet.
import { isNotFound, Kinds, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { decode, generateAllSecrets, SecretsManager, type KeySpec } from '@gardener-ts/secrets-manager';
import { renderCluster } from '../component/cluster.js';
import { renderControlPlane, renderInfrastructure, renderNetwork } from '../component/extensions.js';
import {
  renderAdmissionConfigSecret,
  renderAuditPolicyConfigMap,
  renderEncryptionConfigurationSecret,
  renderKubeAPIServerDeployment,
  renderKubeAPIServerService,
  type EncryptionKey,
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
import { collectSecretNames, SecretNames, shootSecretConfigs, type ShootSecretNames } from '../component/secrets.js';
import type { ShootValues } from '../component/values.js';
import { extensionKeyOf, ExtensionResources, type WaitOptions } from './extension-resources.js';

/** The identity of the gardenlet's secrets manager for shoot control planes. */
export const SecretsManagerIdentity = 'gardenlet';

/** Options of {@link SeedShootSteps}. */
export interface SeedShootStepsOptions {
  readonly namespace?: NamespaceOptions;
  /** Key of the generated certificates (RSA 3072 as Gardener when unset). */
  readonly certificateKey?: KeySpec;
  /** Polling of the waits for extension resources. */
  readonly wait?: Omit<WaitOptions, 'signal'>;
  /** The clock: the `gardener.cloud/timestamp` of the reconcile requests. */
  readonly now?: () => Date;
}

/** Steps of the shoot flows over the seed client, for one shoot. */
export class SeedShootSteps {
  /** Deploys, waits for and deletes the shoot's extension resources. */
  readonly extensions: ExtensionResources;
  private secretNames: ShootSecretNames | undefined;
  private caBundle: string | undefined;
  private encryptionKeys: EncryptionKey[] = [];
  private readonly requests = new Map<string, string>();

  /** Steps for `values` (the shoot, seed, cloud profile and control plane namespace) over a seed client. */
  constructor(
    private readonly client: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>,
    private readonly values: ShootValues,
    private readonly options: SeedShootStepsOptions = {},
  ) {
    this.extensions = new ExtensionResources(client);
  }

  // Server-side apply as the gardenlet, like every object the flow writes.
  private async apply(obj: KubernetesObject): Promise<void> {
    await this.extensions.deploy(obj);
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

  /** "Initializing secrets management": generates the shoot's secrets and remembers their names for the renderers. */
  readonly initializeSecretsManagement = async (): Promise<void> => {
    const rotation = this.values.shoot.status?.credentials?.rotation?.certificateAuthorities;
    const manager = await SecretsManager.create(this.client, {
      namespace: this.values.namespace,
      identity: SecretsManagerIdentity,
    });
    const configs = shootSecretConfigs(
      this.values,
      this.options.certificateKey ? { key: this.options.certificateKey } : {},
    );
    const generated = await generateAllSecrets(manager, configs, rotation?.phase as never);
    this.secretNames = collectSecretNames(generated, (name) => manager.get(name));
    this.caBundle = decode(manager.get(SecretNames.CACluster)!, 'bundle.crt').toString();
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

  /** The cluster CA bundle (PEM) of the last `initializeSecretsManagement`; throws before it ran. */
  get clusterCABundle(): string {
    if (!this.caBundle) throw new Error('secrets management has not been initialized');
    return this.caBundle;
  }

  /** The secret names of the last `initializeSecretsManagement`; throws before it ran. */
  get secrets(): ShootSecretNames {
    if (!this.secretNames) throw new Error('secrets management has not been initialized');
    return this.secretNames;
  }

  /** "Deploying Shoot infrastructure". */
  readonly deployInfrastructure = async (): Promise<void> => {
    const now = this.now();
    await this.deployExtension(renderInfrastructure(this.values, { now }) as KubernetesObject, now);
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

  /** "Deploying Kubernetes controller manager". */
  readonly deployKubeControllerManager = async (): Promise<void> => {
    const generic = await this.shootAccess(KubeControllerManagerName);
    await this.apply(renderKubeControllerManagerDeployment(this.values, this.secrets, generic) as KubernetesObject);
  };

  /** "Deploying Kubernetes scheduler". */
  readonly deployKubeScheduler = async (): Promise<void> => {
    const generic = await this.shootAccess(KubeSchedulerName);
    const config = renderKubeSchedulerConfigMap(this.values);
    await this.apply(config as KubernetesObject);
    await this.apply(
      renderKubeSchedulerDeployment(this.values, this.secrets, generic, config.metadata!.name!) as KubernetesObject,
    );
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
