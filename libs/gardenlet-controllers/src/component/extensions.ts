// The extension resources the shoot flow writes into the control plane namespace, filled from the Shoot spec as
// Gardener's botanist does (`pkg/component/extensions/*` and `botanist/{infrastructure,controlplane,network,
// operatingsystemconfig,containerruntime,extension,worker,dnsrecord,backupentry}.go`): each carries
// `gardener.cloud/operation=reconcile` and a timestamp, which is what makes its extension act.
import {
  Annotations,
  Labels,
  Operations,
  type BackupEntry,
  type Shoot,
  type extensionsv1alpha1,
} from '@gardener-ts/api';
import { requiredExtensionTypes } from './namespace.js';
import { originalComponents, provisionComponents, type NodeAccess } from './operatingsystemconfig.js';
import { isWorkerless, kubernetesVersion, shootNetworks, apiServerDomains, type ShootValues } from './values.js';

/** Name of the Secret holding the shoot's cloud provider credentials in the control plane namespace. */
export const CloudProviderSecretName = 'cloudprovider';
/** Names of the DNSRecord credential Secrets in the control plane namespace. */
export const DNSRecordSecretNames = { internal: 'dnsrecord-internal', external: 'dnsrecord-external' } as const;
/** The data key of the OSC's user data in its Secret, which the Worker's pools reference. */
export const UserDataSecretKey = 'cloud_config';

/** Common options: when the reconcile request was made (`gardener.cloud/timestamp`, RFC 3339). */
export interface ExtensionRenderOptions {
  readonly now: string;
}

function meta(values: ShootValues, name: string, options: ExtensionRenderOptions) {
  return {
    name,
    namespace: values.namespace,
    annotations: {
      [Annotations.GardenerOperation]: Operations.OperationReconcile,
      [Annotations.GardenerTimestamp]: options.now,
    },
  };
}

const apiVersion = 'extensions.gardener.cloud/v1alpha1' as const;
const shootNameOf = (shoot: Shoot) => shoot.metadata?.name ?? '';
const secretRef = (values: ShootValues) => ({ name: CloudProviderSecretName, namespace: values.namespace });

/** The Infrastructure: provider type, region, the shoot's `infrastructureConfig`, the cloud provider secret. */
export function renderInfrastructure(
  values: ShootValues,
  options: ExtensionRenderOptions & { sshPublicKey?: string },
): extensionsv1alpha1.Infrastructure {
  const { shoot } = values;
  return {
    apiVersion,
    kind: 'Infrastructure',
    metadata: meta(values, shootNameOf(shoot), options),
    spec: {
      type: shoot.spec.provider.type,
      region: shoot.spec.region,
      secretRef: secretRef(values),
      ...(shoot.spec.provider.infrastructureConfig
        ? { providerConfig: shoot.spec.provider.infrastructureConfig as Record<string, unknown> }
        : {}),
      ...(options.sshPublicKey ? { sshPublicKey: options.sshPublicKey } : {}),
    },
  };
}

/** The ControlPlane (purpose normal): provider type, region, `controlPlaneConfig`, the Infrastructure's status. */
export function renderControlPlane(
  values: ShootValues,
  options: ExtensionRenderOptions & { infrastructureProviderStatus?: Record<string, unknown> },
): extensionsv1alpha1.ControlPlane {
  const { shoot } = values;
  return {
    apiVersion,
    kind: 'ControlPlane',
    metadata: meta(values, shootNameOf(shoot), options),
    spec: {
      type: shoot.spec.provider.type,
      region: shoot.spec.region,
      secretRef: secretRef(values),
      ...(shoot.spec.provider.controlPlaneConfig
        ? { providerConfig: shoot.spec.provider.controlPlaneConfig as Record<string, unknown> }
        : {}),
      ...(options.infrastructureProviderStatus
        ? { infrastructureProviderStatus: options.infrastructureProviderStatus }
        : {}),
    },
  };
}

