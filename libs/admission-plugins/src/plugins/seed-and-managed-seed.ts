// ShootManagedSeed (plugin/pkg/shoot/managedseed) and ManagedSeedShoot (plugin/pkg/managedseed/shoot), the guards
// between a ManagedSeed and its Shoot: the Shoot a ManagedSeed registers cannot be deleted, and an update of it must
// keep what the seed needs (no nginx-ingress addon, VPA enabled, the nodes network, the zones the seed uses); a
// ManagedSeed whose Seed still has Shoots scheduled to it cannot be deleted.
import { FieldPath, forbidden as fieldForbidden, invalid, type FieldError } from '@gardener-ts/api';
import {
  allow,
  CORE,
  forbidden,
  invalidObject,
  isKind,
  SEEDMANAGEMENT,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { usesSeed } from './seed.js';

const MANAGED_SEED = 'seedmanagement.gardener.cloud/v1alpha1';

/** The ManagedSeed of the namespace that registers the Shoot `name` (Gardener's utils.GetManagedSeed). */
async function managedSeedOf(listers: Listers, namespace: string | undefined, name: string) {
  const managedSeeds = await listers.list(MANAGED_SEED, 'ManagedSeed', namespace);
  return managedSeeds.find((m) => m.spec?.shoot?.name === name);
}

const zonesOf = (shoot: KubeObject) =>
  new Set<string>((shoot.spec?.provider?.workers ?? []).flatMap((w: KubeObject) => w.zones ?? []));

/** What an update of a Shoot registered by `managedSeed` must keep (Gardener's ShootManagedSeed validateUpdate). */
export function managedSeedShootUpdateErrors(
  shoot: KubeObject,
  old: KubeObject,
  managedSeed: KubeObject,
): FieldError[] {
  const errors: FieldError[] = [];
  if (shoot.spec?.addons?.nginxIngress?.enabled === true)
    errors.push(
      invalid(
        FieldPath.root('spec', 'addons', 'nginxIngress', 'enabled'),
        true,
        'shoot ingress addon is not supported for managed seeds - use the managed seed ingress controller',
      ),
    );
  if (shoot.spec?.kubernetes?.verticalPodAutoscaler?.enabled !== true)
    errors.push(
      invalid(
        FieldPath.root('spec', 'kubernetes', 'verticalPodAutoscaler', 'enabled'),
        false,
        'shoot VPA has to be enabled for managed seeds',
      ),
    );
  const oldNodes = old.spec?.networking?.nodes;
  const nodes = shoot.spec?.networking?.nodes;
  if (oldNodes !== undefined && oldNodes !== nodes)
    errors.push(invalid(FieldPath.root('spec', 'networking', 'nodes'), nodes, 'field is immutable for managed seeds'));
  // Zones must first be deselected in the ManagedSeed's seed template before the Shoot's workers drop them.
  const remaining = zonesOf(shoot);
  const removed = [...zonesOf(old)].filter((z) => !remaining.has(z));
  const seedZones: string[] = managedSeed.spec?.gardenlet?.config?.seedConfig?.spec?.provider?.zones ?? [];
  if (removed.some((z) => seedZones.includes(z)))
    errors.push(
      fieldForbidden(
        FieldPath.root('spec', 'providers', 'workers'),
        'shoot worker zone(s) must not be removed as long as registered in managedseed',
      ),
    );
  return errors;
}

async function shootDeletion(a: AdmissionAttributes, listers: Listers, name: string): Promise<AdmissionDecision> {
  if (!(await managedSeedOf(listers, a.namespace, name))) return allow();
  return forbidden(
    { ...a, name },
    `cannot delete shoot ${a.namespace}/${name} since it is still referenced by a managed seed`,
  );
}

/** The ShootManagedSeed admission plugin (UPDATE and DELETE of Shoots registered as seeds). */
export const ShootManagedSeed: AdmissionPlugin = {
  name: 'ShootManagedSeed',
  handles: (a) => isKind(a, CORE, 'Shoot') && (a.operation === 'UPDATE' || a.operation === 'DELETE') && !a.subresource,
  async validate(a, listers) {
    if (a.operation === 'DELETE') {
      if (a.name) return shootDeletion(a, listers, a.name);
      // DELETECOLLECTION: every Shoot (Gardener lists them in all namespaces).
      for (const shoot of await listers.list('core.gardener.cloud/v1beta1', 'Shoot')) {
        const decision = await shootDeletion(
          { ...a, namespace: shoot.metadata?.namespace },
          listers,
          shoot.metadata?.name ?? '',
        );
        if (!decision.allowed) return decision;
      }
      return allow();
    }
    if (!a.object || !a.oldObject) return allow();
    const managedSeed = await managedSeedOf(listers, a.namespace, a.object.metadata?.name ?? a.name ?? '');
    if (!managedSeed) return allow();
    const errors = managedSeedShootUpdateErrors(a.object, a.oldObject, managedSeed);
    return errors.length > 0 ? invalidObject(a, errors) : allow();
  },
};

async function managedSeedDeletion(a: AdmissionAttributes, listers: Listers, name: string) {
  const shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot');
  if (!shoots.some((s) => usesSeed(s, name))) return allow();
  return forbidden(
    { ...a, name },
    `cannot delete managed seed ${a.namespace}/${name} since its seed ${name} is still used by shoot(s)`,
  );
}

/** The ManagedSeedShoot admission plugin (DELETE of ManagedSeeds whose Seed has Shoots). */
export const ManagedSeedShoot: AdmissionPlugin = {
  name: 'ManagedSeedShoot',
  handles: (a) => isKind(a, SEEDMANAGEMENT, 'ManagedSeed') && a.operation === 'DELETE' && !a.subresource,
  async validate(a, listers) {
    if (a.name) return managedSeedDeletion(a, listers, a.name);
    // DELETECOLLECTION: every ManagedSeed (Gardener lists them in all namespaces).
    for (const managedSeed of await listers.list(MANAGED_SEED, 'ManagedSeed')) {
      const decision = await managedSeedDeletion(
        { ...a, namespace: managedSeed.metadata?.namespace },
        listers,
        managedSeed.metadata?.name ?? '',
      );
      if (!decision.allowed) return decision;
    }
    return allow();
  },
};
