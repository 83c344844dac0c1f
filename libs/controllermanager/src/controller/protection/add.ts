// Registers the protection controllers — CloudProfile, NamespacedCloudProfile, ExposureClass, Quota and
// ControllerDeployment — each watching its users so a deletion waiting for them goes on as soon as the last one is gone.
import { Finalizers, type CredentialsBinding, type SecretBinding, type Shoot } from '@gardener-ts/api';
import {
  controllerFor,
  EventRecorder,
  type Controller,
  type ControllerBuilder,
  type KubernetesObject,
  type Manager,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import {
  CloudProfileKind,
  ControllerDeploymentKind,
  ControllerRegistrationKind,
  CredentialsBindingKind,
  ExposureClassKind,
  NamespacedCloudProfileKind,
  QuotaKind,
  SecretBindingKind,
  ShootKind,
} from '../../kinds.js';
import { ProtectionReconciler, type Protection } from './reconciler.js';
import {
  cloudProfileOfShoot,
  cloudProfileUsers,
  controllerDeploymentUsers,
  exposureClassUsers,
  namespacedCloudProfileUsers,
  quotaUsers,
} from './users.js';

/** The ControllerDeployment finalizer (Gardener's). */
export const ControllerDeploymentFinalizer = 'core.gardener.cloud/controllerdeployment';

/** The protection controllers by configuration block. */
export type ProtectionName =
  'cloudProfile' | 'namespacedCloudProfile' | 'exposureClass' | 'quota' | 'controllerDeployment';

const clusterScoped = (name: string | undefined): Request[] => (name ? [{ namespace: '', name }] : []);
/** A user changed or went away: the object it used may be free now. */
const userChanged: Predicate<KubernetesObject> = (e) => e.type === 'delete' || e.type === 'update';
const quotasOf = (b: SecretBinding | CredentialsBinding): Request[] =>
  (b.quotas ?? []).map((q) => ({ namespace: q.namespace ?? '', name: q.name ?? '' }));
const shootProfile = (kind: string) => (s: Shoot) => {
  const ref = cloudProfileOfShoot(s);
  if (ref?.kind !== kind) return [];
  return kind === 'CloudProfile'
    ? clusterScoped(ref.name)
    : [{ namespace: s.metadata?.namespace ?? '', name: ref.name }];
};

/** Adds the protection controller `name` to `mgr` on its garden cluster. */
export function addProtectionController(
  mgr: Manager,
  name: ProtectionName,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  const events = new EventRecorder(garden.api, { component: 'gardener-controller-manager', log: mgr.log });
  const start = <T extends KubernetesObject>(controllerName: string, protection: Protection<T>) => ({
    builder: controllerFor(mgr, controllerName)
      .inCluster(deps.cluster)
      .for(protection.kind)
      .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs }),
    reconciler: new ProtectionReconciler(garden.client, protection, events),
  });
  const finish = ({ builder, reconciler }: { builder: ControllerBuilder; reconciler: ProtectionReconciler<any> }) =>
    builder.complete(reconciler);

  switch (name) {
    case 'cloudProfile': {
      const c = start('cloudprofile', {
        kind: CloudProfileKind,
        finalizer: Finalizers.GardenerFinalizer,
        users: async (client, p) =>
          cloudProfileUsers(
            p.metadata!.name!,
            (await client.list(ShootKind)).items,
            (await client.list(NamespacedCloudProfileKind)).items,
          ),
        refusal: (_p, users) =>
          `Cannot delete CloudProfile, because the following Shoots and NamespacedCloudProfiles are still referencing it: [${users.join(' ')}]`,
      });
      c.builder
        .watches(ShootKind, shootProfile('CloudProfile'), { predicates: [userChanged] })
        .watches(NamespacedCloudProfileKind, (n) => clusterScoped(n.spec.parent.name), { predicates: [userChanged] });
      return finish(c);
    }
    case 'namespacedCloudProfile': {
      const c = start('namespacedcloudprofile', {
        kind: NamespacedCloudProfileKind,
        finalizer: Finalizers.GardenerFinalizer,
        users: async (client, p) =>
          namespacedCloudProfileUsers(
            p.metadata!.namespace!,
            p.metadata!.name!,
            (await client.list(ShootKind, { namespace: p.metadata!.namespace! })).items,
          ),
        refusal: (_p, users) =>
          `Cannot delete NamespacedCloudProfile, because the following Shoots are still referencing it: [${users.join(' ')}]`,
      });
      c.builder.watches(ShootKind, shootProfile('NamespacedCloudProfile'), { predicates: [userChanged] });
      return finish(c);
    }
    case 'exposureClass': {
      const c = start('exposureclass', {
        kind: ExposureClassKind,
        finalizer: Finalizers.GardenerFinalizer,
        users: async (client, e) => exposureClassUsers(e.metadata!.name!, (await client.list(ShootKind)).items),
        refusal: (_e, users) =>
          `cannot delete ExposureClass, because it is still associated by the following Shoots: [${users.join(' ')}]`,
      });
      c.builder.watches(ShootKind, (s) => clusterScoped(s.spec.exposureClassName), { predicates: [userChanged] });
      return finish(c);
    }
    case 'quota': {
      const c = start('quota', {
        kind: QuotaKind,
        finalizer: Finalizers.GardenerFinalizer,
        users: async (client, q) =>
          quotaUsers(
            q.metadata!.namespace!,
            q.metadata!.name!,
            (await client.list(SecretBindingKind)).items,
            (await client.list(CredentialsBindingKind)).items,
          ),
        refusal: (_q, users) =>
          `Cannot delete Quota because the following SecretBindings and CredentialsBindings are still referencing it: [${users.join(' ')}]`,
      });
      c.builder
        .watches(SecretBindingKind, quotasOf, { predicates: [userChanged] })
        .watches(CredentialsBindingKind, quotasOf, { predicates: [userChanged] });
      return finish(c);
    }
    case 'controllerDeployment': {
      const c = start('controllerdeployment', {
        kind: ControllerDeploymentKind,
        finalizer: ControllerDeploymentFinalizer,
        users: async (client, d) =>
          controllerDeploymentUsers(d.metadata!.name!, (await client.list(ControllerRegistrationKind)).items),
        refusal: (d, users) =>
          `cannot remove finalizer of ControllerDeployment "${d.metadata!.name!}" because still found ControllerRegistrations: [${users.join(' ')}]`,
      });
      c.builder.watches(
        ControllerRegistrationKind,
        (r) => (r.spec.deployment?.deploymentRefs ?? []).map((ref) => ({ namespace: '', name: ref.name })),
        { predicates: [userChanged] },
      );
      return finish(c);
    }
  }
}