/** The Network: networking type and provider config, the pod and service networks, the IP families. */
export function renderNetwork(values: ShootValues, options: ExtensionRenderOptions): extensionsv1alpha1.Network {
  const { shoot } = values;
  const networks = shootNetworks(values);
  const networking = shoot.spec.networking;
  if (!networking?.type) throw new Error(`shoot ${shootNameOf(shoot)} has no spec.networking.type`);
  return {
    apiVersion,
    kind: 'Network',
    metadata: meta(values, shootNameOf(shoot), options),
    spec: {
      type: networking.type,
      podCIDR: networks.pods,
      serviceCIDR: networks.services,
      ipFamilies: networking.ipFamilies ?? ['IPv4'],
      ...(networking.providerConfig ? { providerConfig: networking.providerConfig as Record<string, unknown> } : {}),
    },
  };
}

/** The Extensions of the shoot: one per required type, with the shoot's provider config for it. */
export function renderExtensions(
  values: ShootValues,
  options: ExtensionRenderOptions & { autoEnabledExtensionTypes?: readonly string[] },
): extensionsv1alpha1.Extension[] {
  return requiredExtensionTypes(values.shoot, options.autoEnabledExtensionTypes).map((type) => {
    const config = values.shoot.spec.extensions?.find((e) => e.type === type)?.providerConfig;
    return {
      apiVersion,
      kind: 'Extension',
      metadata: meta(values, type, options),
      spec: { type, ...(config ? { providerConfig: config as Record<string, unknown> } : {}) },
    };
  });
}

/** The machine image of a worker pool: the pool's, else the cloud profile's first image, at its highest version. */
export function machineImageOf(values: ShootValues, worker: NonNullable<Shoot['spec']['provider']['workers']>[number]) {
  const images = values.cloudProfile.spec.machineImages;
  const name = worker.machine.image?.name ?? images[0]?.name;
  if (!name) throw new Error(`worker pool ${worker.name}: no machine image in the shoot or cloud profile`);
  const version =
    worker.machine.image?.version ??
    (images.find((i) => i.name === name)?.versions ?? [])
      .filter((v) => v.classification !== 'preview' && v.classification !== 'deprecated')
      .map((v) => v.version)
      .sort(compareVersions)
      .at(-1);
  if (!version) throw new Error(`worker pool ${worker.name}: no version of machine image ${name}`);
  return { name, version };
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The purposes of a pool's OperatingSystemConfigs: `provision` (the machine's user data) and `reconcile` (node-agent). */
export type OSCPurpose = 'provision' | 'reconcile';

/** The name of a pool's OperatingSystemConfig of a purpose. */
export function operatingSystemConfigName(pool: string, purpose: OSCPurpose): string {
  return `cloud-config-${pool}-${purpose === 'provision' ? 'init' : 'original'}`;
}

/** Options of {@link renderOperatingSystemConfigs}: how machines reach the shoot. */
export type OperatingSystemConfigRenderOptions = ExtensionRenderOptions & NodeAccess;

/**
 * The OperatingSystemConfigs of every worker pool (none for a workerless shoot): type = the pool's machine image,
 * containerd as CRI; the `provision` OSC carries what a new machine needs to start gardener-node-agent (its unit and
 * configuration, the placeholders of the bootstrap token and the machine name), the `reconcile` OSC the original components node-agent
 * applies (kubelet with configuration and CA, gardener-node-agent) — see operatingsystemconfig.ts.
 */
export function renderOperatingSystemConfigs(
  values: ShootValues,
  options: OperatingSystemConfigRenderOptions,
): extensionsv1alpha1.OperatingSystemConfig[] {
  const out: extensionsv1alpha1.OperatingSystemConfig[] = [];
  for (const worker of values.shoot.spec.provider.workers ?? []) {
    const image = machineImageOf(values, worker);
    for (const purpose of ['provision', 'reconcile'] as const) {
      const { units, files } =
        purpose === 'provision'
          ? provisionComponents(values, worker, options)
          : originalComponents(values, worker, options);
      const osc: extensionsv1alpha1.OperatingSystemConfig = {
        apiVersion,
        kind: 'OperatingSystemConfig',
        metadata: meta(values, operatingSystemConfigName(worker.name, purpose), options),
        spec: {
          type: image.name,
          purpose,
          criConfig: { name: 'containerd' },
          units,
          files,
          ...(worker.machine.image?.providerConfig
            ? { providerConfig: worker.machine.image.providerConfig as Record<string, unknown> }
            : {}),
        },
      };
      osc.metadata!.labels = {
        'worker.gardener.cloud/pool': worker.name,
        [Labels.ExtensionProviderMutatedByControlplaneWebhook]: 'true',
      };
      out.push(osc);
    }
  }
  return out;
}

