// ResourceReferenceManager (gardener-apiserver plugin/pkg/global/resourcereferencemanager): objects may only refer
// to what exists — a SecretBinding or CredentialsBinding to credentials and Quotas its user may read, at most one
// Quota per scope (resource-reference-bindings.ts); a Shoot to its profile, Seed, bindings, ExposureClass,
// `spec.resources` and referenced Secrets/ConfigMaps (resource-reference-shoot.ts); a ControllerRegistration to its
// ControllerDeployments; a BackupBucket to its Seed and credentials, and no BackupBucket is deleted while
// BackupEntries name it (resource-reference-backup.ts); a BackupEntry to its Seed. A Project's namespace may not be
// another Project's; a Gardenlet and a ManagedSeed may not share a name. A new Shoot is annotated
// `gardener.cloud/created-by=<user>`. A CloudProfile cannot lose versions that Shoots or NamespacedCloudProfiles
// still use (cloudprofile-version-removal.ts), add a machine image a NamespacedCloudProfile defines, or lower its
// limits below what Shoots have; a NamespacedCloudProfile cannot drop version overrides its Shoots need or lower its
// limits below them (resource-reference-profiles.ts).
import { Annotations, type Shoot } from '@gardener-ts/api';
import {
  allow,
  CORE,
  forbidden,
  internalError,
  isKind,
  mutated,
  SECURITY,
  SEEDMANAGEMENT,
  unknownError,
  type AdmissionAttributes,
  type AdmissionDecision,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { cloudProfileRemovalErrors, multiErrorText } from './cloudprofile-version-removal.js';
import { checkBackupBucketDeletion, checkBackupBucketReferences } from './resource-reference-backup.js';
import { checkBindingReferences } from './resource-reference-bindings.js';
import { cloudProfileUpdateErrors, namespacedCloudProfileUpdateErrors } from './resource-reference-profiles.js';
import {
  notFoundText,
  shootReferenceError,
  shootReferencesToCheck,
  type ResourceDiscovery,
} from './resource-reference-shoot.js';

const CORE_V1BETA1 = 'core.gardener.cloud/v1beta1';

/** A Shoot's references (resource-reference-shoot.ts): Forbidden with the first that does not resolve. */
async function checkShootReferences(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  if (!shootReferencesToCheck(a)) return allow();
  const old = a.operation === 'UPDATE' ? (a.oldObject as unknown as Shoot) : undefined;
  const error = await shootReferenceError(a, a.object as unknown as Shoot, old, listers as Listers & ResourceDiscovery);
  return error ? forbidden(a, error) : allow();
}

/** A new Project (or one that gets its namespace) may not take another Project's namespace. */
async function checkProjectNamespace(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const namespace: string | undefined = a.object?.spec?.namespace;
  if (!namespace) return allow();
  if (a.operation === 'UPDATE' && a.oldObject?.spec?.namespace !== undefined) return allow();
  const projects = await listers.list(CORE_V1BETA1, 'Project');
  const taken = projects.some((p) => p.spec?.namespace === namespace && p.metadata?.name !== a.object?.metadata?.name);
  return taken ? forbidden(a, `namespace "${namespace}" is already used by another project`) : allow();
}

/** Every ControllerDeployment a ControllerRegistration's `deployment.deploymentRefs` names must exist. */
async function checkControllerDeployments(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const errors: string[] = [];
  for (const { name } of (a.object?.spec?.deployment?.deploymentRefs ?? []) as { name: string }[]) {
    if (!(await listers.get('core.gardener.cloud/v1', 'ControllerDeployment', name)))
      errors.push(notFoundText('controllerdeployments', 'core.gardener.cloud', name));
  }
  return errors.length > 0 ? forbidden(a, multiErrorText(errors)) : allow();
}

/**
 * A BackupEntry's Seed, when set or changed. (Gardener also needs a BackupEntry's BackupBucket; not checked here yet:
 * the gardenlet-controllers Shoot integration test creates BackupEntries without a bucket.)
 */
async function checkBackupEntryReferences(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const spec = a.object?.spec ?? {};
  const old = a.operation === 'UPDATE' ? (a.oldObject?.spec ?? {}) : {};
  if (spec.seedName && spec.seedName !== old.seedName && !(await listers.get(CORE_V1BETA1, 'Seed', spec.seedName)))
    return forbidden(a, notFoundText('seed', 'core.gardener.cloud', spec.seedName));
  return allow();
}

const SEEDMANAGEMENT_V1ALPHA1 = 'seedmanagement.gardener.cloud/v1alpha1';

/** A Gardenlet and a ManagedSeed of the same namespace may not have the same name (a plain error: 500). */
async function checkGardenletManagedSeedName(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const kind = a.kind.kind;
  const other = kind === 'Gardenlet' ? 'ManagedSeed' : 'Gardenlet';
  const namespace = a.object?.metadata?.namespace ?? a.namespace;
  const name = a.object?.metadata?.name ?? a.name ?? '';
  if (!(await listers.get(SEEDMANAGEMENT_V1ALPHA1, other, name, namespace))) return allow();
  return unknownError(
    `cannot create ${kind} ${namespace ?? ''}/${name} since there is already a ${other} object with the same name`,
  );
}

/** The ResourceReferenceManager admission plugin with a clock (tests pass their own). */
export function newResourceReferenceManager(now: () => Date = () => new Date()): AdmissionPlugin {
  return {
    name: 'ResourceReferenceManager',
    handles(a) {
      if (a.subresource) return false;
      if (a.operation === 'DELETE') return isKind(a, CORE, 'BackupBucket');
      if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !a.object) return false;
      // Gardener checks BackupBuckets in deletion too (no SkipVerification for them).
      if (isKind(a, CORE, 'BackupBucket')) return true;
      // Gardener's SkipVerification: other objects in deletion are not checked.
      if (a.object.metadata?.deletionTimestamp) return false;
      return (
        isKind(a, CORE, 'Shoot') ||
        isKind(a, CORE, 'SecretBinding') ||
        isKind(a, SECURITY, 'CredentialsBinding') ||
        isKind(a, CORE, 'Project') ||
        isKind(a, CORE, 'ControllerRegistration') ||
        isKind(a, CORE, 'BackupEntry') ||
        isKind(a, SEEDMANAGEMENT, 'Gardenlet') ||
        isKind(a, SEEDMANAGEMENT, 'ManagedSeed') ||
        ((isKind(a, CORE, 'CloudProfile') || isKind(a, CORE, 'NamespacedCloudProfile')) && a.operation === 'UPDATE')
      );
    },
    admit(a) {
      if (!isKind(a, CORE, 'Shoot') || a.operation !== 'CREATE' || !a.userInfo.username) return allow();
      const object = a.object!;
      if (object.metadata?.annotations?.[Annotations.GardenerCreatedBy]) return allow();
      return mutated({
        ...object,
        metadata: {
          ...object.metadata,
          annotations: { ...object.metadata?.annotations, [Annotations.GardenerCreatedBy]: a.userInfo.username },
        },
      });
    },
    validate(a, listers) {
      if (isKind(a, CORE, 'CloudProfile')) return checkCloudProfileUpdate(a, listers);
      if (isKind(a, CORE, 'NamespacedCloudProfile')) return checkNamespacedCloudProfileUpdate(a, listers, now());
      if (isKind(a, CORE, 'Shoot')) return checkShootReferences(a, listers);
      if (isKind(a, CORE, 'Project')) return checkProjectNamespace(a, listers);
      if (isKind(a, CORE, 'ControllerRegistration')) return checkControllerDeployments(a, listers);
      if (isKind(a, CORE, 'BackupBucket'))
        return a.operation === 'DELETE'
          ? checkBackupBucketDeletion(a, listers)
          : checkBackupBucketReferences(a, listers);
      if (isKind(a, CORE, 'BackupEntry')) return checkBackupEntryReferences(a, listers);
      if (isKind(a, SEEDMANAGEMENT, 'Gardenlet') || isKind(a, SEEDMANAGEMENT, 'ManagedSeed'))
        return checkGardenletManagedSeedName(a, listers);
      return checkBindingReferences(a, listers);
    },
  };
}

