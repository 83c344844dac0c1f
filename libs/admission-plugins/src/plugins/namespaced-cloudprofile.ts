// NamespacedCloudProfileValidator (gardener-apiserver plugin/pkg/namespacedcloudprofile/validator): a
// NamespacedCloudProfile needs its parent CloudProfile; it may not overwrite the parent's machine types, and the
// parent's Kubernetes and machine image versions it lists may only get an expiration date, its own machine images must
// be valid ones, and the profile merged with its parent must be a valid CloudProfile spec (rules in
// `namespaced-cloudprofile-rules.ts`, the CloudProfile checks in `cloudprofile-spec-validation.ts`). The custom verbs Gardener's CustomVerbAuthorizer asks for NamespacedCloudProfiles
// (`modify-spec-kubernetes`, `modify-spec-machineimages`, `modify-spec-providerconfig`, `raise-spec-limits`) are
// checked here first.
import { allow, badRequest, CORE, forbidden, isKind, unknownError, type AdmissionAttributes } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import {
  aggregateErrors,
  kubernetesOverrideError,
  machineImageOverrideErrors,
  mergedProfileErrors,
  mergedProfileMessage,
  neededVerbs,
  overwrittenMachineType,
  semanticEqual,
  type OldProfile,
  type ProfileSpec,
} from './namespaced-cloudprofile-rules.js';

/** Whether an UPDATE changes nothing Gardener's validator looks at (spec and metadata, or spec while deleting). */
function unchanged(a: AdmissionAttributes): boolean {
  if (a.operation !== 'UPDATE' || !a.oldObject) return false;
  const object = a.object!;
  return (
    semanticEqual(object.spec, a.oldObject.spec) &&
    (semanticEqual(object.metadata, a.oldObject.metadata) || Boolean(object.metadata?.deletionTimestamp))
  );
}

/** The NamespacedCloudProfileValidator admission plugin. */
export const NamespacedCloudProfileValidator: AdmissionPlugin = {
  name: 'NamespacedCloudProfileValidator',
  handles: (a) =>
    isKind(a, CORE, 'NamespacedCloudProfile') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  async validate(a, listers, now = new Date()) {
    const spec: ProfileSpec = a.object!.spec ?? {};
    const old: OldProfile | undefined = a.operation === 'UPDATE' ? ((a.oldObject ?? {}) as OldProfile) : undefined;
    const parentName: string = (a.object!.spec?.parent?.name as string | undefined) ?? '';
    const parent = await listers.get('core.gardener.cloud/v1beta1', 'CloudProfile', parentName);
    if (!parent) return badRequest('parent CloudProfile could not be found');
    const parentSpec: ProfileSpec = parent.spec ?? {};

    for (const { verb, operation } of neededVerbs(spec, old?.spec, parentSpec)) {
      const allowed =
        listers.authorize !== undefined &&
        (await listers.authorize(a.userInfo, {
          verb,
          group: a.resource.group,
          resource: a.resource.resource,
          ...(a.namespace ? { namespace: a.namespace } : {}),
          ...(a.name ? { name: a.name } : {}),
        }));
      if (!allowed)
        return forbidden(
          a,
          `user ${JSON.stringify(a.userInfo.username ?? '')} is not allowed to ${operation} for ${JSON.stringify(a.resource.resource)}`,
        );
    }

    if (unchanged(a)) return allow();
    const machineType = overwrittenMachineType(spec, parentSpec, old?.spec);
    if (machineType)
      return badRequest(
        `NamespacedCloudProfile attempts to overwrite parent CloudProfile with machineType: ${JSON.stringify(machineType)}`,
      );
    const kubernetes = kubernetesOverrideError(spec, parentSpec, old, now);
    if (kubernetes) return unknownError(kubernetes);
    const images = machineImageOverrideErrors(spec, parentSpec, old, now);
    if (images.length > 0) return unknownError(aggregateErrors(images));
    const merged = mergedProfileErrors(parentSpec, spec);
    if (merged.length > 0) return unknownError(mergedProfileMessage(merged));
    return allow();
  },
};