/** Options of {@link renderWorker}. */
export interface WorkerRenderOptions extends ExtensionRenderOptions {
  /** The Infrastructure's `status.providerStatus`. */
  readonly infrastructureProviderStatus?: Record<string, unknown>;
  /** The Secret names holding each pool's provision user data (from the OSC), by pool name. */
  readonly userDataSecretNames: Readonly<Record<string, string>>;
  readonly sshPublicKey?: string;
}

/** The Worker: every pool with its machine type and image, scaling bounds, labels, taints, zones and user data. */
export function renderWorker(values: ShootValues, options: WorkerRenderOptions): extensionsv1alpha1.Worker {
  const { shoot } = values;
  const version = kubernetesVersion(values);
  const pools = (shoot.spec.provider.workers ?? []).map((worker) => {
    const userData = options.userDataSecretNames[worker.name];
    if (!userData) throw new Error(`worker pool ${worker.name}: no user data secret`);
    const pool: extensionsv1alpha1.WorkerSpec['pools'][number] = {
      name: worker.name,
      machineType: worker.machine.type,
      machineImage: machineImageOf(values, worker),
      minimum: worker.minimum,
      maximum: worker.maximum,
      maxSurge: worker.maxSurge ?? 1,
      maxUnavailable: worker.maxUnavailable ?? 0,
      kubernetesVersion: worker.kubernetes?.version ?? version,
      labels: {
        ...worker.labels,
        'node.kubernetes.io/role': 'node',
        'worker.gardener.cloud/pool': worker.name,
        'worker.garden.sapcloud.io/group': worker.name,
        'worker.gardener.cloud/cri-name': worker.cri?.name ?? 'containerd',
        ...(worker.systemComponents?.allow === false ? {} : { 'worker.gardener.cloud/system-components': 'true' }),
      },
      userDataSecretRef: { name: userData, key: UserDataSecretKey },
      ...(worker.annotations ? { annotations: worker.annotations } : {}),
      ...(worker.taints ? { taints: worker.taints as never } : {}),
      ...(worker.zones ? { zones: worker.zones } : {}),
      ...(worker.machine.architecture ? { architecture: worker.machine.architecture } : {}),
      ...(worker.volume ? { volume: worker.volume } : {}),
      ...(worker.dataVolumes ? { dataVolumes: worker.dataVolumes } : {}),
      ...(worker.providerConfig ? { providerConfig: worker.providerConfig as Record<string, unknown> } : {}),
      ...(worker.priority !== undefined ? { priority: worker.priority } : {}),
      ...(worker.updateStrategy ? { updateStrategy: worker.updateStrategy } : {}),
    };
    const kubelet = worker.kubernetes?.kubelet ?? shoot.spec.kubernetes.kubelet;
    if (kubelet) pool.kubeletConfig = kubelet as never;
    return pool;
  });
  return {
    apiVersion,
    kind: 'Worker',
    metadata: meta(values, shootNameOf(shoot), options),
    spec: {
      type: shoot.spec.provider.type,
      region: shoot.spec.region,
      secretRef: secretRef(values),
      pools,
      ...(options.infrastructureProviderStatus
        ? { infrastructureProviderStatus: options.infrastructureProviderStatus }
        : {}),
      ...(options.sshPublicKey ? { sshPublicKey: options.sshPublicKey } : {}),
    },
  };
}

/** Options of {@link renderDNSRecord}. */
export interface DNSRecordRenderOptions extends ExtensionRenderOptions {
  /** The DNS provider type (the seed's internal provider, or the shoot's primary provider for external). */
  readonly providerType: string;
  /** The address of the kube-apiserver LoadBalancer (an IP gives an A record, a host name a CNAME). */
  readonly address: string;
  /** TTL in seconds (gardenlet's `controllers.shoot.dnsEntryTTLSeconds`, 120 by default). */
  readonly ttl?: number;
  readonly zone?: string;
}

/**
 * The internal or external DNSRecord of the API server (`<shoot>-internal` / `<shoot>-external`) for
 * `api.<domain>`, or undefined when the shoot has no such domain.
 */
