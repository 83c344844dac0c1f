// NamespacedCloudProfileValidator (gardener-apiserver plugin/pkg/namespacedcloudprofile/validator): a
// NamespacedCloudProfile needs its parent CloudProfile, and the Kubernetes and machine image versions it lists may
// only change the expiration of versions the parent offers (it adds machine and volume types, not versions).
import { FieldPath, invalid, type FieldError } from '@gardener-ts/api';
import { allow, CORE, forbidden, forbiddenFields, isKind } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

/** The NamespacedCloudProfileValidator admission plugin. */
export const NamespacedCloudProfileValidator: AdmissionPlugin = {
  name: 'NamespacedCloudProfileValidator',
  handles: (a) =>
    isKind(a, CORE, 'NamespacedCloudProfile') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  async validate(a, listers) {
    const spec = a.object!.spec ?? {};
    const parentName: string = spec.parent?.name ?? '';
    const parent = await listers.get('core.gardener.cloud/v1beta1', 'CloudProfile', parentName);
    if (!parent) return forbidden(a, `parent CloudProfile "${parentName}" could not be found`);
    const errors: FieldError[] = [];
    const parentVersions = new Set(
      (parent.spec?.kubernetes?.versions ?? []).map((v: { version: string }) => v.version),
    );
    (spec.kubernetes?.versions ?? []).forEach((v: { version: string }, i: number) => {
      if (!parentVersions.has(v.version))
        errors.push(
          invalid(
            FieldPath.root('spec', 'kubernetes', 'versions').index(i).child('version'),
            v.version,
            'version is not defined in the parent CloudProfile',
          ),
        );
    });
    (spec.machineImages ?? []).forEach((image: { name: string; versions?: { version: string }[] }, i: number) => {
      const parentImage = (parent.spec?.machineImages ?? []).find((m: { name: string }) => m.name === image.name);
      if (!parentImage) return; // a machine image of its own
      const versions = new Set((parentImage.versions ?? []).map((v: { version: string }) => v.version));
      (image.versions ?? []).forEach((v, j) => {
        if (!versions.has(v.version))
          errors.push(
            invalid(
              FieldPath.root('spec', 'machineImages').index(i).child('versions').index(j).child('version'),
              v.version,
              'machine image version is not defined in the parent CloudProfile',
            ),
          );
      });
    });
    return errors.length > 0 ? forbiddenFields(a, errors) : allow();
  },
};
