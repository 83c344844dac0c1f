// The shapes every object and list has on the wire. Objects are plain JSON: timestamps stay strings.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
}

export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface ObjectList<T extends KubernetesObject = KubernetesObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

/** Only the metadata of an object, as served for `as=PartialObjectMetadata` requests. */
export interface PartialObjectMetadata extends KubernetesObject {
  metadata: ObjectMeta;
}

/** A namespace and name; `namespace` is empty or absent for cluster-scoped objects. */
export interface ObjectKey {
  namespace?: string;
  name: string;
}
