// The pure core of Gardener's seed secrets reconciler (pkg/controllermanager/controller/seed/secrets): every Seed gets
// the namespace `seed-<name>` in the garden (labelled `gardener.cloud/role=seed`, controlled by the Seed), and the
// garden Secrets of `garden` with a `gardener.cloud/role` label — except the control plane roles `kubeconfig`,
// `ssh-keypair` and `monitoring` — are copied into it (labels, annotations, type, data); copies whose original is gone
// are deleted. Data in → plan out; `reconciler.ts` carries the plan out.
import { isDeepStrictEqual } from 'node:util';
import { Labels as LabelKeys, type Seed } from '@gardener-ts/api';
import type { KubernetesObject, OwnerReference, Secret } from '@gardener-ts/controller-runtime';

/** The role value of the seed namespaces in the garden. */
export const SeedRole = 'seed';

/** Gardener's `ControlPlaneSecretRoles`: roles of shoot control plane secrets, never synced to seed namespaces. */
export const ControlPlaneSecretRoles: readonly string[] = ['kubeconfig', 'ssh-keypair', 'monitoring'];

/** Gardener's `ComputeGardenNamespace`: the garden namespace of a seed. */
export const seedNamespaceName = (seedName: string): string => `seed-${seedName}`;

/** Whether labels select a Secret for the sync: a `gardener.cloud/role` label that is not a control plane role. */
export function isSyncedRole(labels: Readonly<Record<string, string>> | undefined): boolean {
  const role = labels?.[LabelKeys.GardenRole];
  return role !== undefined && !ControlPlaneSecretRoles.includes(role);
}

/** A Namespace with the fields the plan reads. */
export interface NamespaceLike extends KubernetesObject {
  metadata?: KubernetesObject['metadata'] & { ownerReferences?: OwnerReference[] };
}

/** What to do with the seed's namespace. */
export type NamespacePlan =
  | { action: 'create'; namespace: NamespaceLike }
  | { action: 'label'; labels: Record<string, string> }
  | { action: 'keep' }
  | { action: 'refuse'; error: string };

/** The controller owner reference a seed namespace carries. */
export function seedOwnerReference(seed: Seed): OwnerReference {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    name: seed.metadata!.name!,
    uid: seed.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Gardener's rules for `seed-<name>`: created with the role label and the Seed as controller; an existing one must be
 * controlled by this Seed (same uid), else the reconciliation fails naming both; a missing role label is added.
 */
export function planSeedNamespace(seed: Seed, existing: NamespaceLike | undefined): NamespacePlan {
  const name = seedNamespaceName(seed.metadata!.name!);
  if (!existing) {
    return {
      action: 'create',
      namespace: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name, labels: { [LabelKeys.GardenRole]: SeedRole }, ownerReferences: [seedOwnerReference(seed)] },
      },
    };
  }
  // metav1.IsControlledBy: the controller reference names the Seed's uid.
  const controller = existing.metadata?.ownerReferences?.find((o) => o.controller);
  if (!controller || controller.uid !== seed.metadata?.uid) {
    return { action: 'refuse', error: `namespace "${name}" is not controlled by seed "${seed.metadata!.name}"` };
  }
  if (existing.metadata?.labels?.[LabelKeys.GardenRole] !== SeedRole) {
    return { action: 'label', labels: { ...existing.metadata?.labels, [LabelKeys.GardenRole]: SeedRole } };
  }
  return { action: 'keep' };
}

/** The copy of a garden Secret in the seed namespace: its labels, annotations, type and data (Gardener copies these). */
export function secretCopy(original: Secret, namespace: string): Secret {
  const meta = original.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: meta.name!,
      namespace,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
    },
    ...(original.type !== undefined ? { type: original.type } : {}),
    ...(original.data ? { data: { ...original.data } } : {}),
  };
}

const synced = (s: Secret) => isSyncedRole(s.metadata?.labels);
const orEmpty = (m: Record<string, string> | undefined) => m ?? {};

/** Whether an existing copy already equals the desired one in the fields the sync owns. */
export function copyUpToDate(existing: Secret, desired: Secret): boolean {
  return (
    isDeepStrictEqual(orEmpty(existing.metadata?.labels), orEmpty(desired.metadata?.labels)) &&
    isDeepStrictEqual(orEmpty(existing.metadata?.annotations), orEmpty(desired.metadata?.annotations)) &&
    (existing.type ?? 'Opaque') === (desired.type ?? 'Opaque') &&
    isDeepStrictEqual(orEmpty(existing.data), orEmpty(desired.data))
  );
}

/** What the sync writes in one seed namespace. */
export interface SecretSyncPlan {
  /** Copies to create (no Secret of that name in the namespace yet). */
  create: Secret[];
  /** Copies to bring in line: the desired copy and the existing Secret it replaces. */
  update: { desired: Secret; existing: Secret }[];
  /** Names of synced Secrets in the namespace whose original is gone (or no longer selected). */
  delete: string[];
}

/**
 * Plans the sync of one seed namespace: every selected Secret of the garden namespace copied (created, or updated when
 * it differs), every selected Secret of the seed namespace without a selected original deleted. Secrets of the seed
 * namespace without a synced role label are never touched.
 */
export function planSecretSync(
  gardenSecrets: readonly Secret[],
  namespaceSecrets: readonly Secret[],
  namespace: string,
): SecretSyncPlan {
  const originals = gardenSecrets.filter(synced);
  const existing = new Map(namespaceSecrets.map((s) => [s.metadata?.name ?? '', s]));
  const plan: SecretSyncPlan = { create: [], update: [], delete: [] };
  for (const original of originals) {
    const desired = secretCopy(original, namespace);
    const current = existing.get(desired.metadata!.name!);
    if (!current) plan.create.push(desired);
    else if (!copyUpToDate(current, desired)) plan.update.push({ desired, existing: current });
  }
  const keep = new Set(originals.map((s) => s.metadata?.name));
  for (const s of namespaceSecrets) {
    if (synced(s) && !keep.has(s.metadata?.name)) plan.delete.push(s.metadata!.name!);
  }
  return plan;
}
