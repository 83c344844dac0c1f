// defaultShoot: the defaults Gardener's API server applies to core.gardener.cloud/v1beta1 Shoots.
import type { Shoot, Worker } from '../core/v1beta1/shoot.js';
import { setDefault, setDefaults } from './util.js';

type Spec = Shoot['spec'];
type Kubernetes = Spec['kubernetes'];

/** Returns a defaulted copy of the Shoot; the argument is left unchanged. */
export function defaultShoot(input: Shoot): Shoot {
  const shoot = structuredClone(input);
  const spec = shoot.spec;
  const workers = spec.provider.workers ?? [];
  const workerless = workers.length === 0;

  setDefault(spec, 'purpose', () => 'evaluation' as const);
  if (spec.cloudProfileName && !spec.cloudProfile)
    spec.cloudProfile = { kind: 'CloudProfile' as const, name: spec.cloudProfileName };
  if (spec.cloudProfile) setDefault(spec.cloudProfile, 'kind', () => 'CloudProfile' as const);
  setDefault(spec, 'schedulerName', () => 'default-scheduler');

  if (!workerless) {
    const networking = setDefault(spec, 'networking', () => ({}));
    setDefault(networking, 'ipFamilies', () => ['IPv4' as const]);
  } else if (spec.networking) {
    setDefault(spec.networking, 'ipFamilies', () => ['IPv4' as const]);
  }

  // A Shoot may leave out `spec.kubernetes` (the version then comes from the CloudProfile): Go's zero value is an empty struct.
  defaultKubernetes(
    setDefault(spec, 'kubernetes', () => ({}) as Kubernetes),
    workerless,
  );
  for (const worker of workers) defaultWorker(worker);

  const maintenance = setDefault(spec, 'maintenance', () => ({}));
  setDefault(maintenance, 'autoUpdate', () => ({ kubernetesVersion: true, machineImageVersion: true }));
  setDefault(maintenance.autoUpdate!, 'machineImageVersion', () => true);
  setDefault(maintenance, 'timeWindow', () =>
    maintenanceWindowFor(`${shoot.metadata?.namespace}/${shoot.metadata?.name}`),
  );

  if (!workerless) {
    const systemComponents = setDefault(spec, 'systemComponents', () => ({}));
    const coreDNS = setDefault(systemComponents, 'coreDNS', () => ({}));
    setDefault(coreDNS, 'autoscaling', () => ({ mode: 'horizontal' as const }));
  }
  return shoot;
}

