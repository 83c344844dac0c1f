// A replica of a ManagedSeedSet (Gardener's pkg/controllermanager/controller/managedseedset/replica.go) as pure
// functions: a Shoot named `<set>-<ordinal>`, the ManagedSeed of the same name registering it, and the Seed that
// registers; its status along the way, readiness, deletability and priority, the objects a new replica starts with,
// and the template revision (GEP-13's `controller-revision-hash`) the replica's objects were made from.
import { GardenNamespace, type Seed, type Shoot } from '@gardener-ts/api';
import type { Condition, KubernetesObject } from '@gardener-ts/controller-runtime';
import type { ManagedSeed } from '../../kinds.js';
import { revisionName, templatesOf, type RevisionTemplates } from './revision.js';
import type { ManagedSeedSet } from './types.js';

/**
 * How far a replica is, in Gardener's order (a lower value is less advanced): creation goes ShootReconciling →
 * ShootReconciled → ManagedSeedPreparing → ManagedSeedRegistered, deletion ManagedSeedRegistered → ManagedSeedDeleting
 * → ShootReconciled → ShootDeleting; failed shoot operations are ShootReconcileFailed / ShootDeleteFailed.
 */
export const ReplicaStatus = {
  Unknown: 0,
  ShootReconcileFailed: 1,
  ShootDeleteFailed: 2,
  ShootReconciling: 3,
  ShootDeleting: 4,
  ShootReconciled: 5,
  ManagedSeedPreparing: 6,
  ManagedSeedDeleting: 7,
  ManagedSeedRegistered: 8,
} as const;
export type ReplicaStatus = (typeof ReplicaStatus)[keyof typeof ReplicaStatus];

/** The shoot health label values (`shoot.gardener.cloud/status`) with Gardener's ranking. */
export type ShootHealth = 'healthy' | 'progressing' | 'unknown' | 'unhealthy';
const healthValue: Record<ShootHealth, number> = { healthy: 3, progressing: 2, unknown: 1, unhealthy: 0 };

/** Protects a replica's Shoot or ManagedSeed from being chosen when the set scales in. */
export const AnnotationProtectFromDeletion = 'seedmanagement.gardener.cloud/protect-from-deletion';
/** Replaced by the replica's name in the Shoot's `spec.dns.domain` and the seed's `spec.ingress.domain`. */
export const ReplicaNamePlaceholder = 'replica-name';

/** A replica: its Shoot (always there), its ManagedSeed and Seed when they exist, and whether shoots run on the seed. */
export interface Replica {
  readonly shoot: Shoot;
  readonly managedSeed?: ManagedSeed;
  readonly seed?: Seed;
  readonly hasScheduledShoots: boolean;
}

const conditionOf = (conditions: unknown, type: string): Condition | undefined =>
  (conditions as Condition[] | undefined)?.find((c) => c.type === type);

const observedLatest = (o: KubernetesObject & { status?: { observedGeneration?: number } }): boolean =>
  (o.metadata?.generation ?? 0) === (o.status?.observedGeneration ?? 0);

const lastOperation = (shoot: Shoot) => shoot.status?.lastOperation;
const isCreateOrReconcile = (type: string | undefined) => type === 'Create' || type === 'Reconcile';

/** The shoot's last Create/Reconcile succeeded at its current generation and it is not being deleted. */
export function shootReconcileSucceeded(shoot: Shoot): boolean {
  const op = lastOperation(shoot);
  return (
    observedLatest(shoot) &&
    !shoot.metadata?.deletionTimestamp &&
    isCreateOrReconcile(op?.type) &&
    op?.state === 'Succeeded'
  );
}

/** The shoot's last Create/Reconcile failed at its current generation and it is not being deleted. */
export function shootReconcileFailed(shoot: Shoot): boolean {
  const op = lastOperation(shoot);
  return (
    observedLatest(shoot) &&
    !shoot.metadata?.deletionTimestamp &&
    isCreateOrReconcile(op?.type) &&
    op?.state === 'Failed'
  );
}

/** The shoot is being deleted and its Delete failed at its current generation. */
export function shootDeleteFailed(shoot: Shoot): boolean {
  const op = lastOperation(shoot);
  return observedLatest(shoot) && !!shoot.metadata?.deletionTimestamp && op?.type === 'Delete' && op.state === 'Failed';
}

