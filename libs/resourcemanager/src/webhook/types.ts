// The parts of core/v1 and apps/v1 objects the webhooks touch (everything else passes through untouched).
import type { KubernetesObject } from '@gardener-ts/controller-runtime';

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}

export interface Container {
  name: string;
  env?: EnvVar[];
  volumeMounts?: VolumeMount[];
  [key: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface TopologySpreadConstraint {
  topologyKey: string;
  maxSkew: number;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
  matchLabelKeys?: string[];
  [key: string]: unknown;
}

export interface NodeSelectorTerm {
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
  matchFields?: unknown[];
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; [key: string]: unknown }[];
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  schedulerName?: string;
  securityContext?: { seccompProfile?: { type: string; localhostProfile?: string }; [key: string]: unknown };
  [key: string]: unknown;
}

export type Pod = KubernetesObject & { spec: PodSpec };

export interface PodTemplateSpec {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

export type Workload = KubernetesObject & {
  spec: { replicas?: number; selector?: LabelSelector; template: PodTemplateSpec; [key: string]: unknown };
};

export type HorizontalPodAutoscaler = KubernetesObject & {
  spec: {
    scaleTargetRef: { apiVersion?: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    [key: string]: unknown;
  };
};
