// The ControllerInstallation "main" reconciler (Gardener pkg/gardenlet/controller/controllerinstallation): for the
// installations of this seed, the finalizer, namespace `extension-<name>`, the ControllerDeployment's `helm.rawChart`
// rendered with helm and Gardener's `gardener.*` values, deployed as a ManagedResource labelled
// `controllerinstallation-name`; `Installed` False while pending or failing (the care reconciler turns it True from
// the ManagedResource). On deletion the ManagedResource and then the namespace go before the finalizer is released.
import {
  finalize,
  getOrInitCondition,
  ignoreNotFound,
  Kinds,
  mergeConditions,
  messageOf,
  systemClock,
  updatedCondition,
  wrapError,
  type ApiClient,
  type Client,
  type KubernetesObject,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { FIELD_MANAGER, GARDEN_NAMESPACE } from '../../constants.js';
import { SeedKind } from '../../seed-kind.js';
import { patchStatusOptimistically } from '../../status.js';
import {
  chartValues,
  CONTROLLER_INSTALLATION_FINALIZER,
  extensionNamespace,
  extensionNamespaceObject,
  installationManagedResource,
} from './install.js';
import {
  ControllerDeploymentKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  ManagedResourceKind,
  type ControllerInstallation,
} from './kinds.js';

export interface ControllerInstallationReconcilerDeps {
  garden: Pick<Client, 'get' | 'patch'>;
  seed: Pick<ApiClient, 'apply' | 'delete' | 'get'>;
  /** Renders a chart archive (`HelmRenderer.renderArchive`). */
  render: (
    archive: Buffer,
    release: string,
    namespace: string,
    values: Record<string, unknown>,
  ) => Promise<KubernetesObject[]>;
  seedName: string;
  version: string;
  featureGates: Record<string, boolean>;
  clock?: WallClock;
}

/** Deploys the extensions installed on this seed. */
export class ControllerInstallationReconciler {
  constructor(private readonly deps: ControllerInstallationReconcilerDeps) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const installation = await this.deps.garden
      .get(ControllerInstallationKind, { name: req.name })
      .catch(ignoreNotFound);
    if (!installation || installation.spec.seedRef?.name !== this.deps.seedName) return;
    return finalize(this.deps.garden, installation, CONTROLLER_INSTALLATION_FINALIZER, {
      apply: (ci) => this.deploy(ci),
      cleanup: (ci) => this.cleanup(ci),
    });
  }

  private async deploy(ci: ControllerInstallation): Promise<ReconcileResult | void> {
    const { garden, seed } = this.deps;
    const name = ci.metadata!.name!;
    const registration = await garden
      .get(ControllerRegistrationKind, { name: ci.spec.registrationRef.name! })
      .catch(ignoreNotFound);
    if (!registration) {
      await this.setConditions(ci, [
        'Valid',
        'False',
        'RegistrationNotFound',
        `ControllerRegistration ${ci.spec.registrationRef.name} not found`,
      ]);
      throw new Error(
        `ControllerInstallation ${name}: ControllerRegistration ${ci.spec.registrationRef.name} not found`,
      );
    }
    const deploymentName = ci.spec.deploymentRef?.name;
    const deployment = deploymentName
      ? await garden.get(ControllerDeploymentKind, { name: deploymentName }).catch(ignoreNotFound)
      : undefined;
    const rawChart = deployment?.helm?.rawChart;
    if (!deployment || !rawChart) {
      const message = !deploymentName
        ? 'spec.deploymentRef is not set'
        : !deployment
          ? `ControllerDeployment ${deploymentName} not found`
          : `ControllerDeployment ${deploymentName} has no helm.rawChart (helm.ociRepository is not supported yet)`;
      await this.setConditions(
        ci,
        ['Valid', 'True', 'RegistrationValid', 'Chart could be rendered successfully.'],
        ['Installed', 'False', 'ChartInformationInvalid', message],
      );
      return; // the user must fix the ControllerDeployment; its change triggers a new reconcile
    }

    const seedObject = await garden.get(SeedKind, { name: this.deps.seedName });
    const namespace = extensionNamespace(name);
    let objects: KubernetesObject[];
    try {
      const values = chartValues(deployment.helm?.values, {
        version: this.deps.version,
        featureGates: this.deps.featureGates,
        seed: {
          name: this.deps.seedName,
          labels: seedObject.metadata?.labels,
          annotations: seedObject.metadata?.annotations,
          spec: seedObject.spec,
          clusterIdentity: seedObject.status?.clusterIdentity,
        },
      });
      objects = await this.deps.render(
        Buffer.from(String(rawChart), 'base64'),
        registration.metadata!.name!,
        namespace,
        values,
      );
    } catch (err) {
      await this.setConditions(ci, [
        'Installed',
        'False',
        'InstallationFailed',
        `Installation of new resources failed: ${messageOf(err)}`,
      ]);
      throw wrapError(err, `rendering the chart of ControllerInstallation ${name}`);
    }

    try {
      await seed.apply(extensionNamespaceObject(name, registration), { fieldManager: FIELD_MANAGER, force: true });
      const { secret, managedResource } = installationManagedResource(name, objects);
      await seed.apply(secret, { fieldManager: FIELD_MANAGER, force: true });
      await seed.apply(managedResource, { fieldManager: FIELD_MANAGER, force: true });
    } catch (err) {
      await this.setConditions(ci, [
        'Installed',
        'False',
        'InstallationFailed',
        `Installation of new resources failed: ${messageOf(err)}`,
      ]);
      throw wrapError(err, `deploying ControllerInstallation ${name}`);
    }
    const installed = ci.status?.conditions?.find((c) => c.type === 'Installed');
    await this.setConditions(
      ci,
      ['Valid', 'True', 'RegistrationValid', 'Chart could be rendered successfully.'],
      ...(installed?.status === 'True'
        ? []
        : [['Installed', 'False', 'InstallationPending', 'Installation of new resources succeeded.'] as const]),
    );
  }

  private async cleanup(ci: ControllerInstallation): Promise<ReconcileResult | void> {
    const { seed } = this.deps;
    const name = ci.metadata!.name!;
    await seed.delete(ManagedResourceKind, { namespace: GARDEN_NAMESPACE, name }).catch(ignoreNotFound);
    if (await seed.get(ManagedResourceKind, { namespace: GARDEN_NAMESPACE, name }).catch(ignoreNotFound)) {
      await this.setConditions(ci, [
        'Installed',
        'False',
        'DeletionPending',
        'Deletion of old resources is still pending.',
      ]);
      return { requeueAfter: 5_000 };
    }
    await seed
      .delete(Kinds.Secret, { namespace: GARDEN_NAMESPACE, name: `managedresource-${name}` })
      .catch(ignoreNotFound);
    const namespace = extensionNamespace(name);
    await seed.delete(Kinds.Namespace, { name: namespace }).catch(ignoreNotFound);
    if (await seed.get(Kinds.Namespace, { name: namespace }).catch(ignoreNotFound)) return { requeueAfter: 5_000 };
    return undefined;
  }

  private async setConditions(
    ci: ControllerInstallation,
    ...updates: (readonly [string, 'True' | 'False', string, string])[]
  ): Promise<void> {
    const clock = this.deps.clock ?? systemClock;
    await patchStatusOptimistically(
      this.deps.garden,
      ControllerInstallationKind,
      { name: ci.metadata!.name! },
      (_ci, existing) => {
        let conditions = existing;
        for (const [type, status, reason, message] of updates) {
          conditions = mergeConditions(
            conditions,
            updatedCondition(getOrInitCondition(conditions, type, clock), status, reason, message, { clock }),
          );
        }
        return { conditions };
      },
    );
  }
}
