// Control plane webhooks (Gardener's extensions/pkg/webhook/controlplane and its generic mutator): a provider adapts
// the shoot control plane gardenlet deploys into the seed — the kube-apiserver, kube-controller-manager,
// kube-scheduler and machine-controller-manager Deployments and the OperatingSystemConfig — by implementing the
// `ControlPlaneEnsurer` methods it needs; `controlPlaneMutator` turns them into a mutating admission handler.
import {
  allowed,
  errored,
  patched,
  type AdmissionHandler,
  type KubernetesObject,
  type Workload,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { Cluster } from '../cluster/cluster.js';
import { deepEqual } from '../util/merge-patch.js';

/** What an ensurer method gets besides the object. */
export interface EnsurerContext {
  log: Logger;
  /** The shoot namespace the object lives in. */
  namespace: string;
  /** The namespace's Cluster, when it could be read. */
  cluster?: Cluster;
}

/** A unit of an OperatingSystemConfig (`spec.units[]`). */
export interface OSCUnit {
  name: string;
  command?: string;
  enable?: boolean;
  content?: string;
  dropIns?: { name: string; content: string }[];
  [field: string]: unknown;
}

/** A file of an OperatingSystemConfig (`spec.files[]`). */
export interface OSCFile {
  path: string;
  permissions?: number;
  content: {
    inline?: { encoding?: string; data: string };
    secretRef?: { name: string; dataKey: string };
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** An OperatingSystemConfig as the ensurer edits it. */
export interface OperatingSystemConfigObject extends KubernetesObject {
  spec: { type: string; purpose?: string; units?: OSCUnit[]; files?: OSCFile[]; [field: string]: unknown };
}

/** The provider-specific changes; implement what you need, each edits the object in place (`old` on updates). */
export interface ControlPlaneEnsurer {
  ensureKubeAPIServerDeployment?(ctx: EnsurerContext, deployment: Workload, old?: Workload): Promise<void> | void;
  ensureKubeControllerManagerDeployment?(
    ctx: EnsurerContext,
    deployment: Workload,
    old?: Workload,
  ): Promise<void> | void;
  ensureKubeSchedulerDeployment?(ctx: EnsurerContext, deployment: Workload, old?: Workload): Promise<void> | void;
  ensureMachineControllerManagerDeployment?(
    ctx: EnsurerContext,
    deployment: Workload,
    old?: Workload,
  ): Promise<void> | void;
  ensureOperatingSystemConfig?(
    ctx: EnsurerContext,
    osc: OperatingSystemConfigObject,
    old?: OperatingSystemConfigObject,
  ): Promise<void> | void;
}

/** The Deployments of the shoot control plane the mutator dispatches on, by name. */
export const ControlPlaneDeployments = {
  'kube-apiserver': 'ensureKubeAPIServerDeployment',
  'kube-controller-manager': 'ensureKubeControllerManagerDeployment',
  'kube-scheduler': 'ensureKubeSchedulerDeployment',
  'machine-controller-manager': 'ensureMachineControllerManagerDeployment',
} as const satisfies Record<string, keyof ControlPlaneEnsurer>;

/**
 * The mutating admission handler for control plane objects: calls the ensurer method for the object (by kind and
 * name), answers with the changed object, or allows it unchanged. Objects it does not know pass unchanged.
 * `cluster(namespace)` provides the Cluster to the ensurer (e.g. `getCluster` with a cached client).
 */
export function controlPlaneMutator(
  ensurer: ControlPlaneEnsurer,
  options: { cluster?: (namespace: string) => Promise<Cluster | undefined> } = {},
): AdmissionHandler {
  return async (request, hctx) => {
    const obj = request.object;
    if (!obj || request.operation === 'DELETE') return allowed();
    const namespace = request.namespace ?? obj.metadata?.namespace ?? '';
    const name = obj.metadata?.name ?? request.name ?? '';
    let call: ((ctx: EnsurerContext, o: any, old?: any) => Promise<void> | void) | undefined;
    if (request.kind.kind === 'Deployment' && name in ControlPlaneDeployments) {
      call = ensurer[ControlPlaneDeployments[name as keyof typeof ControlPlaneDeployments]]?.bind(ensurer);
    } else if (request.kind.kind === 'OperatingSystemConfig') {
      call = ensurer.ensureOperatingSystemConfig?.bind(ensurer);
    }
    if (!call) return allowed();
    try {
      const cluster = await options.cluster?.(namespace);
      const changed = structuredClone(obj);
      await call(
        { log: hctx.log, namespace, ...(cluster ? { cluster } : {}) },
        changed,
        request.oldObject ?? undefined,
      );
      return deepEqual(changed, obj) ? allowed() : patched(changed);
    } catch (err) {
      return errored(new Error(`mutating ${request.kind.kind} ${namespace}/${name}`, { cause: err }));
    }
  };
}

/** The container `name` of a Deployment's pod template, if any. */
export function containerWithName(deployment: Workload, name: string): Record<string, any> | undefined {
  const containers = (deployment.spec?.template?.spec?.containers as Record<string, any>[] | undefined) ?? [];
  return containers.find((c) => c.name === name);
}

/**
 * `items` with exactly one entry starting with `prefix`, set to `prefix + value` (Gardener's EnsureStringWithPrefix):
 * a flag like `--cloud-provider=` replaced in place or appended.
 */
export function ensureStringWithPrefix(items: readonly string[] | undefined, prefix: string, value: string): string[] {
  const list = items ?? [];
  const index = list.findIndex((s) => s.startsWith(prefix));
  if (index < 0) return [...list, prefix + value];
  return list.flatMap((s, i) => (i === index ? [prefix + value] : s.startsWith(prefix) ? [] : [s]));
}

/** `items` without entries starting with `prefix` (Gardener's EnsureNoStringWithPrefix). */
export function ensureNoStringWithPrefix(items: readonly string[] | undefined, prefix: string): string[] {
  return (items ?? []).filter((s) => !s.startsWith(prefix));
}

/** `list` with the element whose `key` equals `element[key]` replaced, or `element` appended (env vars, volumes, mounts). */
export function ensureElementByKey<T extends Record<string, unknown>>(
  list: readonly T[] | undefined,
  element: T,
  key: keyof T = 'name',
): T[] {
  const out = [...(list ?? [])];
  const index = out.findIndex((e) => e[key] === element[key]);
  if (index >= 0) out[index] = element;
  else out.push(element);
  return out;
}

/** Adds or replaces the OSC unit of the same name. */
export function ensureUnit(osc: OperatingSystemConfigObject, unit: OSCUnit): void {
  osc.spec.units = ensureElementByKey(osc.spec.units, unit, 'name');
}

/** Adds or replaces the OSC file of the same path. */
export function ensureFile(osc: OperatingSystemConfigObject, file: OSCFile): void {
  osc.spec.files = ensureElementByKey(osc.spec.files, file, 'path');
}
