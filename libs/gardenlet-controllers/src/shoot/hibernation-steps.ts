// "Hibernating control plane" of the shoot reconcile flow (Gardener's `Botanist.HibernateControlPlane`): once the
// workers are gone (no Node left in the shoot), gardener-resource-manager, kube-controller-manager, kube-scheduler and
// kube-apiserver are scaled to zero, then the main and events Etcds get the replicas Gardener's etcd component gives a
// hibernated shoot (0); the step ends when no Pod of them is left. The etcd data stays on the members'
// PersistentVolumeClaims, so waking up (the normal reconcile flow, which renders every component with its replicas
// again) brings the cluster back with its state.
import { Annotations, Operations } from '@gardener-ts/api';
import { isNotFound, Kinds, type Client, type Kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { etcdName, etcdReplicas } from '../component/etcd.js';
import { KubeAPIServerName } from '../component/kube-apiserver.js';
import { KubeControllerManagerName } from '../component/kube-controller-manager.js';
import { KubeSchedulerName } from '../component/kube-scheduler.js';
import { GardenerResourceManagerName } from '../component/resource-manager.js';
import { hibernationEnabled, type ShootValues } from '../component/values.js';
import { type BotanistWait, pollUntil } from './poll.js';
import { EtcdKind } from './kinds.js';

/** What hibernation scales, in order: the Deployments to 0, then each Etcd to its hibernated replicas. */
export interface HibernationPlan {
  readonly deployments: readonly string[];
  readonly etcds: readonly { readonly name: string; readonly replicas: number }[];
}

/**
 * The plan for a shoot that asks to be hibernated (pure). Gardener's order: the resource manager and controllers
 * before the API server they talk to, etcd last. Throws for a shoot that is not to be hibernated.
 */
export function hibernationPlan(values: ShootValues): HibernationPlan {
  if (!hibernationEnabled(values.shoot))
    throw new Error(`shoot ${values.namespace} is not to be hibernated (spec.hibernation.enabled is not true)`);
  return {
    deployments: [GardenerResourceManagerName, KubeControllerManagerName, KubeSchedulerName, KubeAPIServerName],
    etcds: (['main', 'events'] as const).map((role) => ({ name: etcdName(role), replicas: etcdReplicas(values) })),
  };
}

/**
 * The replicas a control plane workload is deployed with (pure; Gardener's rule for kube-apiserver, the controllers
 * and etcd): a shoot that asks to be hibernated but is not hibernated yet keeps the current replicas of a running
 * workload — the machines must go first, through an API server that still answers, and "Hibernating control plane"
 * scales it down after them. So does a hibernated shoot being deleted, which the delete flow woke up. Otherwise the
 * rendered replicas hold (0 once hibernated, the awake ones when waking up).
 */
export function replicasWhileHibernating(
  shoot: ShootValues['shoot'],
  rendered: number | undefined,
  current: number | undefined,
): number | undefined {
  if (rendered !== 0 || !hibernationEnabled(shoot)) return rendered;
  // Hibernated, it stays down — unless it is being deleted: the delete flow scaled it up to clean the shoot.
  if (shoot.status?.hibernated === true && !shoot.metadata?.deletionTimestamp) return rendered;
  return current !== undefined && current > 0 ? current : rendered;
}

/**
 * `obj` (a Deployment or Etcd of the control plane) with the replicas of `replicasWhileHibernating`, reading the
 * current object from the seed only when it matters.
 */
export async function withReplicasWhileHibernating<T extends { metadata?: { name?: string; namespace?: string } }>(
  seed: Pick<Client, 'get'>,
  kind: Kind,
  obj: T,
  shoot: ShootValues['shoot'],
): Promise<T> {
  const rendered = (obj as Partial<Scalable>).spec?.replicas;
  if (replicasWhileHibernating(shoot, rendered, 1) === rendered) return obj;
  const current = await seed
    .get(kind, { namespace: obj.metadata!.namespace!, name: obj.metadata!.name! })
    .then((o) => (o as Scalable).spec?.replicas)
    .catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  const replicas = replicasWhileHibernating(shoot, rendered, current);
  return replicas === rendered ? obj : { ...obj, spec: { ...(obj as Partial<Scalable>).spec, replicas } };
}

/** A workload as observed: its desired and its current replicas (undefined when it does not exist). */
export interface ObservedWorkload {
  readonly name: string;
  readonly desired?: number;
  readonly current?: number;
}

/**
 * Why the control plane is not hibernated yet, or undefined when every workload wants and has no replica left
 * (pure); a workload that does not exist counts as scaled down.
 */
export function notHibernatedYet(workloads: readonly ObservedWorkload[]): string | undefined {
  const running = workloads.filter((w) => (w.desired ?? 0) > 0 || (w.current ?? 0) > 0);
  if (!running.length) return undefined;
  return `still running: ${running.map((w) => `${w.name} (${w.current ?? 0} replicas)`).join(', ')}`;
}

/** What the hibernation step needs: the seed, the shoot's client while it is reachable, and how to poll. */
export interface HibernationDeps {
  readonly seed: Pick<Client, 'get' | 'list' | 'patch'>;
  readonly values: ShootValues;
  /** The shoot's API client, if the flow connected to the shoot (undefined when its API server is not running). */
  readonly shoot?: () => Pick<Client, 'list'> | undefined;
  readonly wait: BotanistWait;
  /** The clock of the Etcds' `gardener.cloud/timestamp` annotation (tests inject one). */
  readonly now?: () => Date;
}

type Scalable = KubernetesObject & { spec?: { replicas?: number }; status?: { replicas?: number } };

/**
 * "Hibernating control plane": waits until the shoot has no Node (its machines are gone), scales the control plane
 * down, and waits until none of its Pods is left. Safe to repeat: every write sets the same replicas.
 */
export async function hibernateControlPlane(deps: HibernationDeps, signal: AbortSignal): Promise<void> {
  const { seed, values, wait } = deps;
  const plan = hibernationPlan(values);
  const namespace = values.namespace;
  const shoot = deps.shoot?.();
  if (shoot)
    await pollUntil(
      `Nodes of shoot ${namespace}`,
      async () => {
        const nodes = await shoot.list(Kinds.Node).catch(() => undefined);
        // An API server that no longer answers has no Node to wait for (a repeated hibernation).
        if (!nodes?.items.length) return undefined;
        return `${nodes.items.length} Node(s) left: ${nodes.items.map((n) => n.metadata?.name).join(', ')}`;
      },
      wait,
      signal,
    );
  for (const name of plan.deployments) await scaleWorkload(seed, Kinds.Deployment, namespace, name, 0);
  for (const etcd of plan.etcds) await scaleEtcd(seed, namespace, etcd.name, etcd.replicas, deps.now);

  const observe = async (kind: Kind, name: string): Promise<ObservedWorkload> => {
    try {
      const obj = (await seed.get(kind, { namespace, name })) as Scalable;
      return { name: `${kind.kind} ${name}`, desired: obj.spec?.replicas, current: obj.status?.replicas };
    } catch (err) {
      if (isNotFound(err)) return { name };
      throw err;
    }
  };
  await pollUntil(
    `control plane of shoot ${namespace}`,
    async () =>
      notHibernatedYet([
        ...(await Promise.all(plan.deployments.map((name) => observe(Kinds.Deployment, name)))),
        // druid's StatefulSet carries the Etcd's name; its status counts the member Pods left.
        ...(await Promise.all(plan.etcds.map((etcd) => observe(Kinds.StatefulSet, etcd.name)))),
      ]),
    wait,
    signal,
  );
}

/** Sets the replicas of a control plane workload of the seed; one that does not exist is left alone. */
export async function scaleWorkload(
  seed: Pick<Client, 'patch'>,
  kind: Kind,
  namespace: string,
  name: string,
  replicas: number,
  annotations?: Record<string, string>,
): Promise<void> {
  await seed
    .patch(
      kind,
      { namespace, name },
      { type: 'merge', patch: { ...(annotations ? { metadata: { annotations } } : {}), spec: { replicas } } },
    )
    .catch((err: unknown) => {
      if (!isNotFound(err)) throw new Error(`scaling ${kind.kind} ${namespace}/${name} to ${replicas}`, { cause: err });
    });
}

/**
 * Scales an Etcd as Gardener's etcd component does: the new replicas with `gardener.cloud/operation: reconcile`,
 * without which the etcd controller (druid) does not act on a spec change.
 */
export function scaleEtcd(
  seed: Pick<Client, 'patch'>,
  namespace: string,
  name: string,
  replicas: number,
  now: () => Date = () => new Date(),
): Promise<void> {
  return scaleWorkload(seed, EtcdKind, namespace, name, replicas, {
    [Annotations.GardenerOperation]: Operations.OperationReconcile,
    [Annotations.GardenerTimestamp]: now().toISOString(),
  });
}

/**
 * The delete flow's "Scaling up ..." steps of a hibernated shoot: its control plane runs again (one replica each) so
 * that what lives in the shoot can be cleaned and gardener-resource-manager can delete its objects there.
 */
export function scaleUpForDeletion(
  seed: Pick<Client, 'patch'>,
  values: ShootValues,
  now?: () => Date,
): { etcd: () => Promise<void>; kubeAPIServer: () => Promise<void>; kubeControllerManager: () => Promise<void> } {
  const ns = values.namespace;
  return {
    etcd: async () => {
      for (const role of ['main', 'events'] as const) await scaleEtcd(seed, ns, etcdName(role), 1, now);
    },
    kubeAPIServer: () => scaleWorkload(seed, Kinds.Deployment, ns, KubeAPIServerName, 1),
    kubeControllerManager: () => scaleWorkload(seed, Kinds.Deployment, ns, KubeControllerManagerName, 1),
  };
}
