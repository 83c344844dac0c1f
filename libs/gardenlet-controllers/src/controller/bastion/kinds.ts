// The kinds of the Bastion controller: the core Bastion (operations.gardener.cloud/v1alpha1) in the project namespace
// of the garden, the extension Bastion (extensions.gardener.cloud/v1alpha1) in the shoot's control plane namespace
// of the seed, and the seed's Cluster resource, through which an extension Bastion finds its project namespace.
import { extensionsv1alpha1, operationsv1alpha1, type Bastion } from '@gardener-ts/api';
import { kind, kindFrom, type KubernetesObject } from '@gardener-ts/controller-runtime';

export { ShootKind, type Shoot } from '../../shoot/kinds.js';

/** A core Bastion (garden, namespaced in the project namespace). */
export type CoreBastion = Bastion;
/** The core Bastion kind for clients and caches. */
export const BastionKind = kindFrom<CoreBastion>(operationsv1alpha1.BastionKind);

/** An extension Bastion (seed, namespaced in the control plane namespace), as the gardenlet writes and reads it. */
export interface ExtensionBastion extends KubernetesObject {
  spec: extensionsv1alpha1.BastionSpec;
  status?: extensionsv1alpha1.BastionStatus;
}
/** The extension Bastion kind for clients and caches. */
export const ExtensionBastionKind = kind<ExtensionBastion>(
  extensionsv1alpha1.BastionKind.apiVersion,
  extensionsv1alpha1.BastionKind.kind,
);

/** The extensions Cluster resource (seed, cluster-scoped, named like the control plane namespace). */
export type Cluster = extensionsv1alpha1.Cluster & KubernetesObject;
/** The Cluster kind for the seed's cache. */
export const ClusterKind = kind<Cluster>(
  extensionsv1alpha1.ClusterKind.apiVersion,
  extensionsv1alpha1.ClusterKind.kind,
);
