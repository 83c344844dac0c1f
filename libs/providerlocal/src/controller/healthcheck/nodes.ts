// The Worker's EveryNodeReady check (Gardener's extensions/pkg/controller/healthcheck/worker nodes checker): the
// shoot's Nodes against the machines the shoot namespace's MachineDeployments want. A pure decision over the
// MachineDeployments, Machines (seed) and Nodes (shoot), and the check that reads them.
import { shootClientFor, type CheckResult, type HealthCheck } from '@gardener-ts/extensions';
import { Kinds, type Client, type NodeObject } from '@gardener-ts/controller-runtime';
import {
  MachineDeploymentKind,
  MachineKind,
  NodeLabel,
  type Machine,
  type MachineDeployment,
} from '../../machine/objects.js';

/** The annotation on a Node that machine-controller-manager does not manage (value "1"): such Nodes are not counted. */
export const NotManagedByMCMAnnotation = 'node.machine.sapcloud.io/not-managed-by-mcm';
/** How long a scale-up (machines joining) may be Progressing before EveryNodeReady turns False (Gardener's 5 min). */
export const ScaleUpProgressingThresholdMs = 5 * 60_000;
/** How long a scale-down (Nodes draining) may be Progressing before EveryNodeReady turns False (Gardener's 15 min). */
export const ScaleDownProgressingThresholdMs = 15 * 60_000;

/** What the EveryNodeReady decision looks at. */
export interface NodesCheckInput {
  /** The MachineDeployments of the shoot namespace. */
  machineDeployments: readonly MachineDeployment[];
  /** The Machines of the shoot namespace. */
  machines: readonly Machine[];
  /** The shoot's Nodes. */
  nodes: readonly NodeObject[];
}

/**
 * EveryNodeReady from the machines wanted and the Nodes there are: False for a failed machine or an unhealthy
 * MachineDeployment; while fewer Nodes are ready than wanted, Progressing if machines are still being created (False
 * when a machine is in a bad phase or none is pending); while more Nodes are registered than wanted, Progressing if
 * the surplus is cordoned and its machines are being deleted; else True.
 */
