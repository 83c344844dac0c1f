// Small mutating plugins of gardener-apiserver that default new Shoots:
// ShootExposureClass (plugin/pkg/shoot/exposureclass) merges the referenced ExposureClass's seed selector and
// tolerations into the Shoot; ShootVPAEnabledByDefault and ShootNodeLocalDNSEnabledByDefault (both disabled by
// default in Gardener, so `optionalPlugins` here) switch on the managed VPA and node-local DNS unless the Shoot says
// otherwise.
import { allow, CORE, forbidden, isKind, mutated, type AdmissionAttributes } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

const newShoot = (a: AdmissionAttributes) =>
  isKind(a, CORE, 'Shoot') && a.operation === 'CREATE' && !a.subresource && Boolean(a.object);

/** The ShootExposureClass admission plugin. */
export const ShootExposureClass: AdmissionPlugin = {
  name: 'ShootExposureClass',
  handles: (a) => newShoot(a) && Boolean(a.object?.spec?.exposureClassName),
  async admit(a, listers) {
    const shoot = a.object!;
    const name: string = shoot.spec.exposureClassName;
    const exposureClass = await listers.get('core.gardener.cloud/v1beta1', 'ExposureClass', name);
    if (!exposureClass) return forbidden(a, `exposureclasses.core.gardener.cloud "${name}" not found`);
    const scheduling = exposureClass.scheduling ?? {};
    const spec = { ...shoot.spec };
    if (scheduling.seedSelector) {
      const own = spec.seedSelector ?? {};
      spec.seedSelector = {
        ...own,
        ...(scheduling.seedSelector.matchLabels || own.matchLabels
          ? { matchLabels: { ...scheduling.seedSelector.matchLabels, ...own.matchLabels } }
          : {}),
        ...(scheduling.seedSelector.matchExpressions || own.matchExpressions
          ? { matchExpressions: [...(own.matchExpressions ?? []), ...(scheduling.seedSelector.matchExpressions ?? [])] }
          : {}),
        ...(scheduling.seedSelector.providerTypes || own.providerTypes
          ? {
              providerTypes: [
                ...new Set([...(own.providerTypes ?? []), ...(scheduling.seedSelector.providerTypes ?? [])]),
              ],
            }
          : {}),
      };
    }
    for (const toleration of scheduling.tolerations ?? []) {
      const tolerations: { key: string; value?: string }[] = spec.tolerations ?? [];
      if (!tolerations.some((t) => t.key === toleration.key)) spec.tolerations = [...tolerations, toleration];
    }
    return mutated({ ...shoot, spec });
  },
};

/** The ShootVPAEnabledByDefault admission plugin (optional). */
export const ShootVPAEnabledByDefault: AdmissionPlugin = {
  name: 'ShootVPAEnabledByDefault',
  handles: newShoot,
  admit(a) {
    const shoot = a.object!;
    const kubernetes = shoot.spec?.kubernetes ?? {};
    if (kubernetes.verticalPodAutoscaler?.enabled !== undefined) return allow();
    return mutated({
      ...shoot,
      spec: {
        ...shoot.spec,
        kubernetes: { ...kubernetes, verticalPodAutoscaler: { ...kubernetes.verticalPodAutoscaler, enabled: true } },
      },
    });
  },
};

/** The ShootNodeLocalDNSEnabledByDefault admission plugin (optional; Shoots with workers only). */
export const ShootNodeLocalDNSEnabledByDefault: AdmissionPlugin = {
  name: 'ShootNodeLocalDNSEnabledByDefault',
  handles: newShoot,
  admit(a) {
    const shoot = a.object!;
    if ((shoot.spec?.provider?.workers ?? []).length === 0) return allow();
    const systemComponents = shoot.spec.systemComponents ?? {};
    if (systemComponents.nodeLocalDNS?.enabled !== undefined) return allow();
    return mutated({
      ...shoot,
      spec: {
        ...shoot.spec,
        systemComponents: { ...systemComponents, nodeLocalDNS: { ...systemComponents.nodeLocalDNS, enabled: true } },
      },
    });
  },
};
