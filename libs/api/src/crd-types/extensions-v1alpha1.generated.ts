// Generated from Gardener's CRDs for extensions.gardener.cloud (crds/gardener) by `npm run generate -w @gardener-ts/api`. Do not edit.
import type { ObjectMeta } from '../schema/meta.js';
import { fieldsOf } from './fields.js';

export interface BackupBucketSpec {
  class?: string;
  providerConfig?: Record<string, unknown>;
  region: string;
  secretRef: {
    name?: string;
    namespace?: string;
  };
  type: string;
}

export interface BackupBucketStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  generatedSecretRef?: {
    name?: string;
    namespace?: string;
  };
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** BackupBucket (extensions.gardener.cloud/v1alpha1). */
export interface BackupBucket {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'BackupBucket';
  metadata?: ObjectMeta;
  spec: BackupBucketSpec;
  status?: BackupBucketStatus;
}

export const BackupBucketFields = {
  spec: fieldsOf<BackupBucketSpec>()(['class', 'providerConfig', 'region', 'secretRef', 'type']),
  status: fieldsOf<BackupBucketStatus>()([
    'conditions',
    'generatedSecretRef',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const BackupBucketKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'BackupBucket',
  plural: 'backupbuckets',
  namespaced: false,
} as const;

export interface BackupEntrySpec {
  backupBucketProviderStatus?: Record<string, unknown>;
  bucketName: string;
  class?: string;
  providerConfig?: Record<string, unknown>;
  region: string;
  secretRef: {
    name?: string;
    namespace?: string;
  };
  type: string;
}

export interface BackupEntryStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** BackupEntry (extensions.gardener.cloud/v1alpha1). */
export interface BackupEntry {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'BackupEntry';
  metadata?: ObjectMeta;
  spec: BackupEntrySpec;
  status?: BackupEntryStatus;
}

export const BackupEntryFields = {
  spec: fieldsOf<BackupEntrySpec>()([
    'backupBucketProviderStatus',
    'bucketName',
    'class',
    'providerConfig',
    'region',
    'secretRef',
    'type',
  ]),
  status: fieldsOf<BackupEntryStatus>()([
    'conditions',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const BackupEntryKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'BackupEntry',
  plural: 'backupentries',
  namespaced: false,
} as const;

export interface BastionSpec {
  class?: string;
  ingress: Array<{
    ipBlock: {
      cidr: string;
      except?: Array<string>;
    };
  }>;
  providerConfig?: Record<string, unknown>;
  type: string;
  userData: string;
}

export interface BastionStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  ingress?: {
    hostname?: string;
    ip?: string;
    ipMode?: string;
    ports?: Array<{
      error: string;
      port: number;
      protocol: string;
    }>;
  };
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** Bastion (extensions.gardener.cloud/v1alpha1). */
export interface Bastion {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'Bastion';
  metadata?: ObjectMeta;
  spec: BastionSpec;
  status?: BastionStatus;
}

export const BastionFields = {
  spec: fieldsOf<BastionSpec>()(['class', 'ingress', 'providerConfig', 'type', 'userData']),
  status: fieldsOf<BastionStatus>()([
    'conditions',
    'ingress',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const BastionKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Bastion',
  plural: 'bastions',
  namespaced: true,
} as const;

export interface ClusterSpec {
  cloudProfile: Record<string, unknown>;
  seed?: Record<string, unknown>;
  shoot: Record<string, unknown>;
}

/** Cluster (extensions.gardener.cloud/v1alpha1). */
export interface Cluster {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'Cluster';
  metadata?: ObjectMeta;
  spec: ClusterSpec;
}

export const ClusterFields = {
  spec: fieldsOf<ClusterSpec>()(['cloudProfile', 'seed', 'shoot']),
};

export const ClusterKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Cluster',
  plural: 'clusters',
  namespaced: false,
} as const;

export interface ContainerRuntimeSpec {
  binaryPath: string;
  class?: string;
  providerConfig?: Record<string, unknown>;
  type: string;
  workerPool: {
    name: string;
    selector: {
      matchExpressions?: Array<{
        key: string;
        operator: string;
        values?: Array<string>;
      }>;
      matchLabels?: Record<string, string>;
    };
  };
}

export interface ContainerRuntimeStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** ContainerRuntime (extensions.gardener.cloud/v1alpha1). */
export interface ContainerRuntime {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'ContainerRuntime';
  metadata?: ObjectMeta;
  spec: ContainerRuntimeSpec;
  status?: ContainerRuntimeStatus;
}

export const ContainerRuntimeFields = {
  spec: fieldsOf<ContainerRuntimeSpec>()(['binaryPath', 'class', 'providerConfig', 'type', 'workerPool']),
  status: fieldsOf<ContainerRuntimeStatus>()([
    'conditions',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const ContainerRuntimeKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'ContainerRuntime',
  plural: 'containerruntimes',
  namespaced: true,
} as const;

export interface ControlPlaneSpec {
  class?: string;
  infrastructureProviderStatus?: Record<string, unknown>;
  providerConfig?: Record<string, unknown>;
  region: string;
  secretRef: {
    name?: string;
    namespace?: string;
  };
  type: string;
}

export interface ControlPlaneStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** ControlPlane (extensions.gardener.cloud/v1alpha1). */
export interface ControlPlane {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'ControlPlane';
  metadata?: ObjectMeta;
  spec: ControlPlaneSpec;
  status?: ControlPlaneStatus;
}

export const ControlPlaneFields = {
  spec: fieldsOf<ControlPlaneSpec>()([
    'class',
    'infrastructureProviderStatus',
    'providerConfig',
    'region',
    'secretRef',
    'type',
  ]),
  status: fieldsOf<ControlPlaneStatus>()([
    'conditions',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const ControlPlaneKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'ControlPlane',
  plural: 'controlplanes',
  namespaced: true,
} as const;

export interface DNSRecordSpec {
  class?: string;
  name: string;
  providerConfig?: Record<string, unknown>;
  recordType: string;
  region?: string;
  secretRef: {
    name?: string;
    namespace?: string;
  };
  ttl?: number;
  type: string;
  values: Array<string>;
  zone?: string;
}

export interface DNSRecordStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
  zone?: string;
}

/** DNSRecord (extensions.gardener.cloud/v1alpha1). */
export interface DNSRecord {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'DNSRecord';
  metadata?: ObjectMeta;
  spec: DNSRecordSpec;
  status?: DNSRecordStatus;
}

export const DNSRecordFields = {
  spec: fieldsOf<DNSRecordSpec>()([
    'class',
    'name',
    'providerConfig',
    'recordType',
    'region',
    'secretRef',
    'ttl',
    'type',
    'values',
    'zone',
  ]),
  status: fieldsOf<DNSRecordStatus>()([
    'conditions',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
    'zone',
  ]),
};

export const DNSRecordKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'DNSRecord',
  plural: 'dnsrecords',
  namespaced: true,
} as const;

export interface ExtensionSpec {
  class?: string;
  providerConfig?: Record<string, unknown>;
  type: string;
}

export interface ExtensionStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** Extension (extensions.gardener.cloud/v1alpha1). */
export interface Extension {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'Extension';
  metadata?: ObjectMeta;
  spec: ExtensionSpec;
  status?: ExtensionStatus;
}

export const ExtensionFields = {
  spec: fieldsOf<ExtensionSpec>()(['class', 'providerConfig', 'type']),
  status: fieldsOf<ExtensionStatus>()([
    'conditions',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const ExtensionKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Extension',
  plural: 'extensions',
  namespaced: true,
} as const;

export interface InfrastructureSpec {
  class?: string;
  providerConfig?: Record<string, unknown>;
  region: string;
  secretRef: {
    name?: string;
    namespace?: string;
  };
  sshPublicKey?: string;
  type: string;
}

export interface InfrastructureStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  egressCIDRs?: Array<string>;
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  networking?: {
    nodes?: Array<string>;
    pods?: Array<string>;
    services?: Array<string>;
  };
  nodesCIDR?: string;
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** Infrastructure (extensions.gardener.cloud/v1alpha1). */
export interface Infrastructure {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'Infrastructure';
  metadata?: ObjectMeta;
  spec: InfrastructureSpec;
  status?: InfrastructureStatus;
}

export const InfrastructureFields = {
  spec: fieldsOf<InfrastructureSpec>()(['class', 'providerConfig', 'region', 'secretRef', 'sshPublicKey', 'type']),
  status: fieldsOf<InfrastructureStatus>()([
    'conditions',
    'egressCIDRs',
    'lastError',
    'lastOperation',
    'networking',
    'nodesCIDR',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const InfrastructureKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Infrastructure',
  plural: 'infrastructures',
  namespaced: true,
} as const;

export interface NetworkSpec {
  class?: string;
  ipFamilies?: Array<string>;
  podCIDR: string;
  providerConfig?: Record<string, unknown>;
  serviceCIDR: string;
  type: string;
}

export interface NetworkStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  ipFamilies?: Array<string>;
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** Network (extensions.gardener.cloud/v1alpha1). */
export interface Network {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'Network';
  metadata?: ObjectMeta;
  spec: NetworkSpec;
  status?: NetworkStatus;
}

export const NetworkFields = {
  spec: fieldsOf<NetworkSpec>()(['class', 'ipFamilies', 'podCIDR', 'providerConfig', 'serviceCIDR', 'type']),
  status: fieldsOf<NetworkStatus>()([
    'conditions',
    'ipFamilies',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const NetworkKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Network',
  plural: 'networks',
  namespaced: true,
} as const;

export interface OperatingSystemConfigSpec {
  class?: string;
  criConfig?: {
    cgroupDriver?: string;
    containerd?: {
      plugins?: Array<{
        op?: string;
        path: Array<string>;
        values?: unknown;
      }>;
      registries?: Array<{
        hosts?: Array<{
          caCerts?: Array<string>;
          capabilities?: Array<string>;
          overridePath?: boolean;
          url: string;
        }>;
        readinessProbe?: boolean;
        server?: string;
        upstream: string;
      }>;
      sandboxImage: string;
    };
    name: 'containerd';
  };
  files?: Array<{
    content: {
      imageRef?: {
        filePathInImage: string;
        image: string;
      };
      inline?: {
        data: string;
        encoding: string;
      };
      secretRef?: {
        dataKey: string;
        name: string;
      };
      transmitUnencoded?: boolean;
    };
    hostName?: string;
    path: string;
    permissions?: number;
  }>;
  inPlaceUpdates?: {
    credentialsRotation?: {
      certificateAuthorities?: {
        lastInitiationTime?: string;
      };
      serviceAccountKey?: {
        lastInitiationTime?: string;
      };
    };
    kubelet: string;
    operatingSystemVersion: string;
  };
  providerConfig?: Record<string, unknown>;
  purpose: string;
  type: string;
  units?: Array<{
    command?: string;
    content?: string;
    dropIns?: Array<{
      content: string;
      name: string;
    }>;
    enable?: boolean;
    filePaths?: Array<string>;
    name: string;
  }>;
}

export interface OperatingSystemConfigStatus {
  cloudConfig?: {
    secretRef: {
      name?: string;
      namespace?: string;
    };
  };
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  extensionFiles?: Array<{
    content: {
      imageRef?: {
        filePathInImage: string;
        image: string;
      };
      inline?: {
        data: string;
        encoding: string;
      };
      secretRef?: {
        dataKey: string;
        name: string;
      };
      transmitUnencoded?: boolean;
    };
    hostName?: string;
    path: string;
    permissions?: number;
  }>;
  extensionUnits?: Array<{
    command?: string;
    content?: string;
    dropIns?: Array<{
      content: string;
      name: string;
    }>;
    enable?: boolean;
    filePaths?: Array<string>;
    name: string;
  }>;
  inPlaceUpdates?: {
    osUpdate?: {
      args?: Array<string>;
      command: string;
    };
  };
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** OperatingSystemConfig (extensions.gardener.cloud/v1alpha1). */
export interface OperatingSystemConfig {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'OperatingSystemConfig';
  metadata?: ObjectMeta;
  spec: OperatingSystemConfigSpec;
  status?: OperatingSystemConfigStatus;
}

export const OperatingSystemConfigFields = {
  spec: fieldsOf<OperatingSystemConfigSpec>()([
    'class',
    'criConfig',
    'files',
    'inPlaceUpdates',
    'providerConfig',
    'purpose',
    'type',
    'units',
  ]),
  status: fieldsOf<OperatingSystemConfigStatus>()([
    'cloudConfig',
    'conditions',
    'extensionFiles',
    'extensionUnits',
    'inPlaceUpdates',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const OperatingSystemConfigKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'OperatingSystemConfig',
  plural: 'operatingsystemconfigs',
  namespaced: true,
} as const;

export interface SelfHostedShootExposureSpec {
  class?: string;
  credentialsRef?: {
    apiVersion?: string;
    fieldPath?: string;
    kind?: string;
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    uid?: string;
  };
  endpoints: Array<{
    addresses: Array<{
      address: string;
      type: string;
    }>;
    nodeName: string;
  }>;
  port: number;
  providerConfig?: Record<string, unknown>;
  type: string;
}

export interface SelfHostedShootExposureStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  ingress?: Array<{
    hostname?: string;
    ip?: string;
    ipMode?: string;
    ports?: Array<{
      error: string;
      port: number;
      protocol: string;
    }>;
  }>;
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** SelfHostedShootExposure (extensions.gardener.cloud/v1alpha1). */
export interface SelfHostedShootExposure {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'SelfHostedShootExposure';
  metadata?: ObjectMeta;
  spec: SelfHostedShootExposureSpec;
  status?: SelfHostedShootExposureStatus;
}

export const SelfHostedShootExposureFields = {
  spec: fieldsOf<SelfHostedShootExposureSpec>()([
    'class',
    'credentialsRef',
    'endpoints',
    'port',
    'providerConfig',
    'type',
  ]),
  status: fieldsOf<SelfHostedShootExposureStatus>()([
    'conditions',
    'ingress',
    'lastError',
    'lastOperation',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const SelfHostedShootExposureKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'SelfHostedShootExposure',
  plural: 'selfhostedshootexposures',
  namespaced: true,
} as const;

export interface WorkerSpec {
  class?: string;
  infrastructureProviderStatus?: Record<string, unknown>;
  pools: Array<{
    annotations?: Record<string, string>;
    architecture?: string;
    clusterAutoscaler?: {
      maxNodeProvisionTime?: string;
      scaleDownGpuUtilizationThreshold?: string;
      scaleDownUnneededTime?: string;
      scaleDownUnreadyTime?: string;
      scaleDownUtilizationThreshold?: string;
    };
    dataVolumes?: Array<{
      encrypted?: boolean;
      name: string;
      size: string;
      type?: string;
    }>;
    kubeletConfig?: {
      containerLogMaxFiles?: number;
      containerLogMaxSize?: number | string;
      cpuCFSQuota?: boolean;
      cpuManagerPolicy?: string;
      evictionHard?: {
        imageFSAvailable?: string;
        imageFSInodesFree?: string;
        memoryAvailable?: string;
        nodeFSAvailable?: string;
        nodeFSInodesFree?: string;
      };
      evictionMaxPodGracePeriod?: number;
      evictionMinimumReclaim?: {
        imageFSAvailable?: number | string;
        imageFSInodesFree?: number | string;
        memoryAvailable?: number | string;
        nodeFSAvailable?: number | string;
        nodeFSInodesFree?: number | string;
      };
      evictionPressureTransitionPeriod?: string;
      evictionSoft?: {
        imageFSAvailable?: string;
        imageFSInodesFree?: string;
        memoryAvailable?: string;
        nodeFSAvailable?: string;
        nodeFSInodesFree?: string;
      };
      evictionSoftGracePeriod?: {
        imageFSAvailable?: string;
        imageFSInodesFree?: string;
        memoryAvailable?: string;
        nodeFSAvailable?: string;
        nodeFSInodesFree?: string;
      };
      failSwapOn?: boolean;
      featureGates?: Record<string, boolean>;
      imageGCHighThresholdPercent?: number;
      imageGCLowThresholdPercent?: number;
      imageMaximumGCAge?: string;
      imageMinimumGCAge?: string;
      imagePullCredentialsVerificationPolicy?: string;
      kubeReserved?: {
        cpu?: number | string;
        ephemeralStorage?: number | string;
        memory?: number | string;
        pid?: number | string;
      };
      maxParallelImagePulls?: number;
      maxPods?: number;
      memorySwap?: {
        swapBehavior?: string;
      };
      podPidsLimit?: number;
      preloadedImagesVerificationAllowlist?: Array<string>;
      protectKernelDefaults?: boolean;
      registryBurst?: number;
      registryPullQPS?: number;
      seccompDefault?: boolean;
      serializeImagePulls?: boolean;
      singleProcessOOMKill?: boolean;
      streamingConnectionIdleTimeout?: string;
    };
    kubeletDataVolumeName?: string;
    kubernetesVersion?: string;
    labels?: Record<string, string>;
    machineControllerManager?: {
      autoPreserveFailedMachineMax?: number;
      disableHealthTimeout?: boolean;
      inPlaceUpdateTimeout?: string;
      machineCreationTimeout?: string;
      machineDrainTimeout?: string;
      machineHealthTimeout?: string;
      machinePreserveTimeout?: string;
      maxEvictRetries?: number;
      nodeConditions?: Array<string>;
    };
    machineImage?: {
      name: string;
      version: string;
    };
    machineType: string;
    maxSurge: number | string;
    maxUnavailable: number | string;
    maximum: number;
    minimum: number;
    name: string;
    nodeAgentSecretName?: string;
    nodeTemplate?: {
      capacity: Record<string, number | string>;
      virtualCapacity?: Record<string, number | string>;
    };
    priority?: number;
    providerConfig?: Record<string, unknown>;
    taints?: Array<{
      effect: string;
      key: string;
      timeAdded?: string;
      value?: string;
    }>;
    updateStrategy?: string;
    userDataSecretRef: {
      key: string;
      name?: string;
      optional?: boolean;
    };
    volume?: {
      encrypted?: boolean;
      name?: string;
      size: string;
      type?: string;
    };
    zones?: Array<string>;
  }>;
  providerConfig?: Record<string, unknown>;
  region: string;
  secretRef: {
    name?: string;
    namespace?: string;
  };
  sshPublicKey?: string;
  type: string;
}

export interface WorkerStatus {
  conditions?: Array<{
    codes?: Array<string>;
    lastTransitionTime: string;
    lastUpdateTime: string;
    message: string;
    reason: string;
    status: string;
    type: string;
  }>;
  inPlaceUpdates?: {
    workerPoolToHashMap?: Record<string, string>;
  };
  lastError?: {
    codes?: Array<string>;
    description: string;
    lastUpdateTime?: string;
    taskID?: string;
  };
  lastOperation?: {
    description: string;
    lastUpdateTime: string;
    progress: number;
    state: string;
    type: string;
  };
  machineDeployments?: Array<{
    autoPreserveFailedMachineMax?: number;
    maximum: number;
    minimum: number;
    name: string;
    priority?: number;
  }>;
  machineDeploymentsLastUpdateTime?: string;
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: Array<{
    name: string;
    resourceRef: {
      apiVersion?: string;
      kind: string;
      name: string;
    };
  }>;
  state?: Record<string, unknown>;
}

/** Worker (extensions.gardener.cloud/v1alpha1). */
export interface Worker {
  apiVersion?: 'extensions.gardener.cloud/v1alpha1';
  kind?: 'Worker';
  metadata?: ObjectMeta;
  spec: WorkerSpec;
  status?: WorkerStatus;
}

export const WorkerFields = {
  spec: fieldsOf<WorkerSpec>()([
    'class',
    'infrastructureProviderStatus',
    'pools',
    'providerConfig',
    'region',
    'secretRef',
    'sshPublicKey',
    'type',
  ]),
  status: fieldsOf<WorkerStatus>()([
    'conditions',
    'inPlaceUpdates',
    'lastError',
    'lastOperation',
    'machineDeployments',
    'machineDeploymentsLastUpdateTime',
    'observedGeneration',
    'providerStatus',
    'resources',
    'state',
  ]),
};

export const WorkerKind = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Worker',
  plural: 'workers',
  namespaced: true,
} as const;
