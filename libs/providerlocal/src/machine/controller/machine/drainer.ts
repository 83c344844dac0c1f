// Carries out the drain of a deleted machine's Node in its shoot, one step per reconcile (machine-controller-manager
// runs it as one blocking call; here a step never blocks a worker): cordon the Node (`spec.unschedulable`), put MCM's
// `Terminating` condition on it, then for every Pod the drain takes (see ./drain.ts) evict it through the Eviction
// API, evict again while a PodDisruptionBudget refuses, delete it when the evictions are used up or the drain is
// forced, and wait until it is gone. Unless the drain is forced, Pods with PersistentVolumeClaim volumes go one by one,
// each once the previous one is gone and its volumes are detached from the Node (./volume-drain.ts, MCM's PV-aware
// drain). What it remembers of each Pod (refused evictions, when it was evicted, the Pod with volumes in flight) lives
// in memory per machine; a restarted controller rebuilds it from what is persisted — when the drain began (the Machine's
// drain operation, as MCM's blocking drain call has it) and the Pods' deletion timestamps — so it continues the same
// drain and its timeouts instead of starting again (a Pod with volumes that is gone before the restart is not waited
// for any more: its volumes are not known then).
import {
  Kinds,
  isNotFound,
  kind,
  type ApiClient,
  type Client,
  type GenericObject,
  type PodObject,
} from '@gardener-ts/controller-runtime';
import { labelSelectorMatches } from '@gardener-ts/api';
import {
  effectiveMaxEvictRetries,
  forceReason,
  isMisconfiguredBudget,
  nextPodStep,
  podsToDrain,
  restoredPodState,
  terminationCondition,
  type DisruptionBudget,
  type ForceReason,
  type PodDrainState,
} from './drain.js';
import { PodEvictionRetryIntervalMs } from './settings.js';
import {
  DefaultPVDetachTimeoutMs,
  attachedVolumes,
  inFlightStep,
  podKey,
  splitByVolumes,
  trackedVolumes,
  volumePodActions,
  type DrainClaim,
  type DrainVolumeAttachment,
  type VolumePodInFlight,
} from './volume-drain.js';

const VolumeAttachmentKind = kind<GenericObject>('storage.k8s.io/v1', 'VolumeAttachment');

/** How often a drain looks whether its evicted Pods are gone (MCM's waitForDelete interval). */
export const DrainPollIntervalMs = 5_000;

/**
 * The shoot API a drain needs: Nodes and Pods, PodDisruptionBudgets, PersistentVolumeClaims and VolumeAttachments, and
 * the Eviction API.
 */
export interface DrainShoot {
  client: Pick<Client, 'get' | 'list' | 'patch' | 'delete'>;
  /** POSTs an Eviction for a Pod; rejects with the API server's error (429 when a PodDisruptionBudget refuses). */
  evict(namespace: string, name: string): Promise<void>;
}

