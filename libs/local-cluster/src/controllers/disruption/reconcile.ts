// The disruption controller (kube's disruption controller): keeps each PodDisruptionBudget's status — expected,
// desired and currently healthy pods, how many disruptions are allowed, the evictions recorded in disruptedPods
// that still count, and the DisruptionAllowed condition. Budgets whose expected count cannot be worked out (a pod
// whose controller is unknown or gone) fail safe: no disruptions allowed, DisruptionAllowed False SyncFailed.
import type { OwnerReference, ReconcileContext, ReconcileResult, Request } from '@gardener-ts/controller-runtime';
import { ignoreNotFound } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import {
  DeploymentKind,
  type Pod,
  PodDisruptionBudgetKind,
  PodKind,
  ReplicaSetKind,
  ReplicationControllerKind,
  StatefulSetKind,
} from '../shared/kinds.js';
import { controllerOf } from '../shared/owner.js';
import { selectorMatcher } from '../shared/selectors.js';
import { writeStatus } from '../shared/status-writer.js';
import { budgetStatus, countHealthy, disruptedPods, expectedAndDesired, failSafeStatus } from './budget.js';

/** Past the computed instant, so the timer never fires a hair early. */
const REQUEUE_SLACK_MS = 50;

interface ControllerScale {
  uid: string;
  scale: number;
}

const groupOf = (apiVersion: string | undefined) => (apiVersion?.includes('/') ? apiVersion.split('/')[0] : '');
const refIs = (ref: OwnerReference, kind: string, groups: string[]) =>
  ref.kind === kind && groups.includes(groupOf(ref.apiVersion));

export class DisruptionReconciler {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const pdb = await this.ctx.client.get(PodDisruptionBudgetKind, req).catch(ignoreNotFound);
    if (!pdb) return;
    const matches = selectorMatcher(pdb.spec?.selector);
    const pods = (await this.ctx.cache.list(PodKind, { namespace: req.namespace })).items.filter((p) =>
      matches(p.metadata?.labels),
    );
    const now = this.ctx.now();

    let counts;
    const unmanaged: string[] = [];
    try {
      counts = expectedAndDesired(pdb.spec, pods.length, () => this.expectedScale(pods, unmanaged));
    } catch (err) {
      const message = (err as Error).message;
      const status = failSafeStatus(pdb, message, now);
      if (status) {
        log.info(
          { pdb: `${req.namespace}/${req.name}`, err: message },
          'Failed to sync PodDisruptionBudget; no disruptions allowed',
        );
        this.events.event(
          pdb,
          'Warning',
          'CalculateExpectedPodCountFailed',
          `Failed to calculate the number of expected pods: ${message}`,
        );
        await writeStatus(this.ctx.client, pdb, status);
      }
      return;
    }

    const disrupted = disruptedPods(pdb.status?.disruptedPods, pods, now);
    const currentHealthy = countHealthy(pods, disrupted.active, now);
    const status = budgetStatus(pdb, { ...counts, currentHealthy, disruptedPods: disrupted.active }, now);
    if (status) {
      // Events only with a status change: kube repeats them on every sync, which our recorder would not aggregate.
      if (pods.length === 0) this.events.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
      if (unmanaged.length > 0) {
        this.events.event(
          pdb,
          'Warning',
          'UnmanagedPods',
          `Pods selected by this PodDisruptionBudget (selector: ${JSON.stringify(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
        );
      }
      for (const pod of disrupted.expired) {
        this.events.event(
          pod,
          'Warning',
          'NotDeleted',
          `Pod was expected by PDB ${req.namespace}/${req.name} to be deleted but it wasn't`,
        );
      }
      log.debug(
        { pdb: `${req.namespace}/${req.name}`, status: { ...status, conditions: undefined } },
        'Updating PodDisruptionBudget status',
      );
      await writeStatus(this.ctx.client, pdb, status);
    }
    if (disrupted.recheckAt !== undefined)
      return { requeueAfter: Math.max(0, disrupted.recheckAt - now) + REQUEUE_SLACK_MS };
  }

  /**
   * The summed scale of the controllers of the pods (kube's getExpectedScale): each controller counted once. Pods
   * without a controller are left out (and named in `unmanaged`); a pod whose controller is not a ReplicationController,
   * a Deployment (through its ReplicaSet), a ReplicaSet or a StatefulSet that exists with the referenced uid is an error.
   */
  private expectedScale(pods: Pod[], unmanaged: string[]): number {
    const scales = new Map<string, number>();
    for (const pod of pods) {
      const ref = controllerOf(pod);
      if (!ref) {
        unmanaged.push(pod.metadata?.name ?? '');
        continue;
      }
      if (scales.has(ref.uid)) continue;
      const namespace = pod.metadata?.namespace ?? '';
      const found =
        this.replicationController(ref, namespace) ??
        this.deployment(ref, namespace) ??
        this.replicaSet(ref, namespace) ??
        this.statefulSet(ref, namespace);
      if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata?.name ?? '')}`);
      scales.set(found.uid, found.scale);
    }
    let total = 0;
    for (const scale of scales.values()) total += scale;
    return total;
  }

  private cached<T extends { metadata?: { uid?: string } }>(
    store: { get(key: string): T | undefined },
    namespace: string,
    ref: { name: string; uid: string },
  ): T | undefined {
    const obj = store.get(`${namespace}/${ref.name}`);
    return obj?.metadata?.uid === ref.uid ? obj : undefined;
  }

  private replicationController(ref: OwnerReference, namespace: string): ControllerScale | undefined {
    if (!refIs(ref, 'ReplicationController', [''])) return undefined;
    const rc = this.cached(this.ctx.cache.informerFor(ReplicationControllerKind).store, namespace, ref);
    return rc ? { uid: ref.uid, scale: rc.spec?.replicas ?? 1 } : undefined;
  }

  /** A ReplicaSet's controlling Deployment. */
  private deployment(ref: OwnerReference, namespace: string): ControllerScale | undefined {
    if (!refIs(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
    const rs = this.cached(this.ctx.cache.informerFor(ReplicaSetKind).store, namespace, ref);
    const dRef = rs && controllerOf(rs);
    if (!dRef || !refIs(dRef, 'Deployment', ['apps', 'extensions'])) return undefined;
    const d = this.cached(this.ctx.cache.informerFor(DeploymentKind).store, namespace, dRef);
    return d ? { uid: dRef.uid, scale: d.spec?.replicas ?? 1 } : undefined;
  }

  /** A ReplicaSet not controlled by a Deployment. */
  private replicaSet(ref: OwnerReference, namespace: string): ControllerScale | undefined {
    if (!refIs(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
    const rs = this.cached(this.ctx.cache.informerFor(ReplicaSetKind).store, namespace, ref);
    if (!rs || controllerOf(rs)?.kind === 'Deployment') return undefined;
    return { uid: ref.uid, scale: rs.spec?.replicas ?? 1 };
  }

  private statefulSet(ref: OwnerReference, namespace: string): ControllerScale | undefined {
    if (!refIs(ref, 'StatefulSet', ['apps'])) return undefined;
    const sts = this.cached(this.ctx.cache.informerFor(StatefulSetKind).store, namespace, ref);
    return sts ? { uid: ref.uid, scale: sts.spec?.replicas ?? 1 } : undefined;
  }
}
