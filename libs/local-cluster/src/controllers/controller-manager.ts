// The local controller manager: kube-controller-manager's built-in workload controllers and kube-scheduler, as
// controllers of one controller-runtime manager.
import type { KubeConfig } from '@kubernetes/client-node';
import { loadKubeConfig, Manager } from '@gardener-ts/controller-runtime';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { addCronJobController } from './cronjob/controller.js';
import { addDaemonSetController } from './daemonset/controller.js';
import { addDeploymentController } from './deployment/controller.js';
import { addDisruptionController } from './disruption/controller.js';
import { addEndpointsController } from './endpoints/controller.js';
import { addEndpointSliceController } from './endpointslice/controller.js';
import { addJobController } from './job/controller.js';
import { addNodeLifecycleController } from './nodelifecycle/controller.js';
import { addReplicaSetController } from './replicaset/controller.js';
import { addStatefulSetController } from './statefulset/controller.js';
import { addPodGCController } from './podgc/controller.js';
import { addTaintEvictionController } from './tainteviction/controller.js';
import { addScheduler } from './scheduler/controller.js';
import { addKubeletServingCSRApprover, KUBELET_SERVING_APPROVER } from './csrapproving-kubelet-serving/controller.js';
import { addCSRApprovingController, CSR_APPROVING } from './csrapproving/controller.js';
import { addCSRSigningController, CSR_SIGNING, type CSRSigningOptions } from './csrsigning/controller.js';
import {
  addLocalPathProvisioner,
  addPersistentVolumeBinder,
  LOCAL_PATH_PROVISIONER_CONTROLLER,
  PERSISTENTVOLUME_BINDER,
} from './persistentvolume/controller.js';
import { addPVCProtectionController, PVC_PROTECTION } from './persistentvolume/protection.js';
import { addRootCACertPublisher, ROOT_CA_CERT_PUBLISHER } from './rootcacertpublisher/add.js';
import { controllerContext, type ControllerContext } from './shared/context.js';
import { ServiceAccountCredentials } from './shared/service-account-credentials.js';

export interface ControllerManagerOptions {
  /** A KubeConfig or the path of a kubeconfig file. */
  kubeConfig: KubeConfig | string;
  logger?: Logger;
  /** Which controllers to run (names as in CONTROLLER_NAMES); by default all but the opt-in ones (OPT_IN_CONTROLLERS). */
  controllers?: string[];
  /**
   * kube's --use-service-account-credentials: each controller writes as its ServiceAccount kube-system/<name> (see
   * shared/service-account-credentials.ts); the kubeconfig's identity then needs only system:kube-controller-manager.
   */
  useServiceAccountCredentials?: boolean;
  /**
   * The scheduler names (kube-scheduler's profiles) whose pods the `scheduler` places; default `default-scheduler`.
   * Every profile scores as the default one does.
   */
  schedulerNames?: readonly string[];
  /** The clock, in milliseconds since the epoch (tests inject one). */
  now?: () => number;
  /** The first back-off before a Job replaces a failed pod (kube: 10 s); tests shorten it. */
  jobBackoffBaseMs?: number;
  /**
   * How long a node's kubelet may go without renewing its Lease or posting status before the node lifecycle
   * controller sets the Node's conditions to Unknown and taints it unreachable (kube's --node-monitor-grace-period:
   * 40 s); tests shorten it.
   */
  nodeMonitorGracePeriodMs?: number;
  /**
   * The grace period of a node whose kubelet never posted a Ready condition, counted from its creation (kube's
   * --node-startup-grace-period: 60 s); tests shorten it.
   */
  nodeStartupGracePeriodMs?: number;
  /**
   * How long a pod's node must have been missing before the pod garbage collector fails and deletes the pod (kube's
   * podgc quarantine: 40 s); tests shorten it.
   */
  podGCQuarantineMs?: number;
  /**
   * Nodes per second the node lifecycle controller NoExecute-taints in a zone that is healthy, or fully disrupted
   * while another zone is not (kube's --node-eviction-rate: 0.1, one node per 10 s); tests raise it.
   */
  nodeEvictionRate?: number;
  /** Nodes per second in a partially disrupted zone larger than largeClusterSizeThreshold (kube's --secondary-node-eviction-rate: 0.01). */
  secondaryNodeEvictionRate?: number;
  /** The share of not-Ready nodes (more than 2) that makes a zone partially disrupted (kube's --unhealthy-zone-threshold: 0.55). */
  unhealthyZoneThreshold?: number;
  /** Zones of at most this many nodes stop tainting when partially disrupted (kube's --large-cluster-size-threshold: 50). */
  largeClusterSizeThreshold?: number;
  /**
   * The directory the local-path provisioner makes PersistentVolumes in (kind's local-path-provisioner); with it the
   * `local-path-provisioner` controller runs by default, without it that controller cannot run.
   */
  localVolumesDir?: string;
  /**
   * The CAs the `csrsigning` controller signs approved CSRs with (kube's --cluster-signing-* flags); without them it
   * does not run (the substrate's API server then signs itself).
   */
  csrSigning?: CSRSigningOptions;
  /**
   * The CA bundle (PEM) the `root-ca-cert-publisher` controller puts into ConfigMap `kube-root-ca.crt` of every
   * namespace (kube's --root-ca-file); without it that controller does not run (the substrate's API server then
   * publishes its own CA).
   */
  rootCA?: string;
}

