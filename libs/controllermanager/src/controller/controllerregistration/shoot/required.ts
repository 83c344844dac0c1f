// Which extensions a self-hosted shoot needs (Gardener's ControllerInstallation reconciler for the `shoot` kind): the
// kind/types of its own reconciliation flow (ComputeRequiredExtensionsForShoot without a seed and without domains, the
// backup provider coming from the control plane worker pool's `controlPlane.backup`), of the BackupBuckets and BackupEntries referencing it by `spec.shootRef`, mapped to the ControllerRegistrations that
// provide them, plus every `Always` registration (unless the shoot is being deleted), every `AlwaysExceptNoShoots` one
// (the shoot counts as a shoot) and those whose installation for the shoot still reports `Required=True`. No seed
// selector applies. Pure: data in, names out.
import type {
  BackupBucket,
  BackupEntry,
  ControllerInstallation,
  ControllerRegistration,
  Shoot,
} from '@gardener-ts/api';
import {
  extensionsID,
  isInstallationRequired,
  registrationsProviding,
  requiredExtensionsForShoot,
} from '../seed/required.js';

/** A shoot is self-hosted when a worker pool runs its control plane (Gardener's IsShootSelfHosted). */
export function isSelfHosted(shoot: Shoot): boolean {
  return (shoot.spec.provider.workers ?? []).some((w) => w.controlPlane !== undefined && w.controlPlane !== null);
}

/** The backup provider of the shoot's control plane worker pool (the backup of a shoot without a seed), if any. */
export function controlPlaneBackupProvider(shoot: Shoot): string | undefined {
  return (shoot.spec.provider.workers ?? []).find((w) => w.controlPlane?.backup)?.controlPlane?.backup?.provider;
}

/** A namespaced reference as BackupBuckets, BackupEntries and ControllerInstallations carry it in `spec.shootRef`. */
interface ShootRef {
  name?: string;
  namespace?: string;
}

/** The `spec.shootRef` of an object, if any (BackupBuckets are read leniently: the served schema may lack the field). */
export function shootRefOf(o: { spec?: unknown }): ShootRef | undefined {
  const ref = (o.spec as { shootRef?: ShootRef } | undefined)?.shootRef;
  return ref?.name ? ref : undefined;
}

/** Whether `o.spec.shootRef` names the shoot. */
export function refersToShoot(o: { spec?: unknown }, shoot: Shoot): boolean {
  const ref = shootRefOf(o);
  return !!ref && ref.name === shoot.metadata?.name && ref.namespace === shoot.metadata?.namespace;
}

/** Everything a shoot's needs are computed from. */
export interface ShootNeedsInput {
  shoot: Shoot;
  registrations: readonly ControllerRegistration[];
  /** All installations (those of the shoot are picked by `spec.shootRef`). */
  installations: readonly ControllerInstallation[];
  /** All BackupBuckets (those of the shoot are picked by `spec.shootRef`). */
  backupBuckets: readonly BackupBucket[];
  /** All BackupEntries (those of the shoot are picked by `spec.shootRef`). */
  backupEntries: readonly BackupEntry[];
}

/** The outcome: the registrations to install for the shoot, or why that cannot be told. */
export type ShootNeeds =
  | { ok: true; registrations: Set<string>; kindTypes: Set<string>; entriesWithoutBucket: string[] }
  | { ok: false; error: string };

/** The kind/types the shoot needs; its BackupEntries count only when their bucket also references the shoot. */
export function wantedKindTypesForShoot(input: ShootNeedsInput): {
  wanted: Set<string>;
  entriesWithoutBucket: string[];
} {
  const { shoot } = input;
  const wanted = new Set<string>();
  const buckets = new Map<string, BackupBucket>();
  for (const bucket of input.backupBuckets) {
    if (!refersToShoot(bucket, shoot)) continue;
    buckets.set(bucket.metadata?.name ?? '', bucket);
    wanted.add(extensionsID('BackupBucket', bucket.spec.provider.type));
  }
  const entriesWithoutBucket: string[] = [];
  for (const entry of input.backupEntries) {
    if (!refersToShoot(entry, shoot)) continue;
    const bucket = buckets.get(entry.spec.bucketName);
    if (!bucket) {
      entriesWithoutBucket.push(`${entry.metadata?.namespace}/${entry.metadata?.name}`);
      continue;
    }
    wanted.add(extensionsID('BackupEntry', bucket.spec.provider.type));
  }
  // A shoot in deletion needs nothing of its own any more, so its installations can go.
  if (!shoot.metadata?.deletionTimestamp) {
    for (const id of requiredExtensionsForShoot(shoot, undefined, input.registrations, undefined, undefined)) {
      wanted.add(id);
    }
    const backup = controlPlaneBackupProvider(shoot);
    if (backup) {
      wanted.add(extensionsID('BackupBucket', backup));
      wanted.add(extensionsID('BackupEntry', backup));
    }
  }
  return { wanted, entriesWithoutBucket };
}

