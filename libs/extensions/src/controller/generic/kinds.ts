// The extension kinds of extensions.gardener.cloud/v1alpha1 and what differs between their generic controllers in
// Gardener: the finalizer name, the scope, where the object's Cluster is found, and whether a Cluster is required.
import type { extensionsv1alpha1 } from '@gardener-ts/api';
import { kind, type Kind, type KubernetesObject } from '@gardener-ts/controller-runtime';

/** What every extension object has: `spec.type`, optional `spec.class`, and the common status fields. */
export interface ExtensionObject extends KubernetesObject {
  spec: { type: string; class?: string; providerConfig?: Record<string, unknown>; [field: string]: unknown };
  status?: ExtensionStatus;
}

/** The status fields every extension kind shares (Gardener's `DefaultStatus`). */
export interface ExtensionStatus {
  conditions?: extensionsv1alpha1.ExtensionStatus['conditions'];
  lastError?: extensionsv1alpha1.ExtensionStatus['lastError'];
  lastOperation?: extensionsv1alpha1.ExtensionStatus['lastOperation'];
  observedGeneration?: number;
  providerStatus?: Record<string, unknown>;
  resources?: NamedResourceReference[];
  state?: Record<string, unknown>;
  [field: string]: unknown;
}

/** An entry of `status.resources` (and of a Shoot's `spec.resources`): a name and a reference to an object. */
export interface NamedResourceReference {
  name: string;
  resourceRef: { apiVersion?: string; kind: string; name: string };
}

/** One extension kind and the parts of its generic controller that differ from kind to kind. */
export interface ExtensionKindSpec<T extends ExtensionObject = ExtensionObject> {
  /** The kind name: `Infrastructure`, `Worker`, ... */
  readonly name: string;
  readonly kind: Kind<T>;
  /** Gardener's finalizer of the kind's controller (`extensions.gardener.cloud/<kind>`). */
  readonly finalizer: string;
  readonly namespaced: boolean;
  /** The name of the Cluster the object belongs to, if any (the namespace for namespaced kinds). */
  clusterName(obj: T): string | undefined;
  /** Whether reconciling (not deleting) an object without a Cluster is an error to retry. */
  readonly clusterRequired: boolean;
}

const GROUP_VERSION = 'extensions.gardener.cloud/v1alpha1';
const FINALIZER_PREFIX = 'extensions.gardener.cloud';

function spec<T extends ExtensionObject>(
  name: string,
  finalizerSuffix: string,
  options: Partial<Pick<ExtensionKindSpec<T>, 'namespaced' | 'clusterRequired' | 'clusterName'>> = {},
): ExtensionKindSpec<T> {
  const namespaced = options.namespaced ?? true;
  return Object.freeze({
    name,
    kind: kind<T>(GROUP_VERSION, name),
    finalizer: `${FINALIZER_PREFIX}/${finalizerSuffix}`,
    namespaced,
    clusterRequired: options.clusterRequired ?? namespaced,
    clusterName: options.clusterName ?? ((obj: T) => (namespaced ? obj.metadata?.namespace : undefined)),
  });
}

/**
 * The shoot's technical ID from a BackupEntry name: `[source-]<technicalID>--<shootUID>` (Gardener's
 * `ExtractShootDetailsFromBackupEntryName`); undefined for names not in that form.
 */
export function shootTechnicalIDOfBackupEntry(name: string): string | undefined {
  const plain = name.startsWith('source-') ? name.slice('source-'.length) : name;
  const cut = plain.lastIndexOf('--');
  return cut > 0 ? plain.slice(0, cut) : undefined;
}

/** The typed extension kinds, keyed by kind name. `Extension`'s finalizer suffix is the controller's choice (see `addExtensionController`). */
export const ExtensionKinds = Object.freeze({
  BackupBucket: spec<ExtensionObject>('BackupBucket', 'backupbucket', { namespaced: false, clusterRequired: false }),
  BackupEntry: spec<ExtensionObject>('BackupEntry', 'backupentry', {
    namespaced: false,
    clusterRequired: false,
    clusterName: (obj) => shootTechnicalIDOfBackupEntry(obj.metadata?.name ?? ''),
  }),
  Bastion: spec<ExtensionObject>('Bastion', 'bastion'),
  ContainerRuntime: spec<ExtensionObject>('ContainerRuntime', 'containerruntime'),
  ControlPlane: spec<ExtensionObject>('ControlPlane', 'controlplane'),
  // DNSRecords also exist outside shoot namespaces (the seed's own ingress records): no Cluster there.
  DNSRecord: spec<ExtensionObject>('DNSRecord', 'dnsrecord', { clusterRequired: false }),
  Extension: spec<ExtensionObject>('Extension', 'extension'),
  Infrastructure: spec<ExtensionObject>('Infrastructure', 'infrastructure'),
  Network: spec<ExtensionObject>('Network', 'network'),
  OperatingSystemConfig: spec<ExtensionObject>('OperatingSystemConfig', 'operatingsystemconfigs'),
  Worker: spec<ExtensionObject>('Worker', 'worker'),
});

/** The name of an extension kind in `ExtensionKinds`. */
export type ExtensionKindName = keyof typeof ExtensionKinds;

/** The spec of `name` with another finalizer (an Extension controller names its finalizer after its type). */
export function withFinalizer<T extends ExtensionObject>(
  kindSpec: ExtensionKindSpec<T>,
  finalizer: string,
): ExtensionKindSpec<T> {
  return Object.freeze({ ...kindSpec, finalizer });
}

/** Gardener's finalizer for a resource of an Extension controller: `extensions.gardener.cloud/<suffix>`. */
export function extensionFinalizer(suffix: string): string {
  return `${FINALIZER_PREFIX}/${suffix}`;
}