export interface ControllerManager {
  stop(): Promise<void>;
}

type AddController = (ctx: ControllerContext, options: ControllerManagerOptions) => void | Promise<void>;

const CONTROLLERS: Record<string, AddController> = {
  replicaset: addReplicaSetController,
  deployment: addDeploymentController,
  scheduler: addScheduler,
  endpoints: addEndpointsController,
  endpointslice: addEndpointSliceController,
  statefulset: addStatefulSetController,
  daemonset: addDaemonSetController,
  cronjob: addCronJobController,
  job: (ctx, o) => addJobController(ctx, { backoffBaseMs: o.jobBackoffBaseMs ?? 10_000 }),
  tainteviction: addTaintEvictionController,
  podgc: (ctx, o) => addPodGCController(ctx, { quarantineMs: o.podGCQuarantineMs }),
  disruption: addDisruptionController,
  nodelifecycle: (ctx, o) =>
    addNodeLifecycleController(ctx, {
      gracePeriodMs: o.nodeMonitorGracePeriodMs ?? 40_000,
      startupGracePeriodMs: o.nodeStartupGracePeriodMs ?? 60_000,
      zones: {
        evictionRate: o.nodeEvictionRate,
        secondaryEvictionRate: o.secondaryNodeEvictionRate,
        unhealthyZoneThreshold: o.unhealthyZoneThreshold,
        largeClusterSizeThreshold: o.largeClusterSizeThreshold,
      },
    }),
  [CSR_APPROVING]: addCSRApprovingController,
  [CSR_SIGNING]: (ctx, o) => addCSRSigningController(ctx, o.csrSigning),
  [ROOT_CA_CERT_PUBLISHER]: (ctx, o) => addRootCACertPublisher(ctx, o.rootCA),
  [PERSISTENTVOLUME_BINDER]: addPersistentVolumeBinder,
  [PVC_PROTECTION]: addPVCProtectionController,
  [LOCAL_PATH_PROVISIONER_CONTROLLER]: (ctx, o) => {
    if (!o.localVolumesDir) throw new Error(`controller ${LOCAL_PATH_PROVISIONER_CONTROLLER} needs localVolumesDir`);
    addLocalPathProvisioner(ctx, { root: o.localVolumesDir });
  },
  [KUBELET_SERVING_APPROVER]: addKubeletServingCSRApprover,
};

export const CONTROLLER_NAMES: readonly string[] = Object.keys(CONTROLLERS);

/** Controllers kube-controller-manager does not have: they run only when `controllers` names them. */
export const OPT_IN_CONTROLLERS: readonly string[] = [KUBELET_SERVING_APPROVER, LOCAL_PATH_PROVISIONER_CONTROLLER];

export async function startControllerManager(options: ControllerManagerOptions): Promise<ControllerManager> {
  const names = options.controllers ?? [
    ...CONTROLLER_NAMES.filter((n) => !OPT_IN_CONTROLLERS.includes(n)),
    ...(options.localVolumesDir ? [LOCAL_PATH_PROVISIONER_CONTROLLER] : []),
  ];
  const unknown = names.filter((n) => !(n in CONTROLLERS));
  if (unknown.length)
    throw new Error(`unknown controllers ${unknown.join(', ')}; known: ${CONTROLLER_NAMES.join(', ')}`);
  const log = options.logger ?? createLogger({ name: 'controller-manager', level: 'silent' });
  const kubeConfig = typeof options.kubeConfig === 'string' ? loadKubeConfig(options.kubeConfig) : options.kubeConfig;
  const mgr = await Manager.create({ clusters: { local: kubeConfig }, log });
  const ctx = controllerContext(mgr, log, options.now ?? Date.now);
  const credentials = options.useServiceAccountCredentials
    ? new ServiceAccountCredentials(mgr.cluster().api, kubeConfig, log)
    : undefined;
  // Each ServiceAccount is created and gets its client side by side (one round trip each, not one after the other).
  const contexts = await Promise.all(names.map(async (name) => (await credentials?.contextFor(ctx, name)) ?? ctx));
  for (const [i, name] of names.entries()) await CONTROLLERS[name](contexts[i]!, options);
  await mgr.start();
  log.info({ controllers: names, serviceAccounts: !!credentials }, 'Controller manager started');
  return {
    stop: async () => {
      await mgr.stop();
      await credentials?.close();
    },
  };
}