/** Whether an installation is for the shoot (`spec.shootRef` name and namespace). */
export const installationOfShoot = (installation: ControllerInstallation, shoot: Shoot): boolean =>
  installation.spec.shootRef?.name === shoot.metadata?.name &&
  installation.spec.shootRef?.namespace === shoot.metadata?.namespace;

/** The names of the ControllerRegistrations to install for the shoot (Gardener's computeWantedControllerRegistrationNames). */
export function computeShootNeeds(input: ShootNeedsInput): ShootNeeds {
  const { shoot } = input;
  const { wanted: kindTypes, entriesWithoutBucket } = wantedKindTypesForShoot(input);
  const providing = registrationsProviding(input.registrations, kindTypes);
  if (!providing.ok) return providing;
  const wanted = providing.names;
  for (const registration of input.registrations) {
    if (registration.metadata?.deletionTimestamp) continue;
    const name = registration.metadata?.name ?? '';
    const policy = registration.spec.deployment?.policy;
    if (policy === 'Always' && !shoot.metadata?.deletionTimestamp) wanted.add(name);
    // The shoot itself is the one shoot this installation serves.
    if (policy === 'AlwaysExceptNoShoots') wanted.add(name);
  }
  for (const installation of input.installations) {
    if (installationOfShoot(installation, shoot) && isInstallationRequired(installation)) {
      wanted.add(installation.spec.registrationRef.name ?? '');
    }
  }
  return { ok: true, registrations: wanted, kindTypes, entriesWithoutBucket };
}

/** What to do with the shoot's installations. */
export interface ShootInstallationPlan {
  /** Registrations that get a new installation or an update of their existing one. */
  deploy: string[];
  /** Registrations skipped because they are being deleted. */
  skipped: string[];
  /** Existing installations no longer wanted. */
  delete: ControllerInstallation[];
  /** Registrations whose old installation is still being deleted: no new one yet. */
  blocked: string[];
  /** Installations of the shoot naming a registration that does not exist (Gardener fails the reconciliation). */
  unknownRegistrations: string[];
}

/** Compares the wanted registrations with the shoot's installations (Gardener's deploy/delete split). Pure. */
export function planShootInstallations(
  shoot: Shoot,
  wanted: ReadonlySet<string>,
  registrations: readonly ControllerRegistration[],
  installations: readonly ControllerInstallation[],
): ShootInstallationPlan {
  const known = new Set(registrations.map((r) => r.metadata?.name));
  const deleting = new Set(registrations.filter((r) => r.metadata?.deletionTimestamp).map((r) => r.metadata?.name));
  const plan: ShootInstallationPlan = { deploy: [], skipped: [], delete: [], blocked: [], unknownRegistrations: [] };
  const byRegistration = new Map<string, ControllerInstallation>();
  for (const installation of installations) {
    if (!installationOfShoot(installation, shoot)) continue;
    const name = installation.spec.registrationRef.name ?? '';
    if (!known.has(name)) plan.unknownRegistrations.push(name);
    byRegistration.set(name, installation);
  }
  for (const name of [...wanted].sort()) {
    if (!known.has(name)) plan.unknownRegistrations.push(name);
    else if (deleting.has(name)) plan.skipped.push(name);
    else if (byRegistration.get(name)?.metadata?.deletionTimestamp) plan.blocked.push(name);
    else plan.deploy.push(name);
  }
  for (const [name, installation] of byRegistration) {
    if (!wanted.has(name)) plan.delete.push(installation);
  }
  plan.unknownRegistrations = [...new Set(plan.unknownRegistrations)];
  return plan;
}