export function renderDNSRecord(
  values: ShootValues,
  purpose: 'internal' | 'external',
  options: DNSRecordRenderOptions,
): extensionsv1alpha1.DNSRecord | undefined {
  const domain = apiServerDomains(values)[purpose];
  if (!domain) return undefined;
  const isIP = /^[0-9.]+$/.test(options.address) || options.address.includes(':');
  return {
    apiVersion,
    kind: 'DNSRecord',
    metadata: meta(values, `${shootNameOf(values.shoot)}-${purpose}`, options),
    spec: {
      type: options.providerType,
      name: domain,
      recordType: isIP ? (options.address.includes(':') ? 'AAAA' : 'A') : 'CNAME',
      values: [options.address],
      ttl: options.ttl ?? 120,
      secretRef: { name: DNSRecordSecretNames[purpose], namespace: values.namespace },
      ...(options.zone ? { zone: options.zone } : {}),
    },
  };
}

/**
 * The core BackupEntry the flow writes into the shoot's project namespace in the garden (`<technical ID>--<shoot
 * UID>`, bucket = the seed's BackupBucket, named by the seed's UID), controlled by the Shoot (the garden's garbage
 * collector deletes it after the Shoot, which starts its grace period), with the shoot's purpose and — given `now` —
 * the reconcile request (`gardener.cloud/operation: reconcile` and the timestamp), as Gardener's
 * `component/garden/backupentry` writes it; the gardenlet's BackupEntry controller turns it into the extension
 * BackupEntry. Undefined when the seed has no backup.
 */
export function renderBackupEntry(
  values: ShootValues,
  options: { bucketName: string; now?: string },
): BackupEntry | undefined {
  if (!values.seed.spec.backup) return undefined;
  const uid = values.shoot.status?.uid || values.shoot.metadata?.uid || '';
  const purpose = values.shoot.spec.purpose;
  const annotations: Record<string, string> = {
    ...(options.now
      ? { [Annotations.GardenerOperation]: Operations.OperationReconcile, [Annotations.GardenerTimestamp]: options.now }
      : {}),
    ...(purpose ? { [Labels.ShootPurpose]: purpose } : {}),
  };
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupEntry',
    metadata: {
      name: `${values.namespace}--${uid}`,
      namespace: values.shoot.metadata?.namespace,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [
        {
          apiVersion: 'core.gardener.cloud/v1beta1',
          kind: 'Shoot',
          name: shootNameOf(values.shoot),
          // The owner is the Shoot object itself: its metadata.uid (the garbage collector compares it).
          uid: values.shoot.metadata?.uid ?? uid,
          blockOwnerDeletion: false,
          controller: true,
        },
      ],
    },
    spec: { bucketName: options.bucketName, seedName: values.seed.metadata?.name },
  } as BackupEntry;
}

/** True when the shoot needs the worker-related extension resources (not workerless). */
export function needsWorkerResources(shoot: Shoot): boolean {
  return !isWorkerless(shoot);
}

/** Where containerd finds the binaries a ContainerRuntime extension installs (Gardener's constant). */
export const ContainerDRuntimeContainersBinFolder = '/var/bin/containerruntimes';

/** The name of a pool's ContainerRuntime resource: `<type>-<pool>`. */
export function containerRuntimeName(type: string, pool: string): string {
  return `${type}-${pool}`;
}

/**
 * The ContainerRuntime resources: one per `cri.containerRuntimes` entry of each pool, named `<type>-<pool>`, with
 * the entry's providerConfig, the pool's name and node selector, and containerd's binary folder.
 */
export function renderContainerRuntimes(
  values: ShootValues,
  options: ExtensionRenderOptions,
): extensionsv1alpha1.ContainerRuntime[] {
  return (values.shoot.spec.provider.workers ?? []).flatMap((pool) =>
    (pool.cri?.containerRuntimes ?? []).map((runtime) => ({
      apiVersion,
      kind: 'ContainerRuntime' as const,
      metadata: meta(values, containerRuntimeName(runtime.type, pool.name), options),
      spec: {
        type: runtime.type,
        binaryPath: ContainerDRuntimeContainersBinFolder,
        workerPool: {
          name: pool.name,
          selector: {
            matchLabels: { 'worker.gardener.cloud/pool': pool.name, 'worker.garden.sapcloud.io/group': pool.name },
          },
        },
        ...(runtime.providerConfig ? { providerConfig: runtime.providerConfig as Record<string, unknown> } : {}),
      },
    })),
  );
}
