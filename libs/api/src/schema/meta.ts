// Kubernetes meta and core types that Gardener's API embeds.
import { Type, type Static } from '@sinclair/typebox';
import { Bool, Int64, Opt, ResourceList, Str, StringEnum, StringMap, Time } from './primitives.js';

export const OwnerReference = Type.Object({
  apiVersion: Str(),
  kind: Str(),
  name: Str(),
  uid: Str(),
  controller: Opt(Bool()),
  blockOwnerDeletion: Opt(Bool()),
});

export const ObjectMeta = Type.Object(
  {
    name: Opt(Str()),
    generateName: Opt(Str()),
    namespace: Opt(Str()),
    uid: Opt(Str()),
    resourceVersion: Opt(Str()),
    generation: Opt(Int64()),
    creationTimestamp: Opt(Time()),
    deletionTimestamp: Opt(Time()),
    deletionGracePeriodSeconds: Opt(Int64()),
    labels: Opt(StringMap()),
    annotations: Opt(StringMap()),
    ownerReferences: Opt(Type.Array(OwnerReference)),
    finalizers: Opt(Type.Array(Str())),
    managedFields: Opt(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
  },
  { 'x-gardener-object-meta': true },
);
export type ObjectMeta = Static<typeof ObjectMeta>;

export const ObjectReference = Type.Object({
  apiVersion: Opt(Str()),
  kind: Opt(Str()),
  name: Opt(Str()),
  namespace: Opt(Str()),
  uid: Opt(Str()),
  resourceVersion: Opt(Str()),
  fieldPath: Opt(Str()),
});
export type ObjectReference = Static<typeof ObjectReference>;

export const LocalObjectReference = Type.Object({ name: Opt(Str()) });
export const SecretReference = Type.Object({ name: Opt(Str()), namespace: Opt(Str()) });
export type SecretReference = Static<typeof SecretReference>;

export const CrossVersionObjectReference = Type.Object({ kind: Str(), name: Str(), apiVersion: Opt(Str()) });

export const LabelSelector = Type.Object({
  matchLabels: Opt(StringMap()),
  matchExpressions: Opt(
    Type.Array(
      Type.Object({
        key: Str(),
        operator: StringEnum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
        values: Opt(Type.Array(Str())),
      }),
    ),
  ),
});
export type LabelSelector = Static<typeof LabelSelector>;

export const TaintEffect = StringEnum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

export const Taint = Type.Object({ key: Str(), value: Opt(Str()), effect: TaintEffect, timeAdded: Opt(Time()) });

export const Toleration = Type.Object({
  key: Opt(Str()),
  operator: Opt(StringEnum(['Exists', 'Equal'])),
  value: Opt(Str()),
  effect: Opt(Str()),
  tolerationSeconds: Opt(Int64()),
});

export const ServiceExternalTrafficPolicy = StringEnum(['Cluster', 'Local']);

export const ResourceRequirements = Type.Object({ limits: Opt(ResourceList()), requests: Opt(ResourceList()) });
