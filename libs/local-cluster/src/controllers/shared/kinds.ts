// The kinds the controller manager reads and writes, typed by @kubernetes/client-node's models as they are on the
// wire: our client returns plain JSON, so every timestamp stays an RFC 3339 string.
import type * as k8s from '@kubernetes/client-node';
import { kind } from '@gardener-ts/controller-runtime';

/** A client-node model as JSON: `Date` fields become strings. */
export type Wire<T> = T extends Date
  ? string
  : T extends (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

export type Pod = Wire<k8s.V1Pod>;
export type PodSpec = Wire<k8s.V1PodSpec>;
export type PodTemplateSpec = Wire<k8s.V1PodTemplateSpec>;
export type PodCondition = Wire<k8s.V1PodCondition>;
export type Node = Wire<k8s.V1Node>;
export type Taint = Wire<k8s.V1Taint>;
export type Toleration = Wire<k8s.V1Toleration>;
export type ReplicaSet = Wire<k8s.V1ReplicaSet>;
export type Deployment = Wire<k8s.V1Deployment>;
export type DeploymentCondition = Wire<k8s.V1DeploymentCondition>;
export type Service = Wire<k8s.V1Service>;
export type Endpoints = Wire<k8s.V1Endpoints>;
export type EndpointSlice = Wire<k8s.V1EndpointSlice>;
export type StatefulSet = Wire<k8s.V1StatefulSet>;
export type ControllerRevision = Wire<k8s.V1ControllerRevision>;
export type PersistentVolumeClaim = Wire<k8s.V1PersistentVolumeClaim>;
export type PersistentVolume = Wire<k8s.V1PersistentVolume>;
export type StorageClass = Wire<k8s.V1StorageClass>;
export type DaemonSet = Wire<k8s.V1DaemonSet>;
export type Job = Wire<k8s.V1Job>;
export type CronJob = Wire<k8s.V1CronJob>;
export type Lease = Wire<k8s.V1Lease>;
export type PodDisruptionBudget = Wire<k8s.V1PodDisruptionBudget>;
export type ReplicationController = Wire<k8s.V1ReplicationController>;
export type CoreEvent = Wire<k8s.CoreV1Event>;
export type LabelSelector = k8s.V1LabelSelector;

export const PodKind = kind<Pod>('v1', 'Pod');
export const NodeKind = kind<Node>('v1', 'Node');
export const ServiceKind = kind<Service>('v1', 'Service');
export const EndpointsKind = kind<Endpoints>('v1', 'Endpoints');
export const EventKind = kind<CoreEvent>('v1', 'Event');
export const PersistentVolumeClaimKind = kind<PersistentVolumeClaim>('v1', 'PersistentVolumeClaim');
export const PersistentVolumeKind = kind<PersistentVolume>('v1', 'PersistentVolume');
export const StorageClassKind = kind<StorageClass>('storage.k8s.io/v1', 'StorageClass');
export const EndpointSliceKind = kind<EndpointSlice>('discovery.k8s.io/v1', 'EndpointSlice');
export const ReplicaSetKind = kind<ReplicaSet>('apps/v1', 'ReplicaSet');
export const DeploymentKind = kind<Deployment>('apps/v1', 'Deployment');
export const StatefulSetKind = kind<StatefulSet>('apps/v1', 'StatefulSet');
export const DaemonSetKind = kind<DaemonSet>('apps/v1', 'DaemonSet');
export const ControllerRevisionKind = kind<ControllerRevision>('apps/v1', 'ControllerRevision');
export const JobKind = kind<Job>('batch/v1', 'Job');
export const CronJobKind = kind<CronJob>('batch/v1', 'CronJob');
export const LeaseKind = kind<Lease>('coordination.k8s.io/v1', 'Lease');
export const PodDisruptionBudgetKind = kind<PodDisruptionBudget>('policy/v1', 'PodDisruptionBudget');
export const ReplicationControllerKind = kind<ReplicationController>('v1', 'ReplicationController');