/** The ResourceReferenceManager admission plugin. */
export const ResourceReferenceManager: AdmissionPlugin = newResourceReferenceManager();

/** A CloudProfile may not lose versions that Shoots or NamespacedCloudProfiles still use. */
async function checkCloudProfileUpdate(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  if (!a.oldObject) return allow();
  const shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot');
  const namespaced = await listers.list('core.gardener.cloud/v1beta1', 'NamespacedCloudProfile');
  const errors = [
    ...cloudProfileRemovalErrors(a.object!, a.oldObject, shoots, namespaced),
    ...cloudProfileUpdateErrors(a.object!, a.oldObject, shoots, namespaced),
  ];
  return errors.length > 0 ? forbidden(a, multiErrorText(errors)) : allow();
}

/**
 * A NamespacedCloudProfile may not drop version overrides its Shoots still need, nor lower its limits below them; a
 * missing parent CloudProfile is a 500, as in Gardener.
 */
async function checkNamespacedCloudProfileUpdate(
  a: AdmissionAttributes,
  listers: Listers,
  now: Date,
): Promise<AdmissionDecision> {
  if (!a.oldObject) return allow();
  const profile = a.object!;
  const parentName: string = profile.spec?.parent?.name ?? '';
  const parent = await listers.get(CORE_V1BETA1, 'CloudProfile', parentName);
  if (!parent)
    return internalError(
      `could not get parent CloudProfile: ${notFoundText('cloudprofile', 'core.gardener.cloud', parentName)}`,
    );
  const shoots = await listers.list(CORE_V1BETA1, 'Shoot', profile.metadata?.namespace ?? a.namespace);
  const errors = namespacedCloudProfileUpdateErrors(profile, a.oldObject, shoots, parent, now);
  return errors.length > 0 ? forbidden(a, multiErrorText(errors)) : allow();
}
