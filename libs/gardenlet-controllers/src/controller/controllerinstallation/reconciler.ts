// The ControllerInstallation "main" reconciler (Gardener pkg/gardenlet/controller/controllerinstallation): for the
// installations of this seed, the finalizer, namespace `extension-<name>`, for a ControllerDeployment with
// `injectGardenKubeconfig` the generic garden kubeconfig Secret (its name in `gardener.garden.genericKubeconfigSecretName`),
// the ControllerDeployment's `helm.rawChart` (or the chart its `helm.ociRepository` names, pulled from the registry;
// a failed pull is `Valid`/`Installed` False `OCIChartCannotBePulled` and retried) rendered with helm and Gardener's
// `gardener.*` values, the garden access Secret `garden-access-extension` when a rendered workload wants the garden
// kubeconfig (mounted into those workloads; `SEED_NAME` into every one), all deployed as a ManagedResource labelled
// `controllerinstallation-name`; `Installed` False while pending or failing (the care reconciler turns it True from the
// ManagedResource). On deletion the
// ManagedResource and then the namespace go, then the extension's ServiceAccount in the garden, before the finalizer
// is released.
import {
  finalize,
  getOrInitCondition,
  ignoreNotFound,
  isAlreadyExists,
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
  extensionGardenServiceAccountName,
  gardenAccessSecret,
  genericGardenKubeconfig,
  genericGardenKubeconfigSecret,
  GARDEN_ACCESS_SECRET_NAME,
  mutateRenderedObjects,
  needsGardenKubeconfig,
  type GenericGardenCluster,
} from './garden-access.js';
import { seedNamespace } from '../tokenrequestor/add.js';
import { ociRepositoryURL, type OciRepositorySpec } from '../../oci/reference.js';
import {
  ControllerDeploymentKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  ManagedResourceKind,
  type ControllerInstallation,
} from './kinds.js';

export interface ControllerInstallationReconcilerDeps {
  garden: Pick<Client, 'get' | 'patch' | 'delete'>;
  seed: Pick<ApiClient, 'apply' | 'create' | 'delete' | 'get'>;
  /** Renders a chart archive (`HelmRenderer.renderArchive`). */
  render: (
    archive: Buffer,
    release: string,
    namespace: string,
    values: Record<string, unknown>,
  ) => Promise<KubernetesObject[]>;
  /**
   * Pulls the chart archive of a ControllerDeployment's `helm.ociRepository` (`OciChartPuller.pull`, pull secrets read
   * from the garden's `garden` namespace). Without it such ControllerDeployments cannot be installed.
   */
  pullChart?: (oci: OciRepositorySpec) => Promise<Buffer>;
  seedName: string;
  version: string;
  featureGates: Record<string, boolean>;
  /** The garden's cluster identity (`gardener.garden.clusterIdentity`). */
  gardenClusterIdentity?: string;
  /**
   * The garden as extensions reach it, written into the generic garden kubeconfig (see `genericGardenClusterOf`).
   * Without it a ControllerDeployment with `injectGardenKubeconfig` cannot be installed.
   */
  genericGardenCluster?: GenericGardenCluster;
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
    const ociRepository = deployment?.helm?.ociRepository;
    if (!deployment || (!rawChart && !ociRepository)) {
      const message = !deploymentName
        ? 'spec.deploymentRef is not set'
        : !deployment
          ? `ControllerDeployment ${deploymentName} not found`
          : `ControllerDeployment ${deploymentName} has neither helm.rawChart nor helm.ociRepository`;
      await this.setConditions(
        ci,
        ['Valid', 'True', 'RegistrationValid', 'Chart could be rendered successfully.'],
        ['Installed', 'False', 'ChartInformationInvalid', message],
      );
      return; // the user must fix the ControllerDeployment; its change triggers a new reconcile
    }

    const seedObject = await garden.get(SeedKind, { name: this.deps.seedName });
    const namespace = extensionNamespace(name);
    const inject = deployment.injectGardenKubeconfig === true;
    const failed = async (err: unknown, what: string): Promise<never> => {
      await this.setConditions(ci, [
        'Installed',
        'False',
        'InstallationFailed',
        `Installation of new resources failed: ${messageOf(err)}`,
      ]);
      throw wrapError(err, `${what} of ControllerInstallation ${name}`);
    };