function defaultKubernetes(kubernetes: Kubernetes, workerless: boolean): void {
  const apiServer = setDefault(kubernetes, 'kubeAPIServer', () => ({}));
  setDefaults(apiServer, {
    enableAnonymousAuthentication: false,
    eventTTL: '1h0m0s',
    defaultNotReadyTolerationSeconds: 300,
    defaultUnreachableTolerationSeconds: 300,
  });
  setDefaults(
    setDefault(apiServer, 'requests', () => ({})),
    { maxNonMutatingInflight: 400, maxMutatingInflight: 200 },
  );
  setDefaults(
    setDefault(apiServer, 'logging', () => ({})),
    { verbosity: 2 },
  );

  if (workerless) return;

  const kcm = setDefault(kubernetes, 'kubeControllerManager', () => ({}));
  setDefault(kcm, 'nodeMonitorGracePeriod', () => '40s');
  setDefaults(
    setDefault(kcm, 'horizontalPodAutoscaler', () => ({})),
    {
      cpuInitializationPeriod: '5m0s',
      downscaleStabilization: '5m0s',
      initialReadinessDelay: '30s',
      syncPeriod: '15s',
      tolerance: 0.1,
    },
  );

  const scheduler = setDefault(kubernetes, 'kubeScheduler', () => ({}));
  setDefault(scheduler, 'profile', () => 'balanced' as const);
  const proxy = setDefault(kubernetes, 'kubeProxy', () => ({}));
  setDefaults(proxy, { mode: 'IPTables', enabled: true });

  defaultKubelet(setDefault(kubernetes, 'kubelet', () => ({})));

  if (kubernetes.verticalPodAutoscaler) {
    setDefaults(kubernetes.verticalPodAutoscaler, {
      evictAfterOOMThreshold: '10m0s',
      evictionRateBurst: 1,
      evictionRateLimit: -1,
      evictionTolerance: 0.5,
      recommendationMarginFraction: 0.15,
      updaterInterval: '1m0s',
      recommenderInterval: '1m0s',
      targetCPUPercentile: 0.9,
      recommendationLowerBoundCPUPercentile: 0.5,
      recommendationUpperBoundCPUPercentile: 0.95,
      targetMemoryPercentile: 0.9,
      recommendationLowerBoundMemoryPercentile: 0.5,
      recommendationUpperBoundMemoryPercentile: 0.95,
      cpuHistogramDecayHalfLife: '24h0m0s',
      memoryHistogramDecayHalfLife: '24h0m0s',
      memoryAggregationInterval: '24h0m0s',
      memoryAggregationIntervalCount: 8,
    });
  }
  if (kubernetes.clusterAutoscaler) {
    setDefaults(kubernetes.clusterAutoscaler, {
      scaleDownDelayAfterAdd: '1h0m0s',
      scaleDownDelayAfterDelete: '0s',
      scaleDownDelayAfterFailure: '3m0s',
      scaleDownUnneededTime: '30m0s',
      scaleDownUtilizationThreshold: 0.5,
      scanInterval: '10s',
      expander: 'least-waste',
      maxNodeProvisionTime: '20m0s',
      maxGracefulTerminationSeconds: 600,
      ignoreDaemonsetsUtilization: false,
      verbosity: 2,
      newPodScaleUpDelay: '0s',
      maxScaleDownParallelism: 10,
      maxDrainParallelism: 1,
    });
  }
}

export function defaultKubelet(kubelet: NonNullable<Kubernetes['kubelet']>): void {
  setDefaults(kubelet, {
    failSwapOn: true,
    imageGCHighThresholdPercent: 50,
    imageGCLowThresholdPercent: 40,
    serializeImagePulls: true,
    registryPullQPS: 5,
    registryBurst: 10,
    protectKernelDefaults: true,
    streamingConnectionIdleTimeout: '5m0s',
  });
  setDefaults(
    setDefault(kubelet, 'kubeReserved', () => ({})),
    { cpu: '80m', memory: '1Gi', pid: '20k' },
  );
}

function defaultWorker(worker: Worker): void {
  const inPlace = worker.updateStrategy === 'AutoInPlaceUpdate' || worker.updateStrategy === 'ManualInPlaceUpdate';
  setDefault(worker, 'updateStrategy', () => 'AutoRollingUpdate' as const);
  setDefault(worker, 'maxSurge', () => (inPlace ? 0 : 1));
  setDefault(worker, 'maxUnavailable', () => (inPlace ? 1 : 0));
  setDefault(worker, 'cri', () => ({ name: 'containerd' as const }));
  setDefault(worker, 'systemComponents', () => ({ allow: true }));
  setDefault(worker.machine, 'architecture', () => 'amd64');
  if (worker.kubernetes?.kubelet) defaultKubelet(worker.kubernetes.kubelet);
}

/**
 * A one-hour maintenance window starting between 22:00 and 05:00 UTC. Gardener picks the hour at random; here it is
 * derived from the Shoot's name so that defaulting the same object twice gives the same result.
 */
export function maintenanceWindowFor(seed: string): { begin: string; end: string } {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const beginHour = (22 + (hash % 8)) % 24;
  const pad = (n: number) => String(n).padStart(2, '0');
  return { begin: `${pad(beginHour)}0000+0000`, end: `${pad((beginHour + 1) % 24)}0000+0000` };
}
