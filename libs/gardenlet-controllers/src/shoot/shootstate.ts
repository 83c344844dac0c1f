// The ShootState of a shoot (GEP-22, Gardener's `pkg/utils/gardener/shootstate`): what its control plane needs to be
// restored on another seed — the secrets manager's persisted secrets (`persist=true`) as `spec.gardener`, each
// extension resource's `status.state`/`status.resources` by kind, name and purpose as `spec.extensions`, and the
// objects those resources reference as `spec.resources`. Pure: computed from what was read in the seed, merged into
// the existing ShootState (Gardener upserts on migration), and read back by the restore. The shell is in
// `shootstate-writer.ts`.
import type { corev1beta1 } from '@gardener-ts/api';
import type { KubernetesObject, Secret } from '@gardener-ts/controller-runtime';

/** The spec of a ShootState. */
export type ShootStateSpec = corev1beta1.ShootState['spec'];
/** One entry of `spec.gardener`. */
export type GardenerResourceData = NonNullable<ShootStateSpec['gardener']>[number];
/** One entry of `spec.extensions`. */
export type ExtensionResourceState = NonNullable<ShootStateSpec['extensions']>[number];
/** One entry of `spec.resources`. */
export type ResourceData = NonNullable<ShootStateSpec['resources']>[number];
/** A reference of an extension's `status.resources` (autoscaling/v1 CrossVersionObjectReference). */
export type ResourceReference = ResourceData['ref'];

/** `spec.gardener[].type` of a persisted secret (Gardener's `DataTypeSecret`). */
export const DataTypeSecret = 'secret';
/** The secrets manager's label marking a secret to persist in the ShootState. */
export const LabelKeyPersist = 'persist';
/** The secrets manager's `managed-by` label and its value. */
export const LabelKeyManagedBy = 'managed-by';
export const LabelValueSecretsManager = 'secrets-manager';

/**
 * The extension kinds whose state a ShootState keeps (Gardener's list without BackupEntry, which is cluster-scoped and
 * migrated by the BackupEntry controller, and SelfHostedShootExposure, which has no local counterpart).
 */
export const ShootStateExtensionKinds = [
  'ContainerRuntime',
  'ControlPlane',
  'DNSRecord',
  'Extension',
  'Infrastructure',
  'Network',
  'OperatingSystemConfig',
  'Worker',
] as const;

/** The fields of an extension resource the ShootState reads. */
export interface ExtensionObjectView extends KubernetesObject {
  spec?: { purpose?: string };
  status?: { state?: unknown; resources?: { name: string; resourceRef: ResourceReference }[] };
}

/** Whether a Secret is one the ShootState keeps: labelled `persist=true` (Gardener selects on that label alone). */
export function isPersisted(secret: Secret): boolean {
  return secret.metadata?.labels?.[LabelKeyPersist] === 'true';
}

/** `spec.gardener` of the persisted secrets: name, labels, type `secret` and the data (base64 values, as on the wire). */
export function gardenerDataOf(secrets: readonly Secret[]): GardenerResourceData[] {
  return secrets.filter(isPersisted).map((secret) => ({
    name: secret.metadata?.name ?? '',
    type: DataTypeSecret,
    ...(secret.metadata?.labels ? { labels: { ...secret.metadata.labels } } : {}),
    data: { ...(secret.data ?? {}) },
  }));
}

/**
 * `spec.extensions` of one kind's objects: those with a state or resources, not being deleted; and the references of
 * their resources, to be read and kept in `spec.resources`.
 */
export function extensionStatesOf(
  kind: string,
  objects: readonly ExtensionObjectView[],
): { states: ExtensionResourceState[]; references: ResourceReference[] } {
  const states: ExtensionResourceState[] = [];
  const references: ResourceReference[] = [];
  for (const obj of objects) {
    const status = obj.status ?? {};
    const resources = status.resources ?? [];
    if (obj.metadata?.deletionTimestamp || (status.state == null && resources.length === 0)) continue;
    states.push({
      kind,
      name: obj.metadata?.name ?? '',
      ...(obj.spec?.purpose ? { purpose: obj.spec.purpose } : {}),
      ...(status.state != null ? { state: status.state } : {}),
      ...(resources.length > 0
        ? { resources: resources.map((r) => ({ ...r, resourceRef: { ...r.resourceRef } })) }
        : {}),
    });
    references.push(...resources.map((r) => r.resourceRef));
  }
  return { states, references };
}