/** The ManagedSeed is up to date, not being deleted and `SeedRegistered` is True. */
export function managedSeedRegistered(managedSeed: ManagedSeed): boolean {
  return (
    observedLatest(managedSeed as never) &&
    !managedSeed.metadata?.deletionTimestamp &&
    conditionOf(managedSeed.status?.conditions, 'SeedRegistered')?.status === 'True'
  );
}

/**
 * The seed is ready (Gardener's `seedReady`): up to date, not being deleted, GardenletReady and
 * SeedSystemComponentsHealthy True, BackupBucketsReady True or absent.
 */
export function seedReady(seed: Seed): boolean {
  const c = (type: string) => conditionOf(seed.status?.conditions, type);
  return (
    observedLatest(seed as never) &&
    !seed.metadata?.deletionTimestamp &&
    c('GardenletReady')?.status === 'True' &&
    c('SeedSystemComponentsHealthy')?.status === 'True' &&
    (c('BackupBucketsReady') === undefined || c('BackupBucketsReady')!.status === 'True')
  );
}

/** The shoot's health label, `progressing` without one. */
export function shootHealth(shoot: Shoot): ShootHealth {
  const value = shoot.metadata?.labels?.['shoot.gardener.cloud/status'];
  return value && value in healthValue ? (value as ShootHealth) : 'progressing';
}

/** The replica's status (Gardener's `GetStatus`). */
export function replicaStatus(r: Replica): ReplicaStatus {
  if (!r.managedSeed) {
    if (shootReconcileSucceeded(r.shoot)) return ReplicaStatus.ShootReconciled;
    if (shootReconcileFailed(r.shoot)) return ReplicaStatus.ShootReconcileFailed;
    if (shootDeleteFailed(r.shoot)) return ReplicaStatus.ShootDeleteFailed;
    return r.shoot.metadata?.deletionTimestamp ? ReplicaStatus.ShootDeleting : ReplicaStatus.ShootReconciling;
  }
  if (managedSeedRegistered(r.managedSeed)) return ReplicaStatus.ManagedSeedRegistered;
  return r.managedSeed.metadata?.deletionTimestamp
    ? ReplicaStatus.ManagedSeedDeleting
    : ReplicaStatus.ManagedSeedPreparing;
}

/** The replica's name (its Shoot's, ManagedSeed's and Seed's). */
export const replicaName = (r: Replica): string => r.shoot.metadata!.name!;
/** `namespace/name` of the replica's Shoot and ManagedSeed. */
export const replicaFullName = (r: Replica): string => `${r.shoot.metadata!.namespace}/${replicaName(r)}`;

/** The ordinal at the end of a replica object's name (`<set>-<n>`), -1 for names not made by a set. */
export function ordinalOf(name: string): number {
  const match = /^.*-([0-9]+)$/.exec(name);
  if (!match) return -1;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && n <= 2 ** 31 - 1 ? n : -1;
}

export const isSeedReady = (r: Replica): boolean => !!r.seed && seedReady(r.seed);

/** Ready: the ManagedSeed is registered, the seed ready and the shoot healthy. */
export const replicaIsReady = (r: Replica): boolean =>
  replicaStatus(r) === ReplicaStatus.ManagedSeedRegistered && isSeedReady(r) && shootHealth(r.shoot) === 'healthy';

/** Whether the replica's ManagedSeed exists (its status is one of the ManagedSeed ones). */
export const managedSeedExists = (status: ReplicaStatus): boolean => status >= ReplicaStatus.ManagedSeedPreparing;

/** Deletable: no shoots are scheduled on its seed, and neither its Shoot nor its ManagedSeed is protected. */
export function isDeletable(r: Replica): boolean {
  const protectedObj = (o: KubernetesObject | undefined) =>
    o?.metadata?.annotations?.[AnnotationProtectFromDeletion] === 'true';
  return !r.hasScheduledShoots && !protectedObj(r.shoot) && !protectedObj(r.managedSeed);
}

/** Gardener's ascendingPriority: less advanced status, unready seed, worse shoot health, lower ordinal come first. */
export function comparePriority(a: Replica, b: Replica): number {
  const sa = replicaStatus(a);
  const sb = replicaStatus(b);
  if (sa !== sb) return sa - sb;
  const ra = isSeedReady(a);
  const rb = isSeedReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  const ha = healthValue[shootHealth(a.shoot)];
  const hb = healthValue[shootHealth(b.shoot)];
  if (ha !== hb) return ha - hb;
  return ordinalOf(replicaName(a)) - ordinalOf(replicaName(b));
}