    let kubeconfigSecret: KubernetesObject | undefined;
    try {
      await seed.apply(extensionNamespaceObject(name, registration), { fieldManager: FIELD_MANAGER, force: true });
      if (inject) {
        if (!this.deps.genericGardenCluster) {
          throw new Error(
            `ControllerDeployment ${deploymentName} sets injectGardenKubeconfig, but the gardenlet knows no garden address for the generic garden kubeconfig`,
          );
        }
        kubeconfigSecret = genericGardenKubeconfigSecret(
          namespace,
          genericGardenKubeconfig(this.deps.genericGardenCluster),
        );
        // Immutable and named after its content: an existing one is the same.
        await seed.create(kubeconfigSecret).catch((err) => {
          if (!isAlreadyExists(err)) throw err;
        });
      }
    } catch (err) {
      return failed(err, 'preparing the namespace');
    }

    // Gardener pulls only when there is no raw chart; a failed pull invalidates the installation and is retried.
    let archive: Buffer;
    if (rawChart) {
      archive = Buffer.from(String(rawChart), 'base64');
    } else {
      try {
        if (!this.deps.pullChart) throw new Error('the gardenlet has no OCI chart puller');
        archive = await this.deps.pullChart(ociRepository!);
      } catch (err) {
        const message = `Pulling the chart of ControllerDeployment ${deploymentName} from ${ociRepositoryURL(ociRepository!) || 'helm.ociRepository'} failed: ${messageOf(err)}`;
        await this.setConditions(
          ci,
          ['Valid', 'False', 'OCIChartCannotBePulled', message],
          ['Installed', 'False', 'OCIChartCannotBePulled', message],
        );
        throw wrapError(err, `pulling the chart of ControllerInstallation ${name}`);
      }
    }

    let objects: KubernetesObject[];
    try {
      const values = chartValues(deployment.helm?.values, {
        version: this.deps.version,
        featureGates: this.deps.featureGates,
        ...(this.deps.gardenClusterIdentity ? { gardenClusterIdentity: this.deps.gardenClusterIdentity } : {}),
        ...(kubeconfigSecret ? { genericKubeconfigSecretName: kubeconfigSecret.metadata!.name! } : {}),
        seed: {
          name: this.deps.seedName,
          labels: seedObject.metadata?.labels,
          annotations: seedObject.metadata?.annotations,
          spec: seedObject.spec,
          clusterIdentity: seedObject.status?.clusterIdentity,
        },
      });
      objects = await this.deps.render(archive, registration.metadata!.name!, namespace, values);
    } catch (err) {
      return failed(err, 'rendering the chart');
    }

    try {
      const needsGardenAccess = kubeconfigSecret !== undefined && needsGardenKubeconfig(inject, objects);
      if (needsGardenAccess) {
        await seed.apply(gardenAccessSecret(namespace, name, registration.metadata!.name!), {
          fieldManager: FIELD_MANAGER,
          force: true,
        });
      } else {
        await seed.delete(Kinds.Secret, { namespace, name: GARDEN_ACCESS_SECRET_NAME }).catch(ignoreNotFound);
      }
      const mutated = mutateRenderedObjects(
        objects,
        namespace,
        this.deps.seedName,
        needsGardenAccess ? { kubeconfigSecretName: kubeconfigSecret!.metadata!.name! } : undefined,
      );
      const { secret, managedResource } = installationManagedResource(name, mutated);
      await seed.apply(secret, { fieldManager: FIELD_MANAGER, force: true });
      await seed.apply(managedResource, { fieldManager: FIELD_MANAGER, force: true });
    } catch (err) {
      return failed(err, 'deploying');
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
    // The extension's ServiceAccount the TokenRequestor created in the garden.
    await this.deps.garden
      .delete(Kinds.ServiceAccount, {
        namespace: seedNamespace(ci.spec.seedRef?.name ?? this.deps.seedName),
        name: extensionGardenServiceAccountName(name),
      })
      .catch(ignoreNotFound);
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
