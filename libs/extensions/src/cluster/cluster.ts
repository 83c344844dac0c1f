// The Cluster extension resource (extensions.gardener.cloud/v1alpha1): gardenlet mirrors a shoot's Shoot, Seed and
// CloudProfile into the seed as one cluster-scoped object named like the shoot namespace (Gardener's pkg/extensions).
// Decoding and the predicates extensions ask of it (failed, hibernated, deleted, in migration, ignored, force deletion).
import type { CloudProfile, Seed, Shoot } from '@gardener-ts/api';
import { kind, isNotFound, type Reader, type KubernetesObject } from '@gardener-ts/controller-runtime';

/** The Cluster object as stored: `spec.shoot`, `spec.seed` and `spec.cloudProfile` are embedded objects (RawExtension). */
export interface ClusterObject extends KubernetesObject {
  spec: { shoot: Record<string, unknown>; seed?: Record<string, unknown>; cloudProfile: Record<string, unknown> };
}

/** The Cluster kind for the client and the builder. */
export const ClusterKind = kind<ClusterObject>('extensions.gardener.cloud/v1alpha1', 'Cluster');

/** A Cluster with its embedded objects decoded (Gardener's `extensions.Cluster`). */
export interface Cluster {
  /** The Cluster's own metadata; its name is the shoot's namespace in the seed (`shoot--<project>--<name>`). */
  name: string;
  shoot: Shoot;
  seed?: Seed;
  cloudProfile: CloudProfile;
  /** The object as read, for what the typed view does not cover. */
  object: ClusterObject;
}

/** Annotation on the Shoot: with "true" (Go's ParseBool), extensions delete with `forceDelete` instead of `delete`. */
export const ForceDeletionAnnotation = 'confirmation.gardener.cloud/force-deletion';
/** Annotation on the Shoot: with "true", Gardener's controllers leave the shoot alone. */
export const ShootIgnoreAnnotation = 'shoot.gardener.cloud/ignore';

/**
 * Decodes a Cluster's embedded objects. Gardener stores them as RawExtensions: on the wire an embedded object, or
 * (from some clients) a base64 or JSON string of one; both are accepted. Throws, naming the field, when one is not an object.
 */
export function decodeCluster(object: ClusterObject): Cluster {
  const name = object.metadata?.name ?? '';
  const spec = (object.spec ?? {}) as Partial<ClusterObject['spec']>;
  const shoot = embedded(spec.shoot, name, 'spec.shoot');
  if (!shoot) throw new Error(`Cluster ${name}: spec.shoot is missing`);
  const cloudProfile = embedded(spec.cloudProfile, name, 'spec.cloudProfile');
  const seed = embedded(spec.seed, name, 'spec.seed');
  return {
    name,
    shoot: shoot as unknown as Shoot,
    cloudProfile: (cloudProfile ?? {}) as unknown as CloudProfile,
    ...(seed ? { seed: seed as unknown as Seed } : {}),
    object,
  };
}

function embedded(value: unknown, cluster: string, field: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value === 'string') {
    const text = value.trimStart().startsWith('{') ? value : Buffer.from(value, 'base64').toString('utf8');
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch (err) {
      throw new Error(`Cluster ${cluster}: ${field} is not a JSON object`, { cause: err });
    }
  }
  throw new Error(`Cluster ${cluster}: ${field} is not an object`);
}

/**
 * Reads and decodes the Cluster named `name` (the shoot namespace). Undefined when there is none (seed- or
 * garden-class extensions, or before gardenlet wrote it); other read errors are thrown with their cause.
 */
export async function getCluster(reader: Pick<Reader, 'get'>, name: string): Promise<Cluster | undefined> {
  try {
    return decodeCluster(await reader.get(ClusterKind, { name }));
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw new Error(`reading Cluster ${name}`, { cause: err });
  }
}

/** Go's strconv.ParseBool truthy values, as Gardener parses boolean annotations. */
export function parseBoolAnnotation(value: string | undefined): boolean {
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

/**
 * The shoot's last operation failed and the failure is about its current spec (generation observed): Gardener's
 * generic reconcilers stop reconciling then (`IsFailed`), until a user retries or changes the shoot.
 */
export function isShootFailed(shoot: Shoot | undefined): boolean {
  if (!shoot) return false;
  const status = shoot.status;
  return (
    status?.lastOperation?.state === 'Failed' && (shoot.metadata?.generation ?? 0) === (status.observedGeneration ?? 0)
  );
}

/** `IsFailed(cluster)`: the cluster's shoot has failed (see `isShootFailed`). */
export function isFailed(cluster: Cluster | undefined): boolean {
  return isShootFailed(cluster?.shoot);
}

/** The shoot's spec asks for hibernation (`spec.hibernation.enabled`), Gardener's `IsHibernationEnabled`. */
export function isHibernationEnabled(cluster: Cluster | undefined): boolean {
  return cluster?.shoot.spec?.hibernation?.enabled === true;
}

/** The shoot is hibernated: asked for and reached (`status.isHibernated`), Gardener's `IsHibernated`. */
export function isHibernated(cluster: Cluster | undefined): boolean {
  return (
    isHibernationEnabled(cluster) &&
    (cluster?.shoot.status as { isHibernated?: boolean } | undefined)?.isHibernated === true
  );
}

/** The shoot is being deleted (`metadata.deletionTimestamp` on the mirrored Shoot). */
export function isShootDeleted(cluster: Cluster | undefined): boolean {
  return (
    cluster?.shoot.metadata?.deletionTimestamp !== undefined && cluster?.shoot.metadata?.deletionTimestamp !== null
  );
}

/**
 * The shoot is moving to another seed: its last operation is a Migrate that has not succeeded, or its spec names a
 * seed other than the one in its status (Gardener's `ShouldPrepareShootForMigration`).
 */
export function isShootInMigration(cluster: Cluster | undefined): boolean {
  const shoot = cluster?.shoot;
  if (!shoot) return false;
  const last = shoot.status?.lastOperation;
  if (last?.type === 'Migrate' && last.state !== 'Succeeded') return true;
  const specSeed = shoot.spec?.seedName;
  const statusSeed = shoot.status?.seedName;
  return !!specSeed && !!statusSeed && specSeed !== statusSeed;
}

/** The shoot carries `shoot.gardener.cloud/ignore=true`. */
export function isShootIgnored(cluster: Cluster | undefined): boolean {
  return parseBoolAnnotation(cluster?.shoot.metadata?.annotations?.[ShootIgnoreAnnotation]);
}

/** The shoot confirms force deletion (`confirmation.gardener.cloud/force-deletion`), Gardener's `ShootNeedsForceDeletion`. */
export function shootNeedsForceDeletion(cluster: Cluster | undefined): boolean {
  return parseBoolAnnotation(cluster?.shoot.metadata?.annotations?.[ForceDeletionAnnotation]);
}