/** The Eviction API of a shoot client. */
export function drainShootOf(api: ApiClient): DrainShoot {
  return {
    client: api,
    evict: async (namespace, name) => {
      await api.transport.request({
        method: 'POST',
        path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/eviction`,
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } },
      });
    },
  };
}

/** One drain step of a deleted machine. */
export interface DrainRequest {
  /** `namespace/name` of the Machine (what the drain's memory is kept by). */
  machine: string;
  nodeName: string;
  /** The machine's phase before it turned Terminating (the reason of the Node's Terminating condition). */
  phase: string | undefined;
  /** When the machine was deleted, ms since the epoch. */
  deletedAt: number;
  /**
   * When this drain began, ms since the epoch, as the Machine records it (its drain operation's `lastUpdateTime`);
   * absent for a drain that begins now. A drain this process remembers nothing of continues from it.
   */
  startedAt?: number;
  now: number;
  drainTimeoutMs: number;
  maxEvictRetries: number;
  /** The machine carries `force-deletion: "True"`. */
  forceLabel?: boolean;
}

/** Where a drain stands after a step. */
export interface DrainOutcome {
  /** Done: every Pod the drain takes is gone (forced: deleted); Failed: see `message`; Draining: look again later. */
  state: 'Done' | 'Draining' | 'Failed';
  /** Why the drain is forced, if it is. */
  forced?: ForceReason;
  /** The Node was not in the shoot (nothing to drain). */
  nodeMissing?: boolean;
  message: string;
  /** MCM's warnings (DaemonSet Pods ignored, Pods with local storage or without controller deleted). */
  warnings: string[];
  /** Look again after this many ms (Draining). */
  recheckAfterMs?: number;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const codeOf = (err: unknown) => (err as { code?: number }).code;

/** Options of a {@link NodeDrainer}. */
export interface NodeDrainerOptions {
  /** How long the volumes of an evicted Pod may take to detach beyond its grace period (MCM: 2 minutes). */
  pvDetachTimeoutMs?: number;
}

/** Drains Nodes of deleted machines, step by step. */
export class NodeDrainer {
  private readonly memory = new Map<string, Map<string, PodDrainState>>();
  /** Per machine, the Pod with volumes whose eviction was accepted and whose volumes are waited for. */
  private readonly inFlight = new Map<string, VolumePodInFlight>();
  private readonly pvDetachTimeoutMs: number;

  constructor(
    private readonly retryIntervalMs: number = PodEvictionRetryIntervalMs,
    options: NodeDrainerOptions = {},
  ) {
    this.pvDetachTimeoutMs = options.pvDetachTimeoutMs ?? DefaultPVDetachTimeoutMs;
  }

  /** Forgets what the drain of a machine remembered (its machine is gone). */
  forget(machine: string): void {
    this.memory.delete(machine);
    this.inFlight.delete(machine);
  }

  /** One step of the drain; rejects when the shoot does not answer (the Node cannot be read or cordoned). */
  async step(shoot: DrainShoot, req: DrainRequest): Promise<DrainOutcome> {
    const { client } = shoot;
    const node = await client.get(Kinds.Node, { name: req.nodeName }).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!node) {
      this.forget(req.machine);
      return { state: 'Done', nodeMissing: true, message: `Node ${req.nodeName} is not in the shoot`, warnings: [] };
    }
    const forced = forceReason({
      now: req.now,
      deletedAt: req.deletedAt,
      drainTimeoutMs: req.drainTimeoutMs,
      forceLabel: req.forceLabel,
      nodeConditions: node.status?.conditions,
    });
    const condition = terminationCondition(node.status?.conditions, req.phase, new Date(req.now).toISOString());
    if (condition) {
      try {
        await client.patch(
          Kinds.Node,
          { name: req.nodeName },
          { type: 'strategic', patch: { status: { conditions: [condition] } } },
          { subresource: 'status' },
        );
      } catch (err) {
        if (!forced) {
          return {
            state: 'Failed',
            message: `failure in update of node conditions - ${errorText(err)}`,
            warnings: [],
          };
        }
      }
    }
    if (!node.spec?.unschedulable) {
      const gone = await client
        .patch(Kinds.Node, { name: req.nodeName }, { type: 'merge', patch: { spec: { unschedulable: true } } })
        .then(
          () => false,
          (err: unknown) => {
            if (isNotFound(err)) return true;
            throw err;
          },
        );
      if (gone) {
        this.forget(req.machine);
        return { state: 'Done', nodeMissing: true, message: `Node ${req.nodeName} is not in the shoot`, warnings: [] };
      }
    }

    const onNode = await client.list(Kinds.Pod, { fieldSelector: { 'spec.nodeName': req.nodeName } });
    const { drain, warnings } = podsToDrain(onNode.items, req.nodeName);
    // A forced drain deletes every Pod at once; otherwise those with volumes go one by one (./volume-drain.ts).
    const { withVolumes, withoutVolumes } = forced
      ? { withVolumes: [] as PodObject[], withoutVolumes: drain }
      : splitByVolumes(drain);
    const remembered = this.memory.get(req.machine);
    // Nothing remembered of a drain that began before (a restart): its Pods' states as the drain has them by now.
    const restore = remembered === undefined && req.startedAt !== undefined ? req.startedAt : undefined;
    const previous = remembered ?? new Map<string, PodDrainState>();
    const states = new Map<string, PodDrainState>();
    const maxEvictRetries = effectiveMaxEvictRetries(req.maxEvictRetries, req.drainTimeoutMs, forced !== undefined);
    const errors: string[] = [];
    let left = 0;
    let next = Infinity;

    // The Pod with volumes in flight: once it is gone, wait until its volumes are detached from the Node.
    let inFlight = forced ? undefined : this.inFlight.get(req.machine);
    let detaching: string | undefined;
    if (inFlight) {
      const present = withVolumes.some((pod) => podKey(pod) === inFlight!.key);
      const attached = present ? new Set<string>() : await this.attachedVolumes(shoot, req.nodeName);
      const step = inFlightStep({
        inFlight,
        podPresent: present,
        attached,
        now: req.now,
        detachTimeoutMs: this.pvDetachTimeoutMs,
      });
      if (step.type === 'detached') inFlight = undefined;
      else if (step.type === 'wait') {
        detaching = `volume(s) ${step.attached.join(', ')} of Pod ${inFlight.name} still attached`;
        next = Math.min(next, step.untilMs - req.now);
      } else if (step.type === 'timeout') {
        errors.push(
          `timeout while waiting for PVs ${step.attached.join(', ')} of pod "${inFlight.name}" to detach from ` +
            `node ${req.nodeName}`,
        );
        inFlight = undefined; // the drain goes on with the next Pod with volumes
      }
    }

    const steps = [...withoutVolumes, ...withVolumes].map((pod) => {
      const uid = podKey(pod);
      if (restore !== undefined) {
        previous.set(
          uid,
          restoredPodState(pod, { startedAt: restore, now: req.now, retryIntervalMs: this.retryIntervalMs }),
        );
      }
      const state: PodDrainState = { ...(previous.get(uid) ?? { refused: 0, nextAttemptAt: 0 }) };
      states.set(uid, state);
      const step = nextPodStep({
        pod,
        state: previous.get(uid),
        now: req.now,
        forced: forced !== undefined,
        maxEvictRetries,
        drainTimeoutMs: req.drainTimeoutMs,
      });
      return { pod, uid, state, step };
    });
    const serial = volumePodActions(
      steps.slice(withoutVolumes.length).map((s) => s.step),
      inFlight !== undefined,
    );
    let volumes: Map<string, string[]> | undefined;
    const volumesOf = async (pod: PodObject) => {
      volumes ??= trackedVolumes(withVolumes, await this.claims(shoot));
      return volumes.get(podKey(pod)) ?? [];
    };
    const track = async (pod: PodObject, removedAt: number) => {
      const grace = (pod.spec?.terminationGracePeriodSeconds as number | undefined) ?? 0;
      inFlight = {
        key: podKey(pod),
        name: `${pod.metadata?.namespace}/${pod.metadata?.name}`,
        volumes: await volumesOf(pod),
        removedAt,
        graceMs: grace * 1000,
      };
    };

    for (const [i, { pod, state, step }] of steps.entries()) {
      const action = i < withoutVolumes.length ? 'own' : serial.actions[i - withoutVolumes.length];
      if (action === 'queued' || (action === 'try' && inFlight !== undefined)) {
        // Another Pod with volumes is in flight: this one waits its turn.
        left++;
        next = Math.min(next, DrainPollIntervalMs);
        continue;
      }
      switch (step.type) {
        case 'evict':
        case 'delete': {
          const error = await this.remove(shoot, pod, step.type, state, req.now);
          if (error === 'gone') break;
          if (error) errors.push(error);
          left++;
          next = Math.min(next, state.removedAt !== undefined ? DrainPollIntervalMs : this.retryIntervalMs);
          if (action === 'try' && state.removedAt !== undefined) await track(pod, state.removedAt);
          break;
        }
        case 'retry-later':
          left++;
          next = Math.min(next, step.atMs - req.now);
          break;
        case 'wait':
          state.removedAt ??= req.now;
          left++;
          next = Math.min(next, DrainPollIntervalMs, step.untilMs - req.now + 1);
          // A Pod with volumes evicted before this process knew of it (a restart): the one in flight.
          if (i >= withoutVolumes.length && inFlight === undefined) await track(pod, state.removedAt);
          break;
        case 'timeout':
          errors.push(
            `timeout expired while waiting for pod "${pod.metadata?.name}" terminating scheduled on node ${req.nodeName}`,
          );
          state.removedAt = req.now; // the next sync waits for it again
          left++;
          break;
        case 'done':
          break;
      }
    }
    if (inFlight) this.inFlight.set(req.machine, inFlight);
    else this.inFlight.delete(req.machine);
    this.memory.set(req.machine, states);
    const base = { warnings, ...(forced ? { forced } : {}) };
    if (forced) {
      this.forget(req.machine); // the deletion goes on either way
      return errors.length === 0
        ? { ...base, state: 'Done', message: `Node ${req.nodeName} drained by force` }
        : { ...base, state: 'Failed', message: errors.join('; ') };
    }
    if (errors.length > 0) {
      return { ...base, state: 'Failed', message: errors.join('; '), recheckAfterMs: DrainPollIntervalMs };
    }
    if (left > 0 || detaching) {
      return {
        ...base,
        state: 'Draining',
        message: [left > 0 ? `${left} Pod(s) left on Node ${req.nodeName}` : '', detaching ?? '']
          .filter((m) => m !== '')
          .join('; '),
        recheckAfterMs: Math.max(1, Math.min(next, DrainPollIntervalMs * 12)),
      };
    }
    this.forget(req.machine);
    return { ...base, state: 'Done', message: `Node ${req.nodeName} drained` };
  }

  /**
   * Evicts or deletes (grace period 0, as MCM) a Pod, updating its state: `gone` when it already was, an error text
   * when the drain fails for it, undefined when it is on its way (or a PodDisruptionBudget refused: later again).
   */
  private async remove(
    shoot: DrainShoot,
    pod: PodObject,
    how: 'evict' | 'delete',
    state: PodDrainState,
    now: number,
  ): Promise<string | 'gone' | undefined> {
    const namespace = pod.metadata!.namespace!;
    const name = pod.metadata!.name!;
    try {
      if (how === 'evict') await shoot.evict(namespace, name);
      else await shoot.client.delete(Kinds.Pod, { namespace, name }, { gracePeriodSeconds: 0 });
      state.removedAt = now;
      return undefined;
    } catch (err) {
      if (isNotFound(err)) return 'gone';
      if (how === 'evict' && codeOf(err) === 429) {
        state.refused++;
        state.nextAttemptAt = now + this.retryIntervalMs;
        const budget = await this.budgetOf(shoot, pod);
        if (budget && isMisconfiguredBudget(budget)) {
          return (
            `error while evicting pod "${name}": pod disruption budget ${namespace}/${budget.metadata?.name} ` +
            'is misconfigured and requires zero voluntary evictions'
          );
        }
        return undefined;
      }
      return `error when evicting pod "${name}": ${errorText(err)} scheduled on node ${pod.spec?.nodeName}`;
    }
  }

  /** The shoot's PersistentVolumeClaims; none when they cannot be read (their volumes are not waited for, as MCM). */
  private async claims(shoot: DrainShoot): Promise<DrainClaim[]> {
    const claims = await shoot.client.list(Kinds.PersistentVolumeClaim).catch(() => ({ items: [] as GenericObject[] }));
    return claims.items as DrainClaim[];
  }

  /** The PersistentVolumes VolumeAttachments tie to the Node; none where the shoot serves no VolumeAttachments. */
  private async attachedVolumes(shoot: DrainShoot, nodeName: string): Promise<Set<string>> {
    const attachments = await shoot.client.list(VolumeAttachmentKind).catch((err: unknown) => {
      if (isNotFound(err)) return { items: [] as GenericObject[] };
      throw err;
    });
    return attachedVolumes(attachments.items as DrainVolumeAttachment[], nodeName);
  }

  /** The first PodDisruptionBudget selecting a Pod (MCM picks the first too); none when they cannot be read. */
  private async budgetOf(shoot: DrainShoot, pod: PodObject): Promise<DisruptionBudget | undefined> {
    const budgets = await shoot.client
      .list(Kinds.PodDisruptionBudget, { namespace: pod.metadata!.namespace! })
      .catch(() => ({ items: [] as GenericObject[] }));
    const labels = pod.metadata?.labels ?? {};
    return (budgets.items as DisruptionBudget[]).find(
      (b) =>
        b.spec?.selector !== undefined &&
        b.spec.selector !== null &&
        labelSelectorMatches(b.spec.selector as Parameters<typeof labelSelectorMatches>[0], labels),
    );
  }
}
