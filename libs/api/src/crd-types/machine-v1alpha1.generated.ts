// Generated from Gardener's CRDs for machine.sapcloud.io (crds/gardener) by `npm run generate -w @gardener-ts/api`. Do not edit.
import type { ObjectMeta } from '../schema/meta.js';
import { fieldsOf } from './fields.js';

export interface MachineSpec {
  class?: {
    apiGroup?: string;
    kind?: string;
    name?: string;
  };
  creationTimeout?: string;
  disableHealthTimeout?: boolean;
  drainTimeout?: string;
  healthTimeout?: string;
  inPlaceUpdateTimeout?: string;
  machinePreserveTimeout?: string;
  maxEvictRetries?: number;
  nodeConditions?: string;
  nodeTemplate?: {
    metadata?: Record<string, unknown>;
    spec?: {
      configSource?: {
        configMap?: {
          kubeletConfigKey: string;
          name: string;
          namespace: string;
          resourceVersion?: string;
          uid?: string;
        };
      };
      externalID?: string;
      podCIDR?: string;
      podCIDRs?: Array<string>;
      providerID?: string;
      taints?: Array<{
        effect: string;
        key: string;
        timeAdded?: string;
        value?: string;
      }>;
      unschedulable?: boolean;
    };
  };
  providerID?: string;
}

export interface MachineStatus {
  addresses?: Array<{
    address: string;
    type: string;
  }>;
  conditions?: Array<{
    lastHeartbeatTime?: string;
    lastTransitionTime?: string;
    message?: string;
    reason?: string;
    status: string;
    type: string;
  }>;
  currentStatus?: {
    lastUpdateTime?: string;
    phase?: string;
    preserveExpiryTime?: string;
    timeoutActive?: boolean;
  };
  lastKnownState?: string;
  lastOperation?: {
    description?: string;
    errorCode?: string;
    lastUpdateTime?: string;
    state?: string;
    type?: string;
  };
}

/** Machine (machine.sapcloud.io/v1alpha1). */
export interface Machine {
  apiVersion?: 'machine.sapcloud.io/v1alpha1';
  kind?: 'Machine';
  metadata?: ObjectMeta;
  spec?: MachineSpec;
  status?: MachineStatus;
}

export const MachineFields = {
  spec: fieldsOf<MachineSpec>()([
    'class',
    'creationTimeout',
    'disableHealthTimeout',
    'drainTimeout',
    'healthTimeout',
    'inPlaceUpdateTimeout',
    'machinePreserveTimeout',
    'maxEvictRetries',
    'nodeConditions',
    'nodeTemplate',
    'providerID',
  ]),
  status: fieldsOf<MachineStatus>()(['addresses', 'conditions', 'currentStatus', 'lastKnownState', 'lastOperation']),
};

export const MachineKind = {
  apiVersion: 'machine.sapcloud.io/v1alpha1',
  kind: 'Machine',
  plural: 'machines',
  namespaced: true,
} as const;

/** MachineClass (machine.sapcloud.io/v1alpha1). */
export interface MachineClass {
  apiVersion?: 'machine.sapcloud.io/v1alpha1';
  kind?: 'MachineClass';
  metadata?: ObjectMeta;
  credentialsSecretRef?: {
    name?: string;
    namespace?: string;
  };
  nodeTemplate?: {
    architecture?: string;
    capacity: Record<string, number | string>;
    instanceType: string;
    region: string;
    virtualCapacity?: Record<string, number | string>;
    zone: string;
  };
  provider?: string;
  providerSpec: Record<string, unknown>;
  secretRef?: {
    name?: string;
    namespace?: string;
  };
}

export const MachineClassFields = {};

export const MachineClassKind = {
  apiVersion: 'machine.sapcloud.io/v1alpha1',
  kind: 'MachineClass',
  plural: 'machineclasses',
  namespaced: true,
} as const;

export interface MachineDeploymentSpec {
  autoPreserveFailedMachineMax?: number;
  minReadySeconds?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
  replicas?: number;
  revisionHistoryLimit?: number;
  rollbackTo?: {
    revision?: number;
  };
  selector?: {
    matchExpressions?: Array<{
      key: string;
      operator: string;
      values?: Array<string>;
    }>;
    matchLabels?: Record<string, string>;
  };
  strategy?: {
    inPlaceUpdate?: {
      maxSurge?: number | string;
      maxUnavailable?: number | string;
      orchestrationType?: string;
    };
    rollingUpdate?: {
      maxSurge?: number | string;
      maxUnavailable?: number | string;
    };
    type?: string;
  };
  template: {
    metadata?: Record<string, unknown>;
    spec?: {
      class?: {
        apiGroup?: string;
        kind?: string;
        name?: string;
      };
      creationTimeout?: string;
      disableHealthTimeout?: boolean;
      drainTimeout?: string;
      healthTimeout?: string;
      inPlaceUpdateTimeout?: string;
      machinePreserveTimeout?: string;
      maxEvictRetries?: number;
      nodeConditions?: string;
      nodeTemplate?: {
        metadata?: Record<string, unknown>;
        spec?: {
          configSource?: {
            configMap?: {
              kubeletConfigKey: string;
              name: string;
              namespace: string;
              resourceVersion?: string;
              uid?: string;
            };
          };
          externalID?: string;
          podCIDR?: string;
          podCIDRs?: Array<string>;
          providerID?: string;
          taints?: Array<{
            effect: string;
            key: string;
            timeAdded?: string;
            value?: string;
          }>;
          unschedulable?: boolean;
        };
      };
      providerID?: string;
    };
  };
}

