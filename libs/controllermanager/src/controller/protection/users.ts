// Who still uses a protected object (Gardener's in-use checks before a finalizer may go): Shoots and
// NamespacedCloudProfiles of a CloudProfile, Shoots of a NamespacedCloudProfile or an ExposureClass, SecretBindings and
// CredentialsBindings of a Quota, ControllerRegistrations of a ControllerDeployment. Pure: lists in, `namespace/name`s out.
import type {
  ControllerRegistration,
  CredentialsBinding,
  NamespacedCloudProfile,
  SecretBinding,
  Shoot,
} from '@gardener-ts/api';

const key = (o: { metadata?: { namespace?: string; name?: string } }) =>
  o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : (o.metadata?.name ?? '');

/** The CloudProfile a shoot names: `spec.cloudProfile` (kind CloudProfile by default) or `spec.cloudProfileName`. */
export function cloudProfileOfShoot(shoot: Shoot): { kind: string; name: string } | undefined {
  if (shoot.spec.cloudProfile)
    return { kind: shoot.spec.cloudProfile.kind ?? 'CloudProfile', name: shoot.spec.cloudProfile.name };
  return shoot.spec.cloudProfileName ? { kind: 'CloudProfile', name: shoot.spec.cloudProfileName } : undefined;
}

/** Shoots and NamespacedCloudProfiles using the CloudProfile `name`. */
export function cloudProfileUsers(
  name: string,
  shoots: readonly Shoot[],
  namespaced: readonly NamespacedCloudProfile[],
): string[] {
  return [
    ...shoots.filter((s) => {
      const ref = cloudProfileOfShoot(s);
      return ref?.kind === 'CloudProfile' && ref.name === name;
    }),
    ...namespaced.filter((n) => n.spec.parent.name === name),
  ]
    .map(key)
    .sort();
}

/** Shoots in `namespace` using the NamespacedCloudProfile `name`. */
export function namespacedCloudProfileUsers(namespace: string, name: string, shoots: readonly Shoot[]): string[] {
  return shoots
    .filter((s) => s.metadata?.namespace === namespace)
    .filter((s) => {
      const ref = cloudProfileOfShoot(s);
      return ref?.kind === 'NamespacedCloudProfile' && ref.name === name;
    })
    .map(key)
    .sort();
}

/** Shoots using the ExposureClass `name`. */
export function exposureClassUsers(name: string, shoots: readonly Shoot[]): string[] {
  return shoots
    .filter((s) => s.spec.exposureClassName === name)
    .map(key)
    .sort();
}

/** SecretBindings and CredentialsBindings counting against the Quota `namespace/name`. */
export function quotaUsers(
  namespace: string,
  name: string,
  secretBindings: readonly SecretBinding[],
  credentialsBindings: readonly CredentialsBinding[],
): string[] {
  const uses = (quotas: readonly { name?: string; namespace?: string }[] | undefined) =>
    (quotas ?? []).some((q) => q.name === name && (q.namespace ?? '') === namespace);
  return [...secretBindings.filter((b) => uses(b.quotas)), ...credentialsBindings.filter((b) => uses(b.quotas))]
    .map(key)
    .sort();
}

/** ControllerRegistrations deploying with the ControllerDeployment `name`. */
export function controllerDeploymentUsers(name: string, registrations: readonly ControllerRegistration[]): string[] {
  return registrations
    .filter((r) => (r.spec.deployment?.deploymentRefs ?? []).some((ref) => ref.name === name))
    .map(key)
    .sort();
}
