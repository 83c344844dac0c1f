// ShootValidator (gardener-apiserver plugin/pkg/shoot/validator): takes the Shoot's defaults from its CloudProfile
// (or NamespacedCloudProfile) — the Kubernetes version (omitted → the highest supported version, `major.minor` → its
// highest patch) and the machine image and version of worker pools — and validates the Shoot against the profile:
// Kubernetes and machine image versions (unknown or expired ones are not supported), the region and its zones,
// machine types and volume types. On UPDATE only what changed is checked, so shoots keep running on versions that
// expired after they chose them.
import {
  applyCloudProfileDefaults,
  FieldPath,
  notSupported,
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
  isKind,
  mutated,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

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

    if (worker.machine.type !== before?.machine.type) {
      const valid = profile.machineTypes
        .filter((t) => t.usable !== false && (t.architecture ?? 'amd64') === architecture)
        .map((t) => t.name);
      if (!valid.includes(worker.machine.type))
        errors.push(notSupported(path.child('machine', 'type'), worker.machine.type, valid));
    }

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
          profileImage.versions.filter((v) => (v.architectures ?? ['amd64']).includes(architecture)),
          now,
        );
        if (!valid.includes(image.version))
          errors.push(notSupported(path.child('machine', 'image', 'version'), image.version, valid));
      }
    }

    const volumeType = worker.volume?.type;
    if (volumeType && volumeType !== before?.volume?.type) {
      const valid = (profile.volumeTypes ?? []).filter((v) => v.usable !== false).map((v) => v.name);
      if (!valid.includes(volumeType)) errors.push(notSupported(path.child('volume', 'type'), volumeType, valid));
    }

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
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  async admit(a, listers) {
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
    if (a.object?.metadata?.deletionTimestamp) return allow();
    const shoot = a.object as unknown as Shoot;
    if (!shoot.spec?.kubernetes || !shoot.spec.provider) return allow();
    const { spec, denial } = await profileFor(a, listers);
    if (!spec) return denial!;
    const old = a.operation === 'UPDATE' ? (a.oldObject as unknown as Shoot | undefined) : undefined;
    const errors = validateShootAgainstProfile(shoot, old, spec);
    return errors.length > 0 ? forbiddenFields(a, errors) : allow();
  },
};