export interface MachineDeploymentStatus {
  availableReplicas?: number;
  collisionCount?: number;
  conditions?: Array<{
    lastTransitionTime?: string;
    lastUpdateTime?: string;
    message?: string;
    reason?: string;
    status: string;
    type: string;
  }>;
  failedMachines?: Array<{
    lastOperation?: {
      description?: string;
      errorCode?: string;
      lastUpdateTime?: string;
      state?: string;
      type?: string;
    };
    name?: string;
    ownerRef?: string;
    providerID?: string;
  }>;
  observedGeneration?: number;
  preservedFailedReplicas?: number;
  readyReplicas?: number;
  replicas?: number;
  unavailableReplicas?: number;
  updatedReplicas?: number;
}

/** MachineDeployment (machine.sapcloud.io/v1alpha1). */
export interface MachineDeployment {
  apiVersion?: 'machine.sapcloud.io/v1alpha1';
  kind?: 'MachineDeployment';
  metadata?: ObjectMeta;
  spec?: MachineDeploymentSpec;
  status?: MachineDeploymentStatus;
}

export const MachineDeploymentFields = {
  spec: fieldsOf<MachineDeploymentSpec>()([
    'autoPreserveFailedMachineMax',
    'minReadySeconds',
    'paused',
    'progressDeadlineSeconds',
    'replicas',
    'revisionHistoryLimit',
    'rollbackTo',
    'selector',
    'strategy',
    'template',
  ]),
  status: fieldsOf<MachineDeploymentStatus>()([
    'availableReplicas',
    'collisionCount',
    'conditions',
    'failedMachines',
    'observedGeneration',
    'preservedFailedReplicas',
    'readyReplicas',
    'replicas',
    'unavailableReplicas',
    'updatedReplicas',
  ]),
};

export const MachineDeploymentKind = {
  apiVersion: 'machine.sapcloud.io/v1alpha1',
  kind: 'MachineDeployment',
  plural: 'machinedeployments',
  namespaced: true,
} as const;

export interface MachineSetSpec {
  autoPreserveFailedMachineMax?: number;
  machineClass?: {
    apiGroup?: string;
    kind?: string;
    name?: string;
  };
  minReadySeconds?: number;
  replicas?: number;
  selector?: {
    matchExpressions?: Array<{
      key: string;
      operator: string;
      values?: Array<string>;
    }>;
    matchLabels?: Record<string, string>;
  };
  template?: {
    metadata?: Record<string, unknown>;
    spec?: {
      class?: {
        apiGroup?: string;
        kind?: string;
        name?: string;
      };
      creationTimeout?: string;
      disableHealthTimeout?: boolean;
      drainTimeout?: string;
      healthTimeout?: string;
      inPlaceUpdateTimeout?: string;
      machinePreserveTimeout?: string;
      maxEvictRetries?: number;
      nodeConditions?: string;
      nodeTemplate?: {
        metadata?: Record<string, unknown>;
        spec?: {
          configSource?: {
            configMap?: {
              kubeletConfigKey: string;
              name: string;
              namespace: string;
              resourceVersion?: string;
              uid?: string;
            };
          };
          externalID?: string;
          podCIDR?: string;
          podCIDRs?: Array<string>;
          providerID?: string;
          taints?: Array<{
            effect: string;
            key: string;
            timeAdded?: string;
            value?: string;
          }>;
          unschedulable?: boolean;
        };
      };
      providerID?: string;
    };
  };
}

export interface MachineSetStatus {
  autoPreserveFailedMachineCount?: number;
  availableReplicas?: number;
  failedMachines?: Array<{
    lastOperation?: {
      description?: string;
      errorCode?: string;
      lastUpdateTime?: string;
      state?: string;
      type?: string;
    };
    name?: string;
    ownerRef?: string;
    providerID?: string;
  }>;
  fullyLabeledReplicas?: number;
  lastOperation?: {
    description?: string;
    errorCode?: string;
    lastUpdateTime?: string;
    state?: string;
    type?: string;
  };
  machineSetCondition?: Array<{
    lastTransitionTime?: string;
    message?: string;
    reason?: string;
    status: string;
    type: string;
  }>;
  observedGeneration?: number;
  preservedFailedReplicas?: number;
  readyReplicas?: number;
  replicas?: number;
}

/** MachineSet (machine.sapcloud.io/v1alpha1). */
export interface MachineSet {
  apiVersion?: 'machine.sapcloud.io/v1alpha1';
  kind?: 'MachineSet';
  metadata?: ObjectMeta;
  spec?: MachineSetSpec;
  status?: MachineSetStatus;
}

export const MachineSetFields = {
  spec: fieldsOf<MachineSetSpec>()([
    'autoPreserveFailedMachineMax',
    'machineClass',
    'minReadySeconds',
    'replicas',
    'selector',
    'template',
  ]),
  status: fieldsOf<MachineSetStatus>()([
    'autoPreserveFailedMachineCount',
    'availableReplicas',
    'failedMachines',
    'fullyLabeledReplicas',
    'lastOperation',
    'machineSetCondition',
    'observedGeneration',
    'preservedFailedReplicas',
    'readyReplicas',
    'replicas',
  ]),
};

export const MachineSetKind = {
  apiVersion: 'machine.sapcloud.io/v1alpha1',
  kind: 'MachineSet',
  plural: 'machinesets',
  namespaced: true,
} as const;