/** The label on a replica's Shoot and ManagedSeed naming the template revision they were made or last updated from. */
export const RevisionLabel = 'controller-revision-hash';

/**
 * The set's current template revision, `<set>-<hash>`: the hash covers both templates (`template`, `shootTemplate`)
 * and `status.collisionCount`, so any template change yields a new revision and an unchanged one the same.
 */
export function templateRevision(set: ManagedSeedSet): string {
  return revisionName(set, (set.status as { collisionCount?: number } | undefined)?.collisionCount ?? 0);
}

/** A revision to make replica objects from: its name (the objects' label) and its templates. */
export interface TemplateRevision {
  readonly name: string;
  readonly templates: RevisionTemplates;
}

/** The set's current templates under `templateRevision`. */
export const currentTemplates = (set: ManagedSeedSet): TemplateRevision => ({
  name: templateRevision(set),
  templates: templatesOf(set),
});

/** The revision a replica is at: its Shoot's and (when it exists) ManagedSeed's label, undefined when they differ. */
export function replicaRevision(r: Replica): string | undefined {
  const shootRevision = r.shoot.metadata?.labels?.[RevisionLabel];
  if (!r.managedSeed) return shootRevision;
  return r.managedSeed.metadata?.labels?.[RevisionLabel] === shootRevision ? shootRevision : undefined;
}

/**
 * apimachinery's DeepDerivative: every field set in `desired` has the same value in `actual` (unset fields of `desired`
 * are ignored, lists must have the same length), i.e. applying `desired` as a merge patch would change nothing.
 */
export function isDerivative(desired: unknown, actual: unknown): boolean {
  if (desired === undefined || desired === null) return true;
  if (Array.isArray(desired)) {
    return (
      Array.isArray(actual) && actual.length === desired.length && desired.every((d, i) => isDerivative(d, actual[i]))
    );
  }
  if (typeof desired === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(desired as Record<string, unknown>).every(([k, v]) =>
      isDerivative(v, (actual as Record<string, unknown>)[k]),
    );
  }
  return desired === actual;
}

/** The replica object name for an ordinal: `<set>-<ordinal>`. */
export const replicaObjectName = (set: ManagedSeedSet, ordinal: number): string => `${set.metadata!.name}-${ordinal}`;

const controllerRef = (set: ManagedSeedSet) => ({
  apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
  kind: 'ManagedSeedSet',
  name: set.metadata!.name!,
  uid: set.metadata!.uid!,
  controller: true,
  blockOwnerDeletion: true,
});

/**
 * The Shoot of a replica: the shoot template of a revision (default: the set's current one), named `<set>-<ordinal>`,
 * controlled by the set, labelled with the revision.
 */
export function newShoot(set: ManagedSeedSet, ordinal: number, revision = currentTemplates(set)): Shoot {
  const name = replicaObjectName(set, ordinal);
  const template = structuredClone(revision.templates.shootTemplate);
  const spec = template.spec;
  if (spec.dns?.domain) spec.dns.domain = spec.dns.domain.replaceAll(ReplicaNamePlaceholder, name);
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: {
      name,
      namespace: set.metadata!.namespace!,
      labels: { ...template.metadata?.labels, [RevisionLabel]: revision.name },
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [controllerRef(set)],
    },
    spec,
  } as Shoot;
}

/**
 * The ManagedSeed of a replica: the template of a revision (default: the set's current one), named as the replica,
 * registering the replica's Shoot, controlled by the set and labelled with the revision; the placeholder in the
 * gardenlet configuration's `seedConfig.spec.ingress.domain` is replaced.
 */
export function newManagedSeed(set: ManagedSeedSet, ordinal: number, revision = currentTemplates(set)): ManagedSeed {
  const name = replicaObjectName(set, ordinal);
  const template = structuredClone(revision.templates.template);
  const gardenlet = template.spec.gardenlet as {
    config?: { seedConfig?: { spec?: { ingress?: { domain?: string } } } };
  };
  const ingress = gardenlet?.config?.seedConfig?.spec?.ingress;
  if (ingress?.domain) ingress.domain = ingress.domain.replaceAll(ReplicaNamePlaceholder, name);
  return {
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeed',
    metadata: {
      name,
      namespace: set.metadata!.namespace ?? GardenNamespace,
      labels: { ...template.metadata?.labels, [RevisionLabel]: revision.name },
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [controllerRef(set)],
    },
    spec: { shoot: { name }, gardenlet: template.spec.gardenlet },
  } as ManagedSeed;
}
