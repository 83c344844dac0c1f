// ShootValidator (gardener-apiserver plugin/pkg/shoot/validator): takes the Shoot's defaults from its CloudProfile
// (or NamespacedCloudProfile) — the Kubernetes version (omitted → the highest supported version, `major.minor` → its
// highest patch) and the machine image and version of worker pools — and validates the Shoot against the profile:
// Kubernetes and machine image versions (unknown or expired ones are not supported), the region and its zones,
// machine types and volume types, worker pools' own Kubernetes versions and their machine image versions'
// `kubeletVersionConstraint`, access restrictions (offered in the region, supported by the seed). On UPDATE only what
// changed is checked, so shoots keep running on versions that expired after they chose them. It also checks what
// Gardener checks against the garden: a new Shoot's project (exists, not in deletion, project and Shoot name within
// 21 characters), the Seed a Shoot is scheduled to (a new Shoot naming one needs `update` on `shoots/binding`; not in
// deletion, taints tolerated, room left, the profile's seed selector, three zones for zone failure tolerance; a Shoot
// on a Seed in deletion may only confirm its deletion), that no other Shoot uses the same DNS domain or one above or
// below it, the profile's `limits.maxNodesTotal`, the Shoot's networks against a Seed it is (re)scheduled to, and the
// Shoot's lifecycle (no spec change once rescheduled to a new seed or while migrated/restored, no deletion while
// migrated/restored, no hibernation while the `HibernationPossible` constraint is not True). Worker pools are also
// checked for machine capabilities, root and data volume minimum sizes and kubelet reservations
// (shoot-worker-machine.ts); the managed service account issuer against the garden's configuration
// (shoot-managed-issuer.ts); the admission plugins' kubeconfig Secrets against `spec.resources`
// (shoot-admission-plugin-kubeconfigs.ts); a new Shoot's OIDC configuration for its client ID and issuer URL
// (shoot-oidc-config.ts); the Shoot's networks once it has a seed (shoot-validator-networks.ts).
import { isDeepStrictEqual } from 'node:util';
import {
  applyCloudProfileDefaults,
  FieldPath,
  forbidden as fieldForbidden,
  invalid,
  labelSelectorMatches,
  notSupported,
  quantityValue,
  type CloudProfile,
  type corev1beta1,
  type FieldError,
  type Shoot,
} from '@gardener-ts/api';
import {
  allow,
  CORE,
  forbidden,
  forbiddenFields,
  internalError,
  invalidObject,
  isKind,
  mutated,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { validateAccessRestrictions } from './shoot-access-restrictions.js';
import { validateAdmissionPluginKubeconfigs } from './shoot-admission-plugin-kubeconfigs.js';
import { validateDNSDomainUniqueness } from './shoot-dns-uniqueness.js';
import { validateManagedIssuer } from './shoot-managed-issuer.js';
import { validateNewShootOIDCConfig } from './shoot-oidc-config.js';
import { validateShootNetworks } from './shoot-validator-networks.js';
import {
  validateContainerRuntimeInterface,
  validateMachineType,
  validateVolumeType,
} from './shoot-worker-constraints.js';
import {
  imageVersionArchitectures,
  validateDataVolumeMinimumSizes,
  validateKubeletReservations,
  validateMachineCapabilities,
  validateVolumeMinimumSize,
} from './shoot-worker-machine.js';
import { validateKubeletVersionConstraint, validateWorkerKubernetesVersion } from './shoot-worker-versions.js';

type CloudProfileSpec = corev1beta1.CloudProfileSpec;
type ExpirableVersion = corev1beta1.ExpirableVersion;

/** The CloudProfile reference of a Shoot: `spec.cloudProfile`, else the older `spec.cloudProfileName`. */
export function cloudProfileReference(
  shoot: Shoot,
): { kind: 'CloudProfile' | 'NamespacedCloudProfile'; name: string } | undefined {
  const ref = shoot.spec.cloudProfile;
  if (ref?.name)
    return {
      kind: (ref.kind as 'CloudProfile' | 'NamespacedCloudProfile' | undefined) ?? 'CloudProfile',
      name: ref.name,
    };
  return shoot.spec.cloudProfileName ? { kind: 'CloudProfile', name: shoot.spec.cloudProfileName } : undefined;
}

/** The effective profile spec for a Shoot: a CloudProfile's spec, or a NamespacedCloudProfile's computed status spec. */
export async function cloudProfileSpecFor(
  shoot: Shoot,
  namespace: string | undefined,
  listers: Listers,
): Promise<{ spec?: CloudProfileSpec; error?: string }> {
  const ref = cloudProfileReference(shoot);
  if (!ref) return { error: 'could not find referenced cloud profile: no cloud profile is referenced' };
  if (ref.kind === 'NamespacedCloudProfile') {
    const profile = await listers.get('core.gardener.cloud/v1beta1', 'NamespacedCloudProfile', ref.name, namespace);
    if (!profile)
      return {
        error: `could not find referenced cloud profile: namespacedcloudprofiles.core.gardener.cloud "${ref.name}" not found`,
      };
    const spec = profile.status?.cloudProfileSpec as CloudProfileSpec | undefined;
    if (spec) return { spec };
    // Not yet computed by the controller: fall back to the parent's spec.
    const parent = await listers.get('core.gardener.cloud/v1beta1', 'CloudProfile', profile.spec?.parent?.name ?? '');
    if (!parent)
      return {
        error: `could not find referenced cloud profile: cloudprofiles.core.gardener.cloud "${profile.spec?.parent?.name ?? ''}" not found`,
      };
    return { spec: (parent as unknown as CloudProfile).spec };
  }
  const profile = await listers.get('core.gardener.cloud/v1beta1', 'CloudProfile', ref.name);
  if (!profile)
    return {
      error: `could not find referenced cloud profile: cloudprofiles.core.gardener.cloud "${ref.name}" not found`,
    };
  return { spec: (profile as unknown as CloudProfile).spec };
}

const expired = (v: ExpirableVersion, now: Date) =>
  v.classification === 'expired' ||
  v.classification === 'unavailable' ||
  (v.expirationDate !== undefined && new Date(v.expirationDate) <= now);

/** Versions a new or changed Shoot may use: known and not expired. */
function usableVersions(versions: readonly ExpirableVersion[] | undefined, now: Date): string[] {
  return (versions ?? []).filter((v) => !expired(v, now)).map((v) => v.version);
}

/** The validation of a (defaulted) Shoot against its profile; `old` limits the checks to what changed. */
export function validateShootAgainstProfile(
  shoot: Shoot,
  old: Shoot | undefined,
  profile: CloudProfileSpec,
  now = new Date(),
): FieldError[] {
  const errors: FieldError[] = [];
  const spec = FieldPath.root('spec');
  const version = shoot.spec.kubernetes.version;
  if (version && version !== old?.spec.kubernetes.version) {
    const valid = usableVersions(profile.kubernetes.versions, now);
    if (!valid.includes(version)) errors.push(notSupported(spec.child('kubernetes', 'version'), version, valid));
  }

  const regionChanged = shoot.spec.region !== old?.spec.region;
  const region = profile.regions.find((r) => r.name === shoot.spec.region);
  if (regionChanged && !region) {
    errors.push(
      notSupported(
        spec.child('region'),
        shoot.spec.region,
        profile.regions.map((r) => r.name),
      ),
    );
  }

  const oldWorkers = new Map((old?.spec.provider.workers ?? []).map((w) => [w.name, w]));
  (shoot.spec.provider.workers ?? []).forEach((worker, i) => {
    const path = spec.child('provider', 'workers').index(i);
    const before = regionChanged ? undefined : oldWorkers.get(worker.name);
    const architecture = worker.machine.architecture ?? 'amd64';

    const machineErrors = errors.length;
    errors.push(...validateMachineType(worker, before, profile, region, path));

    const image = worker.machine.image;
    if (image && (image.name !== before?.machine.image?.name || image.version !== before?.machine.image?.version)) {
      const profileImage = profile.machineImages.find((m) => m.name === image.name);
      if (!profileImage) {
        errors.push(
          notSupported(
            path.child('machine', 'image', 'name'),
            image.name,
            profile.machineImages.map((m) => m.name),
          ),
        );
      } else if (image.version) {
        const valid = usableVersions(
          profileImage.versions.filter((v) =>
            imageVersionArchitectures(v, profile.machineCapabilities).includes(architecture),
          ),
          now,
        );
        if (!valid.includes(image.version))
          errors.push(notSupported(path.child('machine', 'image', 'version'), image.version, valid));
      }
    }
    // CRI and kubelet constraint are checked once machine type and image passed, as in Gardener; the kubelet
    // constraint on every change (a control plane upgrade too).
    if (errors.length === machineErrors) {
      errors.push(...validateContainerRuntimeInterface(worker, before, profile.machineImages, path));
      errors.push(...validateKubeletVersionConstraint(shoot, worker, profile.machineImages, path));
      errors.push(...validateMachineCapabilities(worker, before, profile, path));
    }
    errors.push(
      ...validateWorkerKubernetesVersion(
        worker,
        oldWorkers.get(worker.name),
        old,
        profile.kubernetes.versions,
        path,
        now,
      ),
    );
    const volumeTypeErrors = validateVolumeType(worker, before, profile, region, path);
    errors.push(...volumeTypeErrors);
    if (volumeTypeErrors.length === 0) errors.push(...validateVolumeMinimumSize(worker, profile, path));
    errors.push(...validateDataVolumeMinimumSizes(worker, profile, path));
    if (worker.kubernetes)
      errors.push(
        ...validateKubeletReservations(
          worker.kubernetes.kubelet ?? shoot.spec.kubernetes.kubelet,
          profile.machineTypes.find((t) => t.name === worker.machine.type),
          path.child('kubernetes', 'kubelet'),
        ),
      );

    if (region && JSON.stringify(worker.zones ?? []) !== JSON.stringify(before?.zones ?? [])) {
      const valid = (region.zones ?? []).map((z) => z.name);
      const oldZones = new Set(before?.zones ?? []);
      (worker.zones ?? []).forEach((zone, j) => {
        if (!oldZones.has(zone) && !valid.includes(zone))
          errors.push(notSupported(path.child('zones').index(j), zone, valid));
      });
    }
  });
  return errors;
}

/**
 * The worker limits of the profile (`spec.limits.maxNodesTotal`): no pool's maximum above it, and the sum of the
 * pools' minimums not above it either.
 */
export function validateMaxNodesTotal(shoot: Shoot, profile: CloudProfileSpec): FieldError[] {
  const max = profile.limits?.maxNodesTotal;
  if (max === undefined || shoot.metadata?.deletionTimestamp) return [];
  const workers = FieldPath.root('spec', 'provider', 'workers');
  const errors: FieldError[] = [];
  let totalMinimum = 0;
  (shoot.spec.provider.workers ?? []).forEach((worker, i) => {
    totalMinimum += worker.minimum ?? 0;
    if ((worker.maximum ?? 0) > max)
      errors.push(
        fieldForbidden(
          workers.index(i).child('maximum'),
          `the maximum node count of a worker pool must not exceed the limit of ${max} configured in the CloudProfile`,
        ),
      );
  });
  if (totalMinimum > max)
    errors.push(
      fieldForbidden(
        workers,
        `the total minimum node count of all worker pools must not exceed the limit of ${max} configured in the CloudProfile`,
      ),
    );
  return errors;
}

/** Gardener's limit on the project name and Shoot name together (they make up the technical ID). */
const NAME_LENGTH_LIMIT = 21;
const GENERATE_NAME_RANDOM_LENGTH = 5;

/** A new Shoot's project: it must exist, not be in deletion, and leave room for the Shoot's name. */
async function validateProjectMembership(a: AdmissionAttributes, shoot: Shoot, listers: Listers) {
  const projects = await listers.list('core.gardener.cloud/v1beta1', 'Project');
  const project = projects.find((p) => p.spec?.namespace === a.namespace);
  if (!project)
    return internalError('could not find referenced project: Project.core.gardener.cloud "<unknown>" not found');
  const projectName = project.metadata?.name ?? '';
  const name = shoot.metadata?.name ?? '';
  const generateName = shoot.metadata?.generateName ?? '';
  const namePath = FieldPath.root('name');
  if (!name && generateName) {
    const limit = NAME_LENGTH_LIMIT - GENERATE_NAME_RANDOM_LENGTH;
    if ((projectName + generateName).length > limit)
      return invalidObject(a, [
        invalid(
          namePath,
          name,
          `the length of the shoot generateName and the project name must not exceed ${limit} characters (project: ${projectName}; shoot with generateName: ${generateName})`,
        ),
      ]);
  } else if ((projectName + name).length > NAME_LENGTH_LIMIT) {
    return invalidObject(a, [
      invalid(
        namePath,
        name,
        `the length of the shoot name and the project name must not exceed ${NAME_LENGTH_LIMIT} characters (project: ${projectName}; shoot: ${name})`,
      ),
    ]);
  }
  if (project.metadata?.deletionTimestamp)
    return forbidden(
      a,
      `cannot create shoot '${name}' in project '${projectName}' that is already marked for deletion`,
    );
  return allow();
}

/** Whether the Shoot tolerates every taint of the Seed (Gardener's TaintsAreTolerated). */
export function taintsAreTolerated(
  taints: readonly { key: string; value?: string }[] | undefined,
  tolerations: readonly { key: string; value?: string }[] | undefined,
): boolean {
  if (!taints?.length) return true;
  if (taints.length > (tolerations?.length ?? 0)) return false;
  const values = new Map((tolerations ?? []).map((t) => [t.key, t.value ?? '']));
  return taints.every((t) => values.has(t.key) && (t.value === undefined || t.value === values.get(t.key)));
}

/** Shoots per seed, counting a Shoot on its spec and (when different) status seed (Gardener's CalculateSeedUsage). */
function shootsScheduledTo(shoots: readonly KubeObject[], seedName: string): number {
  let count = 0;
  for (const shoot of shoots) {
    const spec: string | undefined = shoot.spec?.seedName;
    if (spec === seedName) count++;
    if (
      shoot.status?.seedName !== undefined &&
      shoot.status.seedName !== (spec ?? '') &&
      shoot.status.seedName === seedName
    )
      count++;
  }
  return count;
}

const CONFIRMATION_DELETION = 'confirmation.gardener.cloud/deletion';

/**
 * The Seed-related checks of Gardener's validateScheduling. On UPDATE the seed can never be removed; a change of seed
 * is the `shoots/binding` subresource's (control plane migration, see below). When a Shoot is scheduled (a seed set
 * where none was) or rescheduled, the Seed must not be in deletion, its taints must be tolerated, it must have room
 * (`status.allocatable.shoots`) and match the profile's seed selector (labels, `providerTypes`); a rescheduled Shoot
 * needs backup on its old and its new Seed. A highly available Shoot with zone failure tolerance needs a Seed with
 * three zones; a Shoot on a Seed in deletion may only change its deletion confirmation. The destination's health is
 * not checked here, as in Gardener: the source seed's gardenlet starts the migration only once it is ready.
 */
async function validateSeed(
  a: AdmissionAttributes,
  shoot: Shoot,
  old: Shoot | undefined,
  profile: CloudProfileSpec,
  listers: Listers,
): Promise<AdmissionDecision> {
  const seedName = shoot.spec.seedName;
  const oldSeedName = old?.spec.seedName;
  if (oldSeedName !== undefined && seedName === undefined)
    return forbidden(a, `spec.seedName is already set to '${oldSeedName}' and cannot be changed to 'nil'`);
  if (!seedName) return allow();
  const seed = await listers.get('core.gardener.cloud/v1beta1', 'Seed', seedName);
  if (!seed)
    return internalError(
      `could not find referenced seed "${seedName}": seed.core.gardener.cloud "${seedName}" not found`,
    );
  const name = shoot.metadata?.name ?? '';
  const mayBind = async () =>
    listers.authorize !== undefined &&
    (await listers.authorize(a.userInfo, {
      verb: 'update',
      group: a.resource.group,
      resource: a.resource.resource,
      subresource: 'binding',
      ...(a.namespace ? { namespace: a.namespace } : {}),
      name: a.name ?? name,
    }));
  const scheduled = oldSeedName === undefined;
  const rescheduled = oldSeedName !== undefined && oldSeedName !== seedName;
  if (a.operation === 'CREATE') {
    // Choosing the seed of a new Shoot is the scheduler's right: `update` on `shoots/binding` (Gardener's authorize).
    if (!(await mayBind()))
      return forbidden(
        a,
        `user "${a.userInfo.username ?? ''}" is not allowed to set .spec.seedName for "${a.resource.resource}"`,
      );
  } else if (rescheduled) {
    // Our Shoots are CRDs, which cannot have Gardener's `shoots/binding` subresource: an update that changes
    // spec.seedName, by a user allowed to `update shoots/binding` (cluster admins are), is taken as that subresource
    // (control plane migration). Anyone else gets Gardener's answer to a patch of the seed.
    if (!(await mayBind()))
      return forbidden(
        a,
        `spec.seedName '${oldSeedName}' cannot be changed to '${seedName}' by patching the shoot, please use the shoots/binding subresource`,
      );
    if (!isDeepStrictEqual({ ...shoot.spec, seedName: oldSeedName }, old!.spec))
      return forbidden(
        a,
        'only spec.seedName can be changed using the binding subresource when the shoot is being rescheduled to a new seed',
      );
  }
  if (scheduled || rescheduled) {
    if (seed.metadata?.deletionTimestamp)
      return forbidden(a, `cannot schedule shoot '${name}' on seed '${seedName}' that is already marked for deletion`);
    if (!taintsAreTolerated(seed.spec?.taints, shoot.spec.tolerations))
      return forbidden(a, 'forbidden to use a seed whose taints are not tolerated by the shoot');
    const allocatable = seed.status?.allocatable?.shoots;
    if (allocatable !== undefined) {
      const max = quantityValue(allocatable);
      const count = shootsScheduledTo(await listers.list('core.gardener.cloud/v1beta1', 'Shoot'), seedName);
      if (count >= max)
        return forbidden(
          a,
          `cannot schedule shoot '${name}' on seed '${seedName}' that already has the maximum number of shoots scheduled on it (${max})`,
        );
    }
    const selector = profile.seedSelector;
    if (selector) {
      const { providerTypes, ...labelSelector } = selector;
      if (!labelSelectorMatches(labelSelector, seed.metadata?.labels))
        return forbidden(
          a,
          `cannot schedule shoot '${name}' on seed '${seedName}' because the cloud profile seed selector is not matching the labels of the seed`,
        );
      if (providerTypes && !providerTypes.some((t) => t === seed.spec?.provider?.type || t === '*'))
        return forbidden(
          a,
          `cannot schedule shoot '${name}' on seed '${seedName}' because none of the provider types in the cloud profile seed selector is matching the provider type of the seed`,
        );
    }
  }
  if (rescheduled) {
    const oldSeed = await listers.get('core.gardener.cloud/v1beta1', 'Seed', oldSeedName);
    if (!oldSeed)
      return internalError(`could not find referenced seed: seed.core.gardener.cloud "${oldSeedName}" not found`);
    if (!oldSeed.spec?.backup)
      return forbidden(a, `cannot change seed name because backup is not configured for old seed "${oldSeedName}"`);
    if (!seed.spec?.backup)
      return forbidden(a, `cannot change seed name because backup is not configured for seed "${seedName}"`);
  }
  const zones: string[] = seed.spec?.provider?.zones ?? [];
  if (shoot.spec.controlPlane?.highAvailability?.failureTolerance?.type === 'zone' && zones.length < 3)
    return forbidden(
      a,
      `cannot schedule shoot '${name}' with failure tolerance of zone on seed '${seedName}' with only ${zones.length} zones, at least 3 zones are required`,
    );
  if (seed.metadata?.deletionTimestamp && old) {
    const annotations = { ...shoot.metadata?.annotations };
    const oldAnnotations = { ...old.metadata?.annotations };
    if (CONFIRMATION_DELETION in annotations)
      oldAnnotations[CONFIRMATION_DELETION] = annotations[CONFIRMATION_DELETION]!;
    if (!isDeepStrictEqual(annotations, oldAnnotations))
      return forbidden(
        a,
        `cannot update annotations of shoot '${name}' on seed '${seedName}' already marked for deletion: only the '${CONFIRMATION_DELETION}' annotation can be changed`,
      );
    if (!isDeepStrictEqual(shoot.spec, old.spec))
      return forbidden(a, `cannot update spec of shoot '${name}' on seed '${seedName}' already marked for deletion`);
  }
  return allow();
}

/** The Shoot's seed was changed but its migration has not started yet (Gardener's wasShootRescheduledToNewSeed). */
export function wasRescheduledToNewSeed(shoot: Shoot): boolean {
  const op = shoot.status?.lastOperation;
  return (
    op !== undefined &&
    op.type !== 'Migrate' &&
    shoot.spec.seedName !== undefined &&
    shoot.status?.seedName !== undefined &&
    shoot.spec.seedName !== shoot.status.seedName
  );
}

/** The Shoot is being migrated, or restored and not done yet (Gardener's isShootInMigrationOrRestorePhase). */
export function inMigrationOrRestorePhase(shoot: Shoot): boolean {
  const op = shoot.status?.lastOperation;
  return op !== undefined && ((op.type === 'Restore' && op.state !== 'Succeeded') || op.type === 'Migrate');
}

/**
 * What an UPDATE may not do in the Shoot's lifecycle: change the spec after the Shoot was rescheduled to a new seed
 * or while it is migrated or restored; hibernate while the `HibernationPossible` constraint is not True.
 */
function validateSpecChangeInLifecycle(a: AdmissionAttributes, shoot: Shoot, old: Shoot): AdmissionDecision {
  if (!isDeepStrictEqual(old.spec, shoot.spec)) {
    if (wasRescheduledToNewSeed(shoot))
      return forbidden(a, 'shoot spec cannot be changed because shoot has been rescheduled to a new seed');
    if (inMigrationOrRestorePhase(shoot)) {
      const op = shoot.status!.lastOperation!;
      return forbidden(a, `cannot change shoot spec during ${op.type} operation that is in state ${op.state}`);
    }
  }
  if (old.spec.hibernation?.enabled !== true && shoot.spec.hibernation?.enabled === true) {
    const constraint = (shoot.status?.constraints ?? []).find((c) => c.type === 'HibernationPossible');
    if (constraint && constraint.status !== 'True')
      return forbidden(a, `'HibernationPossible' constraint is '${constraint.status}': ${constraint.message ?? ''}`);
  }
  return allow();
}

/** A Shoot cannot be deleted while it is migrated or restored. */
function validateDeletion(a: AdmissionAttributes, shoot: Shoot | undefined): AdmissionDecision {
  if (!shoot || !inMigrationOrRestorePhase(shoot)) return allow();
  const op = shoot.status!.lastOperation!;
  return forbidden(a, `cannot mark shoot for deletion during ${op.type} operation that is in state ${op.state}`);
}

async function profileFor(
  a: AdmissionAttributes,
  listers: Listers,
): Promise<{ spec?: CloudProfileSpec; denial?: AdmissionDecision }> {
  const { spec, error } = await cloudProfileSpecFor(a.object as unknown as Shoot, a.namespace, listers);
  return spec ? { spec } : { denial: forbidden(a, error!) };
}

/** The ShootValidator admission plugin. */
export const ShootValidator: AdmissionPlugin = {
  name: 'ShootValidator',
  handles: (a) =>
    isKind(a, CORE, 'Shoot') &&
    !a.subresource &&
    (((a.operation === 'CREATE' || a.operation === 'UPDATE') && Boolean(a.object)) ||
      (a.operation === 'DELETE' && Boolean(a.oldObject))),
  async admit(a, listers) {
    if (a.operation === 'DELETE') return allow();
    // A Shoot being deleted keeps what it has (finalizer removal must not be blocked by a vanished profile).
    if (a.object?.metadata?.deletionTimestamp) return allow();
    const shoot = a.object as unknown as Shoot;
    if (!shoot.spec?.kubernetes || !shoot.spec.provider) return allow(); // the schema validation reports it
    const { spec, denial } = await profileFor(a, listers);
    if (!spec) return denial!;
    const defaulted = applyCloudProfileDefaults(shoot, spec);
    return JSON.stringify(defaulted) === JSON.stringify(shoot) ? allow() : mutated(defaulted as unknown as KubeObject);
  },
  async validate(a, listers) {
    if (a.operation === 'DELETE') return validateDeletion(a, a.oldObject as unknown as Shoot);
    if (a.object?.metadata?.deletionTimestamp) return allow();
    const shoot = a.object as unknown as Shoot;
    if (!shoot.spec?.kubernetes || !shoot.spec.provider) return allow();
    const { spec, denial } = await profileFor(a, listers);
    if (!spec) return denial!;
    const old = a.operation === 'UPDATE' ? (a.oldObject as unknown as Shoot | undefined) : undefined;
    if (a.operation === 'CREATE') {
      const membership = await validateProjectMembership(a, shoot, listers);
      if (!membership.allowed) return membership;
    }
    const scheduling = await validateSeed(a, shoot, old, spec, listers);
    if (!scheduling.allowed) return scheduling;
    // A change of seed is the binding (validateSeed allowed it); the spec rules of a regular update do not apply to it.
    const rebound = old?.spec.seedName !== undefined && old.spec.seedName !== shoot.spec.seedName;
    if (old && !rebound) {
      const lifecycle = validateSpecChangeInLifecycle(a, shoot, old);
      if (!lifecycle.allowed) return lifecycle;
    }
    const issuer = await validateManagedIssuer(a.object!, a.oldObject ?? undefined, listers);
    if (issuer) return issuer.code === 403 ? forbidden(a, issuer.reason) : internalError(issuer.reason);
    const seed = shoot.spec.seedName
      ? await listers.get('core.gardener.cloud/v1beta1', 'Seed', shoot.spec.seedName)
      : undefined;
    const errors = [
      ...validateShootAgainstProfile(shoot, old, spec),
      ...(a.operation === 'CREATE' ? validateNewShootOIDCConfig(a.object!) : []),
      ...(await validateAdmissionPluginKubeconfigs(a.object!, a.namespace, listers)),
      ...validateMaxNodesTotal(shoot, spec),
      ...validateAccessRestrictions(shoot, old, spec, seed),
      // With a seed: networks required and disjoint; scheduled or moved to a seed: not overlapping the seed's.
      ...validateShootNetworks(shoot, seed, old?.spec.seedName !== shoot.spec.seedName),
    ];
    if (!old || !isDeepStrictEqual(old.spec, shoot.spec))
      errors.push(
        ...validateDNSDomainUniqueness(shoot, a.namespace, await listers.list('core.gardener.cloud/v1beta1', 'Shoot')),
      );
    return errors.length > 0 ? forbiddenFields(a, errors) : allow();
  },
};