export function everyNodeReady(input: NodesCheckInput): CheckResult {
  const desired = input.machineDeployments
    .filter((md) => !md.metadata?.deletionTimestamp)
    .reduce((n, md) => n + (md.spec?.replicas ?? 0), 0);
  const nodes = input.nodes.filter((n) => n.metadata?.annotations?.[NotManagedByMCMAnnotation] !== '1');
  const registered = nodes.length;
  const ready = nodes.filter(
    (n) => !n.spec?.unschedulable && n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;

  const unhealthy = machineDeploymentProblem(input.machineDeployments, input.machines);
  if (unhealthy) return { status: 'False', detail: unhealthy };

  if (ready < desired) {
    const scalingUp = scaleUp(input.machines, ready, desired);
    if (scalingUp) return scalingUp;
  }
  if (registered > desired) return scaleDown(input.machines, nodes, registered, desired);
  return { status: 'True' };
}

function machineDeploymentProblem(
  deployments: readonly MachineDeployment[],
  machines: readonly Machine[],
): string | undefined {
  // machine-controller-manager lists its failed machines in the deployment's status; the local machine controller
  // does not, so a Machine in phase Failed counts the same.
  const failed = [
    ...deployments.flatMap((md) =>
      (md.status?.failedMachines ?? []).map((m) => ({ name: m.name, description: m.lastOperation?.description })),
    ),
    ...machines
      .filter((m) => m.status?.currentStatus?.phase === 'Failed')
      .map((m) => ({ name: m.metadata?.name, description: m.status?.lastOperation?.description })),
  ];
  if (failed.length > 0) return `machine "${failed[0].name ?? ''}" failed: ${failed[0].description ?? ''}`;
  for (const md of deployments) {
    const problem = machineDeploymentUnhealthy(md);
    if (problem)
      return `machine deployment "${md.metadata?.name ?? ''}" in namespace "${md.metadata?.namespace ?? ''}" is unhealthy: ${problem}`;
  }
  return undefined;
}

/**
 * Why a MachineDeployment is unhealthy (Gardener's CheckMachineDeployment): its generation not observed, or one of its
 * conditions wrong — Available and Progressing must be True, ReplicaFailure and Frozen False. The local machine
 * controller writes no conditions, so a missing condition passes (Gardener requires Available).
 */
export function machineDeploymentUnhealthy(md: MachineDeployment): string | undefined {
  const generation = md.metadata?.generation ?? 0;
  const observed = md.status?.observedGeneration ?? 0;
  if (observed < generation) return `observed generation outdated (${observed}/${generation})`;
  const expected: Record<string, string> = {
    Available: 'True',
    Progressing: 'True',
    ReplicaFailure: 'False',
    Frozen: 'False',
  };
  for (const condition of md.status?.conditions ?? []) {
    const want = expected[condition.type];
    if (want !== undefined && condition.status !== want)
      return `${(condition.message ?? '').replace(/^\.+|\.+$/g, '')} (${condition.reason ?? ''})`;
  }
  return undefined;
}

function scaleUp(machines: readonly Machine[], ready: number, desired: number): CheckResult | undefined {
  if (machines.length < desired)
    return { status: 'False', detail: `not enough machine objects created yet (${machines.length}/${desired})` };
  let pending = 0;
  let erroneous = 0;
  for (const machine of machines) {
    const phase = machine.status?.currentStatus?.phase ?? '';
    if (phase === 'Running' || phase === 'Available' || phase === 'Terminating') continue;
    if (phase === 'Pending' || phase === '') pending++;
    else erroneous++;
  }
  if (erroneous > 0) return { status: 'False', detail: `${nodesAre(erroneous)} erroneous` };
  if (pending === 0)
    return {
      status: 'False',
      detail: `not enough ready worker nodes registered in the cluster (${ready}/${desired})`,
    };
  return {
    status: 'Progressing',
    detail: `${nodesAre(pending)} provisioning and should join the cluster soon`,
    progressingThresholdMs: ScaleUpProgressingThresholdMs,
  };
}

function scaleDown(
  machines: readonly Machine[],
  nodes: readonly NodeObject[],
  registered: number,
  desired: number,
): CheckResult {
  const machineOfNode = new Map<string, Machine>();
  for (const machine of machines) {
    const node = machine.metadata?.labels?.[NodeLabel];
    if (node) machineOfNode.set(node, machine);
  }
  let cordoned = 0;
  for (const node of nodes) {
    if (!node.spec?.unschedulable) continue;
    const name = node.metadata?.name ?? '';
    const machine = machineOfNode.get(name);
    if (!machine) return { status: 'False', detail: `machine object for cordoned node "${name}" not found` };
    if (!machine.metadata?.deletionTimestamp)
      return {
        status: 'False',
        detail: `cordoned node "${name}" found but corresponding machine object does not have a deletion timestamp`,
      };
    cordoned++;
  }
  const tooMany = `too many worker nodes are registered. Exceeding maximum desired machine count (${registered}/${desired})`;
  if (cordoned === 0) return { status: 'False', detail: tooMany };
  if (registered - cordoned > desired)
    return {
      status: 'False',
      detail: `${tooMany}. Additionally, ${nodesAre(cordoned)} waiting to be completely drained from pods`,
    };
  return {
    status: 'Progressing',
    detail:
      `${nodesAre(cordoned)} waiting to be drained from pods. If this persists, check your pod disruption budgets ` +
      'and pending finalizers. Please note, that nodes which fail to be drained are forcefully terminated',
    progressingThresholdMs: ScaleDownProgressingThresholdMs,
  };
}

function nodesAre(n: number): string {
  return n === 1 ? '1 node is' : `${n} nodes are`;
}

/** A client of a shoot for the checks: what they call, and `close` when done. */
export type ShootClientFactory = (
  seed: Pick<Client, 'get'>,
  namespace: string,
) => Promise<Pick<Client, 'list'> & { close?: () => void }>;

/** The shoot's client through its shoot access Secret `gardener` (what the local machine controller uses). */
export const defaultShootClient: ShootClientFactory = (seed, namespace) =>
  shootClientFor(seed, namespace, { requestTimeoutMs: 10_000 });

/**
 * The EveryNodeReady check: the MachineDeployments and Machines of the shoot namespace (seed), the Nodes of the
 * shoot (through its shoot access Secret). Rejects — the condition turns Unknown — when the shoot does not answer.
 */
export function everyNodeReadyCheck(shootClient: ShootClientFactory = defaultShootClient): HealthCheck {
  return async (ctx) => {
    const namespace = ctx.namespace;
    const [deployments, machines] = await Promise.all([
      ctx.seedClient.list(MachineDeploymentKind, { namespace }),
      ctx.seedClient.list(MachineKind, { namespace }),
    ]);
    const shoot = await shootClient(ctx.seedClient, namespace);
    let nodes: NodeObject[];
    try {
      nodes = (await shoot.list(Kinds.Node)).items;
    } catch (err) {
      throw new Error(`unable to check nodes: failed to list the Nodes of the shoot of ${namespace}`, { cause: err });
    } finally {
      shoot.close?.();
    }
    return everyNodeReady({ machineDeployments: deployments.items, machines: machines.items, nodes });
  };
}
