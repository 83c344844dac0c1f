// The gardenlet's shoot care reconciler (Gardener's pkg/gardenlet/controller/shoot/care): every shootCare.syncPeriod
// it reads what the health checks need — the control plane's Deployments, Etcds and ManagedResources in the seed, the
// extensions' health conditions, and through the shoot's API server its /healthz, Nodes and node-agent Leases —
// computes the five conditions (health.ts), pardons failures while the shoot is created or deleted, and merge-patches
// `status.conditions` (and its constraints in `status.constraints`, constraints.ts) with optimistic locking so it never
// overwrites what the Shoot main reconciler writes. A hibernated shoot is not checked. Then it collects the stale Pods
// of the control plane namespace and of the shoot (garbage-collection.ts).
import {
  buildConditions,
  conditionsNeedUpdate,
  getOrInitCondition,
  isNotFound,
  kind,
  Kinds,
  messageOf,
  newConditionOrError,
  systemClock,
  updatedCondition,
  updatedConditionUnknownError,
  type Client,
  type Condition,
  type KubernetesObject,
  type ConditionThresholds,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { Labels, ShootConstraintType } from '@gardener-ts/api';
import {
  LabelKeyManagedBy,
  LabelKeyManagerIdentity,
  LabelKeyPersist,
  LabelValueSecretsManager,
  LabelValueTrue,
} from '@gardener-ts/secrets-manager';
import { KubeAPIServerName } from '../../component/kube-apiserver.js';
import { controlPlaneNamespaceOf } from '../../component/values.js';
import { ShootKind, type Shoot } from '../../shoot/kinds.js';
import { SecretsManagerIdentity } from '../../shoot/seed-steps.js';
import { patchStatusOptimistically } from '../../status.js';
import { caCertificateValiditiesConstraint } from './constraints.js';
import { checkForProblematicWebhooks, WebhookConfigurationSelector, type WebhookConfiguration } from './webhooks.js';
import { readExtensionConditions, type GroupedExtensionConditions } from './extensions.js';
import { deleteStalePods } from './garbage-collection.js';
import {
  apiServerDownConditions,
  checkAPIServerAvailability,
  checkControlPlane,
  checkNodes,
  checkObservabilityComponents,
  checkSystemComponents,
  conditionList,
  conditionTypes,
  hibernatedConditions,
  isWorkerless,
  managedResourceListingFailedConditions,
  pardonConditions,
  shootConditions,
  type CheckContext,
  type DeploymentLike,
  type EtcdLike,
  type LeaseLike,
  type ManagedResourceLike,
  type NodeLike,
  type ShootConditions,
  type WorkerPool,
} from './health.js';
import { shootServer, type ShootClient } from './shoot-client.js';

/** ManagedResources (resources.gardener.cloud/v1alpha1) as the care checks read them. */
export const ManagedResourceKind = kind<ManagedResourceLike>('resources.gardener.cloud/v1alpha1', 'ManagedResource');
/** etcd-druid's Etcd as the care checks read it. */
export const EtcdKind = kind<EtcdLike>('druid.gardener.cloud/v1alpha1', 'Etcd');

/** The constraint types this reconciler owns in `status.constraints`. */
export const ConstraintTypes: string[] = [
  ShootConstraintType.HibernationPossible,
  ShootConstraintType.MaintenancePreconditionsSatisfied,
  ShootConstraintType.CACertificateValiditiesAcceptable,
];
/** The webhook configurations of the shoot, as the constraint check reads them. */
export const ValidatingWebhookConfigurationKind = kind<WebhookConfiguration & KubernetesObject>(
  'admissionregistration.k8s.io/v1',
  'ValidatingWebhookConfiguration',
);
export const MutatingWebhookConfigurationKind = kind<WebhookConfiguration & KubernetesObject>(
  'admissionregistration.k8s.io/v1',
  'MutatingWebhookConfiguration',
);

/** How long an unscheduled shoot waits for its next check (Gardener's 30 s). */
export const UnscheduledRequeueMs = 30_000;

/** The shoot's clients, or why the shoot cannot be reached (no error: its API server does not run). */
type ShootClientState = { shoot: ShootClient } | { down: true; error?: string };

/** Where the care reconciler gets a shoot's clients from (`ShootClients`). */
export interface ShootClientSource {
  forShoot(
    seed: Pick<Client, 'list'>,
    namespace: string,
    server: string | undefined,
  ): Promise<{ shoot: ShootClient } | { missing: string }>;
  forget(namespace: string): void;
}

export interface ShootCareReconcilerDeps {
  /** Garden reads (Shoots, ControllerInstallations and -Registrations) and the status patch. */
  garden: Pick<Client, 'get' | 'list' | 'patch'>;
  /** Seed reads (control plane objects, secrets, heartbeats) and the garbage collection. */
  seed: Pick<Client, 'get' | 'list' | 'delete'>;
  shootClients: ShootClientSource;
  seedName: string;
  /** `controllers.shootCare.syncPeriod` in ms. */
  syncPeriodMs: number;
  /** `controllers.shootCare.conditionThresholds` (type → ms). */
  thresholds: ConditionThresholds;
  /** `staleExtensionHealthChecks.threshold` in ms when enabled. */
  staleExtensionHealthCheckThresholdMs?: number;
  /** `managedResourceProgressingThreshold` in ms. */
  managedResourceProgressingThresholdMs?: number;
  clock?: WallClock;
}

/** Maintains the health conditions of the Shoots of one seed and collects their garbage. */
export class ShootCareReconciler {
  /** Control plane namespace by shoot key, to drop a deleted shoot's clients. */
  private readonly namespaces = new Map<string, string>();

  constructor(private readonly deps: ShootCareReconcilerDeps) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const key = `${req.namespace}/${req.name}`;
    let shoot: Shoot;
    try {
      shoot = await this.deps.garden.get(ShootKind, { namespace: req.namespace, name: req.name });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.forget(key);
      return;
    }
    if (!shoot.spec.seedName) return { requeueAfter: UnscheduledRequeueMs };
    if (shoot.spec.seedName !== this.deps.seedName) {
      this.forget(key);
      return;
    }
    // Until the Shoot controller has claimed the shoot (its first lastOperation, written with status.gardener and
    // status.hibernated) there is nothing to look after, and a status holding only conditions would lack the fields
    // the API requires of a claimed shoot.
    if (!shoot.status?.lastOperation) return { requeueAfter: UnscheduledRequeueMs };
    const namespace = controlPlaneNamespaceOf(shoot);
    this.namespaces.set(key, namespace);

    const hibernated = shoot.spec.hibernation?.enabled === true || shoot.status?.hibernated === true;
    const shootClient: ShootClientState = hibernated ? { down: true } : await this.shootClient(shoot, namespace);
    const conditions = await this.check(shoot, namespace, shootClient, ctx);
    const constraints = await this.constraints(shoot, namespace, shootClient, hibernated);
    const workerless = isWorkerless(shoot.spec.provider.workers);
    await patchStatusOptimistically(
      this.deps.garden,
      ShootKind,
      { namespace: req.namespace, name: req.name },
      (current, existing) => {
        const status: Record<string, Condition[]> = {};
        const owned = existing?.filter((c) => conditionTypes(workerless).includes(c.type));
        if (conditionsNeedUpdate(owned, conditions)) {
          status.conditions = buildConditions(existing, conditions, conditionTypes(workerless));
        }
        const existingConstraints = current.status?.constraints as Condition[] | undefined;
        const ownedConstraints = (existingConstraints ?? []).filter((c) => ConstraintTypes.includes(c.type));
        if (conditionsNeedUpdate(ownedConstraints, constraints)) {
          status.constraints = buildConditions(existingConstraints, constraints, ConstraintTypes);
        }
        return Object.keys(status).length > 0 ? status : undefined;
      },
    );

    await this.collectGarbage(shoot, namespace, shootClient, ctx);
    return { requeueAfter: this.deps.syncPeriodMs };
  }

  private forget(key: string): void {
    const namespace = this.namespaces.get(key);
    if (namespace !== undefined) this.deps.shootClients.forget(namespace);
    this.namespaces.delete(key);
  }

  private clock(): WallClock {
    return this.deps.clock ?? systemClock;
  }

  /** Gardener's `Health.Check`: the five conditions of the shoot, pardoned during creation and deletion. */
  private async check(
    shoot: Shoot,
    namespace: string,
    shootClient: ShootClientState,
    ctx: ReconcileContext,
  ): Promise<Condition[]> {
    const clock = this.clock();
    const status = shoot.status;
    const lastOperation = status?.lastOperation;
    const workerless = isWorkerless(shoot.spec.provider.workers);
    const current = shootConditions(status?.conditions as Condition[] | undefined, workerless, clock);
    const pardon = (list: Condition[]) => pardonConditions(list, lastOperation, status?.lastErrors, clock);

    if (shoot.spec.hibernation?.enabled === true || status?.hibernated === true) {
      return pardon(hibernatedConditions(conditionList(current), clock));
    }

    const check: CheckContext = {
      clock,
      thresholds: this.deps.thresholds,
      ...(lastOperation
        ? { lastOperation: { state: lastOperation.state, lastUpdateTime: lastOperation.lastUpdateTime } }
        : {}),
    };
    const { seed } = this.deps;
    let managedResources: ManagedResourceLike[];
    try {
      managedResources = (await seed.list(ManagedResourceKind, { namespace })).items;
    } catch (err) {
      return pardon(managedResourceListingFailedConditions(conditionList(current), messageOf(err), clock));
    }
    let extensions: GroupedExtensionConditions = {
      controlPlaneHealthy: [],
      everyNodeReady: [],
      systemComponentsHealthy: [],
      observabilityComponentsHealthy: [],
    };
    try {
      extensions = await readExtensionConditions(this.deps.garden, seed, {
        seedName: this.deps.seedName,
        namespace,
        workerless,
      });
    } catch (err) {
      ctx.log.error({ err }, 'error getting extension conditions');
    }
    const common = {
      managedResources,
      ...(this.deps.staleExtensionHealthCheckThresholdMs !== undefined
        ? { staleThresholdMs: this.deps.staleExtensionHealthCheckThresholdMs }
        : {}),
      ...(this.deps.managedResourceProgressingThresholdMs !== undefined
        ? { progressingThresholdMs: this.deps.managedResourceProgressingThresholdMs }
        : {}),
    };
    const next: ShootConditions = { ...current };

    next.controlPlaneHealthy = await this.guard(current.controlPlaneHealthy, async () => {
      const selector = { labelSelector: { [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane } };
      const [deployments, etcds] = await Promise.all([
        seed.list(Kinds.Deployment, { namespace, ...selector }),
        seed.list(EtcdKind, { namespace, ...selector }),
      ]);
      return checkControlPlane(check, current.controlPlaneHealthy, {
        ...common,
        deployments: deployments.items as DeploymentLike[],
        etcds: etcds.items,
        extensionConditions: extensions.controlPlaneHealthy,
        workerless,
      });
    });
    next.observabilityComponentsHealthy = checkObservabilityComponents(check, current.observabilityComponentsHealthy, {
      ...common,
      extensionConditions: extensions.observabilityComponentsHealthy,
    });

    if ('down' in shootClient) {
      Object.assign(next, apiServerDownConditions(check, current, lastOperation, shootClient.error));
    } else {
      const { healthz, client } = shootClient.shoot;
      next.apiServerAvailable = checkAPIServerAvailability(
        check,
        current.apiServerAvailable,
        await healthz(ctx.signal),
      );
      next.systemComponentsHealthy = checkSystemComponents(check, current.systemComponentsHealthy, {
        ...common,
        extensionConditions: extensions.systemComponentsHealthy,
      });
      if (current.everyNodeReady) {
        const everyNodeReady = current.everyNodeReady;
        next.everyNodeReady = await this.guard(everyNodeReady, async () => {
          if (!client) throw new Error('no client certificate can be issued for the shoot: its client CA is missing');
          const [nodes, leases] = await Promise.all([
            client.list(Kinds.Node),
            client.list(Kinds.Lease, { namespace: 'kube-system' }),
          ]);
          return checkNodes(check, everyNodeReady, {
            pools: workerPools(shoot),
            nodes: nodes.items as NodeLike[],
            leases: leases.items as LeaseLike[],
            extensionConditions: extensions.everyNodeReady,
            ...(common.staleThresholdMs !== undefined ? { staleThresholdMs: common.staleThresholdMs } : {}),
          });
        });
      }
    }
    return pardon(conditionList(next));
  }

  /**
   * The constraints (Gardener's care constraints.go): HibernationPossible and MaintenancePreconditionsSatisfied from the
   * shoot's webhooks (webhooks.ts), and CACertificateValiditiesAcceptable (constraints.ts) while it is not True; all
   * True and not checked while hibernated, False while the control plane does not run. Pardoned as the conditions are.
   */
  private async constraints(
    shoot: Shoot,
    namespace: string,
    shootClient: ShootClientState,
    hibernated: boolean,
  ): Promise<Condition[]> {
    const clock = this.clock();
    const existing = shoot.status?.constraints as Condition[] | undefined;
    const get = (type: string) => getOrInitCondition(existing, type, clock);
    const required = [
      get(ShootConstraintType.HibernationPossible),
      get(ShootConstraintType.MaintenancePreconditionsSatisfied),
    ];
    const pardon = (list: Condition[]) =>
      pardonConditions(list, shoot.status?.lastOperation, shoot.status?.lastErrors, clock);
    if (hibernated) {
      return pardon(
        [...required, get(ShootConstraintType.CACertificateValiditiesAcceptable)].map((c) =>
          updatedCondition(c, 'True', 'ConstraintNotChecked', 'Shoot cluster has been hibernated.', { clock }),
        ),
      );
    }
    let ca: Condition | undefined;
    try {
      const secrets = await this.deps.seed.list(Kinds.Secret, {
        namespace,
        labelSelector: {
          [LabelKeyManagedBy]: LabelValueSecretsManager,
          [LabelKeyManagerIdentity]: SecretsManagerIdentity,
          [LabelKeyPersist]: LabelValueTrue,
        },
      });
      ca = caCertificateValiditiesConstraint(existing, secrets.items, clock);
    } catch (err) {
      ca = updatedConditionUnknownError(get(ShootConstraintType.CACertificateValiditiesAcceptable), err, { clock });
    }
    const optional = ca ? [ca] : [];
    const unknown = (message: string) =>
      required.map((c) => updatedConditionUnknownError(c, new Error(message), { clock }));
    if ('down' in shootClient) {
      if (shootClient.error !== undefined) {
        return pardon([
          ...unknown(`Could not initialize Shoot client for constraints check: ${shootClient.error}`),
          ...optional,
        ]);
      }
      const notRunning = required.map((c) =>
        updatedCondition(c, 'False', 'ConstraintNotChecked', 'Shoot control plane is not running at the moment.', {
          clock,
        }),
      );
      return pardon([...notRunning, ...optional]);
    }
    const client = shootClient.shoot.client;
    if (!client)
      return pardon([
        ...unknown('no client certificate can be issued for the shoot: its client CA is missing'),
        ...optional,
      ]);
    try {
      const [validating, mutating] = await Promise.all(
        [ValidatingWebhookConfigurationKind, MutatingWebhookConfigurationKind].map(
          async (kind) => (await client.list(kind, { labelSelector: WebhookConfigurationSelector })).items,
        ),
      );
      const result = checkForProblematicWebhooks(validating!, mutating!);
      const checked = required.map((c) =>
        updatedCondition(c, result.status, result.reason, result.message, { clock, codes: result.codes }),
      );
      return pardon([...checked, ...optional]);
    } catch (err) {
      const message = `could not get the webhook configurations of the Shoot cluster to check for problematic webhooks: ${messageOf(err)}`;
      return pardon([...unknown(message), ...optional]);
    }
  }

  /** A check that could not run (an API error) leaves its condition Unknown with the error (`NewConditionOrError`). */
  private async guard(condition: Condition, run: () => Promise<Condition>): Promise<Condition> {
    try {
      return await run();
    } catch (err) {
      return newConditionOrError(condition, undefined, err, this.clock());
    }
  }

  /**
   * The shoot's clients, when its API server runs (Gardener's `IsAPIServerRunning`: the kube-apiserver Deployment
   * exists with replicas) and its credentials exist; otherwise why not.
   */
  private async shootClient(shoot: Shoot, namespace: string): Promise<ShootClientState> {
    let running: boolean;
    try {
      const d = (await this.deps.seed.get(Kinds.Deployment, { namespace, name: KubeAPIServerName })) as DeploymentLike;
      running = !d.metadata?.deletionTimestamp && (d.spec?.replicas ?? 1) > 0;
    } catch (err) {
      if (!isNotFound(err)) return { down: true, error: messageOf(err) };
      running = false;
    }
    if (!running) return { down: true };
    try {
      const found = await this.deps.shootClients.forShoot(
        this.deps.seed,
        namespace,
        shootServer(shoot.status?.advertisedAddresses),
      );
      return 'missing' in found ? { down: true, error: found.missing } : found;
    } catch (err) {
      return { down: true, error: messageOf(err) };
    }
  }

  /** Garbage collection; its errors are logged, never fail the care run (as Gardener). */
  private async collectGarbage(
    shoot: Shoot,
    namespace: string,
    client: ShootClientState,
    ctx: ReconcileContext,
  ): Promise<void> {
    const now = this.clock().now();
    try {
      const deleted = await deleteStalePods(this.deps.seed, namespace, now);
      if (deleted.length) ctx.log.info({ pods: deleted.map((p) => p.name) }, 'deleted stale pods in the seed');
    } catch (err) {
      ctx.log.error({ err }, 'error during seed garbage collection');
    }
    if ('down' in client || !client.shoot.client) return;
    try {
      const scope = shoot.metadata?.deletionTimestamp ? undefined : 'kube-system';
      const deleted = await deleteStalePods(client.shoot.client, scope, now);
      if (deleted.length) ctx.log.info({ pods: deleted.map((p) => p.name) }, 'deleted stale pods in the shoot');
    } catch (err) {
      ctx.log.error({ err }, 'error during shoot garbage collection');
    }
  }
}

/** The worker pools with their effective Kubernetes version. */
export function workerPools(shoot: Shoot): WorkerPool[] {
  return (shoot.spec.provider.workers ?? []).map((w) => ({
    name: w.name,
    minimum: w.minimum ?? 0,
    kubernetesVersion: (w.kubernetes?.version ?? shoot.spec.kubernetes.version ?? '').replace(/^v/, ''),
  }));
}