/**
 * A referenced object as the ShootState keeps it: what the restore needs to create it again — kind, name, labels,
 * annotations and content, without what the API server sets (uid, resourceVersion, managedFields, ...) or status.
 */
export function resourceDataOf(ref: ResourceReference, obj: KubernetesObject): ResourceData {
  const { metadata, status: _status, ...content } = obj as KubernetesObject & { status?: unknown };
  const meta: Record<string, unknown> = { name: metadata?.name ?? ref.name };
  if (metadata?.labels) meta.labels = { ...metadata.labels };
  if (metadata?.annotations) meta.annotations = { ...metadata.annotations };
  return { ref: { ...ref }, data: { ...content, metadata: meta } };
}

const sameRef = (a: ResourceReference, b: ResourceReference) =>
  a.kind === b.kind && a.name === b.name && (a.apiVersion ?? '') === (b.apiVersion ?? '');
const sameExtension = (a: ExtensionResourceState, b: ExtensionResourceState) =>
  a.kind === b.kind && (a.name ?? '') === (b.name ?? '') && (a.purpose ?? '') === (b.purpose ?? '');

function upsert<T>(existing: readonly T[] | undefined, computed: readonly T[], same: (a: T, b: T) => boolean): T[] {
  const result = [...(existing ?? [])];
  for (const item of computed) {
    const i = result.findIndex((e) => same(e, item));
    if (i >= 0) result[i] = item;
    else result.push(item);
  }
  return result;
}

/**
 * The ShootState spec written on migration (Gardener's `Deploy` without `overwriteSpec`): the computed entries upserted
 * into the existing ones — `gardener` by name, `extensions` by kind/name/purpose, `resources` by reference — so state
 * a previous, interrupted migration kept is not lost.
 */
export function mergeShootStateSpec(existing: ShootStateSpec | undefined, computed: ShootStateSpec): ShootStateSpec {
  const gardener = upsert(existing?.gardener, computed.gardener ?? [], (a, b) => a.name === b.name);
  const extensions = upsert(existing?.extensions, computed.extensions ?? [], sameExtension);
  const resources = upsert(existing?.resources, computed.resources ?? [], (a, b) => sameRef(a.ref, b.ref));
  return {
    ...(gardener.length > 0 ? { gardener } : {}),
    ...(extensions.length > 0 ? { extensions } : {}),
    ...(resources.length > 0 ? { resources } : {}),
  };
}

/**
 * The persisted secrets to create in the control plane namespace before the secrets manager runs on restore
 * (Gardener's `restoreSecretsFromShootStateForSecretsManagerAdoption`): entries of type `secret` managed by the secrets
 * manager, with their name, labels and data; immutable, as the secrets manager writes them, so it adopts them.
 */
export function persistedSecretsOf(spec: ShootStateSpec | undefined, namespace: string): Secret[] {
  return (spec?.gardener ?? [])
    .filter((d) => d.type === DataTypeSecret && d.labels?.[LabelKeyManagedBy] === LabelValueSecretsManager)
    .map((d) => {
      const data = (d.data ?? {}) as Record<string, string>;
      return {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: d.name, namespace, labels: { ...(d.labels ?? {}) } },
        type: data['tls.crt'] !== undefined && data['tls.key'] !== undefined ? 'kubernetes.io/tls' : 'Opaque',
        immutable: true,
        data: { ...data },
      };
    });
}

/** The state kept for an extension resource (Gardener's `ExtensionResourceStateList.Get` by kind, name and purpose). */
export function extensionStateFor(
  spec: ShootStateSpec | undefined,
  kind: string,
  name: string,
  purpose?: string,
): ExtensionResourceState | undefined {
  return (spec?.extensions ?? []).find((e) => sameExtension(e, { kind, name, ...(purpose ? { purpose } : {}) }));
}

/** The objects to create again for an extension's restored `status.resources`, in the control plane namespace. */
export function referencedObjectsFor(
  spec: ShootStateSpec | undefined,
  state: ExtensionResourceState,
  namespace: string,
): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const { resourceRef } of state.resources ?? []) {
    const found = (spec?.resources ?? []).find((r) => sameRef(r.ref, resourceRef));
    if (!found) continue;
    const data = found.data as KubernetesObject;
    objects.push({
      ...data,
      apiVersion: data.apiVersion ?? resourceRef.apiVersion,
      kind: data.kind ?? resourceRef.kind,
      metadata: { ...(data.metadata ?? {}), name: resourceRef.name, namespace },
    });
  }
  return objects;
}
