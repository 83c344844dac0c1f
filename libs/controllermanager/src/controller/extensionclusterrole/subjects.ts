// The decisions of Gardener's extension ClusterRole controller
// (pkg/controllermanager/controller/controllerregistration/extensionclusterrole) as pure functions: which extension
// ServiceAccounts a labelled ClusterRole selects and the ClusterRoleBinding that binds them to it.
import type { GenericObject, KubernetesObject } from '@gardener-ts/controller-runtime';
import { labelSelectorMatcher, type LabelMatcher, type LabelSelector } from '@gardener-ts/controller-runtime';

/** The label that marks a ClusterRole of the garden as custom permissions for extensions (value `true`). */
export const LabelCustomExtensionsPermissions = 'authorization.gardener.cloud/custom-extensions-permissions';
/** The annotation (Gardener's constant calls it a label) holding the JSON label selector of the ServiceAccounts. */
export const AnnotationExtensionsServiceAccountSelector =
  'authorization.gardener.cloud/extensions-serviceaccount-selector';
/** Extensions' ServiceAccounts in the garden live in the seed namespaces `seed-<name>`. */
export const SeedNamespacePrefix = 'seed-';

/** Whether the ClusterRole is one this controller binds (the label is `true`). */
export const isExtensionClusterRole = (clusterRole: KubernetesObject): boolean =>
  clusterRole.metadata?.labels?.[LabelCustomExtensionsPermissions] === 'true';

/**
 * The ServiceAccount selector of a ClusterRole, from its annotation (Gardener's
 * `clusterRoleServiceAccountLabelSelectorToSelector`); throws Gardener's messages when it is missing, no JSON or not
 * a valid selector.
 */
export function serviceAccountSelector(annotations: Record<string, string> | undefined): LabelMatcher {
  const json = annotations?.[AnnotationExtensionsServiceAccountSelector];
  if (json === undefined) throw new Error('no service account selector annotations present');
  let selector: unknown;
  try {
    selector = JSON.parse(json);
  } catch (err) {
    throw new Error(`failed unmarshalling extensions service account selector ${json}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  // Go leaves the selector empty for `null`; anything but an object does not unmarshal into a LabelSelector.
  if (selector === null) selector = {};
  if (typeof selector !== 'object' || Array.isArray(selector)) {
    throw new Error(`failed unmarshalling extensions service account selector ${json}: not a JSON object`);
  }
  try {
    return labelSelectorMatcher(selector as LabelSelector);
  } catch (err) {
    throw new Error(`failed parsing label selector ${json}: ${(err as Error).message}`, { cause: err });
  }
}

/** A subject of a ClusterRoleBinding. */
export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

/**
 * The ServiceAccounts `selector` selects in seed namespaces, as binding subjects ordered by namespace, then name
 * (Gardener's stable order).
 */
export function bindingSubjects(selector: LabelMatcher, serviceAccounts: readonly KubernetesObject[]): Subject[] {
  return serviceAccounts
    .filter((sa) => (sa.metadata?.namespace ?? '').startsWith(SeedNamespacePrefix) && selector(sa.metadata?.labels))
    .map((sa) => ({ kind: 'ServiceAccount', name: sa.metadata!.name!, namespace: sa.metadata!.namespace! }))
    .sort((a, b) =>
      a.namespace !== b.namespace
        ? a.namespace < b.namespace
          ? -1
          : 1
        : a.name < b.name
          ? -1
          : a.name > b.name
            ? 1
            : 0,
    );
}

/** The parts of the ClusterRoleBinding (named as the ClusterRole) the controller owns. */
export interface BindingContent {
  metadata: { ownerReferences: NonNullable<KubernetesObject['metadata']>['ownerReferences'] };
  roleRef: { apiGroup: string; kind: string; name: string };
  subjects?: Subject[];
}

/**
 * What the ClusterRoleBinding of `clusterRole` holds: the ClusterRole as its only, controlling owner (not blocking
 * the owner's deletion), the ClusterRole as role and the subjects (none when empty).
 */
export function bindingContent(clusterRole: KubernetesObject, subjects: readonly Subject[]): BindingContent {
  const name = clusterRole.metadata!.name!;
  return {
    metadata: {
      ownerReferences: [
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          name,
          uid: clusterRole.metadata!.uid!,
          controller: true,
          blockOwnerDeletion: false,
        },
      ],
    },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    ...(subjects.length > 0 ? { subjects: [...subjects] } : {}),
  };
}

/** The ClusterRoleBinding as the API holds it, with the fields the controller compares. */
export type ClusterRoleBinding = GenericObject & Partial<Omit<BindingContent, 'metadata'>>;
