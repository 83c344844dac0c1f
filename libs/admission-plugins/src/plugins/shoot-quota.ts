// ShootQuotaValidator (gardener-apiserver plugin/pkg/shoot/quotavalidator): the Quotas a Shoot's SecretBinding or
// CredentialsBinding lists (`quotas`) cap what all Shoots in their scope may claim together — a Project-scoped
// Quota the Shoots of the project namespace, a Secret-scoped one the Shoots using bindings to the same credentials.
// A Shoot claims, per worker pool at its maximum size, the machine type's `cpu`, `gpu` and `memory` and the volume
// size under `storage.<volume class>`. On UPDATE only an increase of the Shoot's own claim is checked.
import { parseQuantity } from '@gardener-ts/api';
import {
  allow,
  CORE,
  forbidden,
  isKind,
  type AdmissionAttributes,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { cloudProfileSpecFor } from './shoot-validator.js';

type Claim = Record<string, number>;

/** What a Shoot claims against quotas, from its workers and the profile's machine and volume types. */
export function shootClaim(shoot: KubeObject, profile: { machineTypes: any[]; volumeTypes?: any[] }): Claim {
  const claim: Claim = {};
  const add = (metric: string, value: number | undefined) => {
    if (value !== undefined && Number.isFinite(value) && value > 0) claim[metric] = (claim[metric] ?? 0) + value;
  };
  for (const worker of shoot.spec?.provider?.workers ?? []) {
    const count = Number(worker.maximum ?? 0);
    const type = profile.machineTypes.find((t) => t.name === worker.machine?.type);
    if (type) {
      add('cpu', (parseQuantity(type.cpu) ?? 0) * count);
      add('gpu', (parseQuantity(type.gpu) ?? 0) * count);
      add('memory', (parseQuantity(type.memory) ?? 0) * count);
    }
    if (worker.volume?.size) {
      const volumeClass = (profile.volumeTypes ?? []).find((v) => v.name === worker.volume.type)?.class ?? 'standard';
      add(`storage.${volumeClass}`, (parseQuantity(worker.volume.size) ?? 0) * count);
    }
  }
  return claim;
}

async function bindingOf(shoot: KubeObject, listers: Listers): Promise<KubeObject | undefined> {
  const ns = shoot.metadata?.namespace;
  if (shoot.spec?.credentialsBindingName)
    return listers.get('security.gardener.cloud/v1alpha1', 'CredentialsBinding', shoot.spec.credentialsBindingName, ns);
  if (shoot.spec?.secretBindingName)
    return listers.get('core.gardener.cloud/v1beta1', 'SecretBinding', shoot.spec.secretBindingName, ns);
  return undefined;
}

const credentialsOf = (binding: KubeObject | undefined): string | undefined => {
  const ref = binding?.credentialsRef ?? binding?.secretRef;
  return ref?.name ? `${ref.namespace ?? binding?.metadata?.namespace}/${ref.name}` : undefined;
};

async function claimOf(shoot: KubeObject, a: AdmissionAttributes, listers: Listers): Promise<Claim> {
  const { spec } = await cloudProfileSpecFor(shoot as any, shoot.metadata?.namespace ?? a.namespace, listers);
  return spec ? shootClaim(shoot, spec) : {};
}

/** The ShootQuotaValidator admission plugin. */
export const ShootQuotaValidator: AdmissionPlugin = {
  name: 'ShootQuotaValidator',
  handles: (a) =>
    isKind(a, CORE, 'Shoot') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    !a.object?.metadata?.deletionTimestamp,
  async validate(a, listers) {
    const shoot = { ...a.object!, metadata: { ...a.object!.metadata, namespace: a.namespace } };
    const binding = await bindingOf(shoot, listers);
    const quotaRefs: { name?: string; namespace?: string }[] = binding?.quotas ?? [];
    if (quotaRefs.length === 0) return allow();
    const claim = await claimOf(shoot, a, listers);
    const oldClaim =
      a.operation === 'UPDATE' && a.oldObject
        ? await claimOf({ ...a.oldObject, metadata: { ...a.oldObject.metadata, namespace: a.namespace } }, a, listers)
        : {};
    const increased = Object.keys(claim).filter((m) => claim[m]! > (oldClaim[m] ?? 0));
    if (increased.length === 0) return allow();

    const credentials = credentialsOf(binding);
    for (const ref of quotaRefs) {
      const quota = await listers.get(
        'core.gardener.cloud/v1beta1',
        'Quota',
        ref.name ?? '',
        ref.namespace ?? a.namespace,
      );
      if (!quota) continue; // the ResourceReferenceManager reports missing quotas of bindings
      const projectScope = quota.spec?.scope?.kind === 'Project';
      const others = (
        await listers.list('core.gardener.cloud/v1beta1', 'Shoot', projectScope ? a.namespace : undefined)
      ).filter((s) => !(s.metadata?.name === shoot.metadata?.name && s.metadata?.namespace === a.namespace));
      const used: Claim = {};
      for (const other of others) {
        if (!projectScope && credentialsOf(await bindingOf(other, listers)) !== credentials) continue;
        for (const [metric, value] of Object.entries(await claimOf(other, a, listers)))
          used[metric] = (used[metric] ?? 0) + value;
      }
      for (const metric of increased) {
        const limit = quota.spec?.metrics?.[metric];
        if (limit === undefined) continue;
        if ((used[metric] ?? 0) + claim[metric]! > (parseQuantity(limit) ?? Infinity)) {
          return forbidden(a, `quota limits exceeded. Unable to allocate further ${metric}`);
        }
      }
    }
    return allow();
  },
};
