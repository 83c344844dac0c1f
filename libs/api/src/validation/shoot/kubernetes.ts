// spec.kubernetes of a Shoot: version and control plane component settings.
import type { Static } from '@sinclair/typebox';
import type { Kubernetes } from '../../core/v1beta1/shoot.js';
import { type FieldError, FieldPath, forbidden, invalid, required } from '../field.js';
import {
  validateDuration,
  validateNonNegative,
  validateResourceList,
  validateStringEnum,
  validateUnique,
} from '../common.js';
import { parseVersion } from '../formats.js';
import { validateKubeletConfig } from './kubelet.js';

const day = 24 * 3600 * 1000;

export function validateKubernetesVersion(version: string | undefined, path: FieldPath): FieldError[] {
  if (!version) return [required(path, 'kubernetes version must not be empty')];
  if (!parseVersion(version)) return [invalid(path, version, 'must be a semantic version')];
  return [];
}

export function validateKubernetes(kubernetes: Static<typeof Kubernetes>, workerless: boolean): FieldError[] {
  const path = FieldPath.root('spec', 'kubernetes');
  const errors = validateKubernetesVersion(kubernetes.version, path.child('version'));

  const apiServer = kubernetes.kubeAPIServer;
  if (apiServer) {
    const p = path.child('kubeAPIServer');
    (apiServer.admissionPlugins ?? []).forEach((plugin, i) => {
      if (!plugin.name) errors.push(required(p.child('admissionPlugins').index(i).child('name')));
    });
    errors.push(...validateUnique(apiServer.admissionPlugins, p.child('admissionPlugins'), (a) => a.name, 'name'));
    errors.push(...validateNonNegative(apiServer.watchCacheSizes?.default, p.child('watchCacheSizes', 'default')));
    (apiServer.watchCacheSizes?.resources ?? []).forEach((resource, i) => {
      const r = p.child('watchCacheSizes', 'resources').index(i);
      if (!resource.resource) errors.push(required(r.child('resource'), 'must not be empty'));
      errors.push(...validateNonNegative(resource.size, r.child('size')));
    });
    errors.push(
      ...validateNonNegative(apiServer.requests?.maxNonMutatingInflight, p.child('requests', 'maxNonMutatingInflight')),
    );
    errors.push(
      ...validateNonNegative(apiServer.requests?.maxMutatingInflight, p.child('requests', 'maxMutatingInflight')),
    );
    errors.push(
      ...validateNonNegative(apiServer.defaultNotReadyTolerationSeconds, p.child('defaultNotReadyTolerationSeconds')),
    );
    errors.push(
      ...validateNonNegative(
        apiServer.defaultUnreachableTolerationSeconds,
        p.child('defaultUnreachableTolerationSeconds'),
      ),
    );
    errors.push(...validateNonNegative(apiServer.logging?.verbosity, p.child('logging', 'verbosity')));
    errors.push(
      ...validateNonNegative(apiServer.logging?.httpAccessVerbosity, p.child('logging', 'httpAccessVerbosity')),
    );
    errors.push(
      ...validateDuration(apiServer.eventTTL, p.child('eventTTL'), {
        min: 0,
        minText: '0s',
        max: 7 * day,
        maxText: '168h',
      }),
    );
    errors.push(
      ...validateDuration(
        apiServer.serviceAccountConfig?.maxTokenExpiration,
        p.child('serviceAccountConfig', 'maxTokenExpiration'),
        {
          min: 30 * day,
          minText: '720h',
          max: 90 * day,
          maxText: '2160h',
        },
      ),
    );
    if (apiServer.oidcConfig?.issuerURL !== undefined && !apiServer.oidcConfig.issuerURL.startsWith('https://')) {
      errors.push(
        invalid(p.child('oidcConfig', 'issuerURL'), apiServer.oidcConfig.issuerURL, 'must have https scheme'),
      );
    }
    errors.push(
      ...validateUnique(apiServer.encryptionConfig?.resources, p.child('encryptionConfig', 'resources'), (r) => r),
    );
    errors.push(...validateResourceList(apiServer.autoscaling?.minAllowed, p.child('autoscaling', 'minAllowed')));
  }

  const kcm = kubernetes.kubeControllerManager;
  if (kcm) {
    const p = path.child('kubeControllerManager');
    if (kcm.nodeCIDRMaskSize !== undefined && (kcm.nodeCIDRMaskSize < 16 || kcm.nodeCIDRMaskSize > 28)) {
      errors.push(
        invalid(p.child('nodeCIDRMaskSize'), kcm.nodeCIDRMaskSize, 'nodeCIDRMaskSize must be between 16 and 28'),
      );
    }
    const hpa = kcm.horizontalPodAutoscaler;
    if (hpa) {
      const h = p.child('horizontalPodAutoscaler');
      for (const name of [
        'cpuInitializationPeriod',
        'downscaleStabilization',
        'initialReadinessDelay',
        'syncPeriod',
      ] as const) {
        errors.push(...validateDuration(hpa[name], h.child(name)));
      }
      if (hpa.syncPeriod !== undefined)
        errors.push(...validateDuration(hpa.syncPeriod, h.child('syncPeriod'), { min: 1000, minText: '1s' }));
      if (hpa.tolerance !== undefined && hpa.tolerance <= 0)
        errors.push(invalid(h.child('tolerance'), hpa.tolerance, 'must be greater than 0'));
    }
    errors.push(...validateDuration(kcm.nodeMonitorGracePeriod, p.child('nodeMonitorGracePeriod')));
    if (workerless && (kcm.nodeCIDRMaskSize !== undefined || kcm.horizontalPodAutoscaler !== undefined)) {
      errors.push(forbidden(p, 'node and pod autoscaling settings are not supported for workerless Shoots'));
    }
  }

  if (kubernetes.kubeScheduler?.profile !== undefined) {
    errors.push(
      ...validateStringEnum(kubernetes.kubeScheduler.profile, path.child('kubeScheduler', 'profile'), [
        'balanced',
        'bin-packing',
      ]),
    );
  }
  if (kubernetes.kubeProxy) {
    if (workerless)
      errors.push(forbidden(path.child('kubeProxy'), 'this field is not supported for workerless Shoot clusters'));
    if (kubernetes.kubeProxy.mode !== undefined) {
      errors.push(
        ...validateStringEnum(kubernetes.kubeProxy.mode, path.child('kubeProxy', 'mode'), ['IPTables', 'IPVS']),
      );
    }
  }
  if (kubernetes.kubelet) {
    if (workerless)
      errors.push(forbidden(path.child('kubelet'), 'this field is not supported for workerless Shoot clusters'));
    errors.push(...validateKubeletConfig(kubernetes.kubelet, path.child('kubelet')));
  }
  const ca = kubernetes.clusterAutoscaler;
  if (ca) {
    const p = path.child('clusterAutoscaler');
    if (workerless) errors.push(forbidden(p, 'this field is not supported for workerless Shoot clusters'));
    if (
      ca.scaleDownUtilizationThreshold !== undefined &&
      (ca.scaleDownUtilizationThreshold < 0 || ca.scaleDownUtilizationThreshold > 1)
    ) {
      errors.push(
        invalid(p.child('scaleDownUtilizationThreshold'), ca.scaleDownUtilizationThreshold, 'value must be in [0,1]'),
      );
    }
    if (ca.expander !== undefined) {
      for (const mode of ca.expander.split(',')) {
        errors.push(
          ...validateStringEnum(mode, p.child('expander'), ['least-waste', 'most-pods', 'priority', 'random']),
        );
      }
    }
    for (const name of [
      'scaleDownDelayAfterAdd',
      'scaleDownDelayAfterDelete',
      'scaleDownDelayAfterFailure',
      'scaleDownUnneededTime',
      'scanInterval',
      'maxNodeProvisionTime',
      'newPodScaleUpDelay',
    ] as const) {
      errors.push(...validateDuration(ca[name], p.child(name)));
    }
    for (const name of [
      'maxGracefulTerminationSeconds',
      'maxEmptyBulkDelete',
      'verbosity',
      'maxScaleDownParallelism',
      'maxDrainParallelism',
    ] as const) {
      errors.push(...validateNonNegative(ca[name], p.child(name)));
    }
  }
  const vpa = kubernetes.verticalPodAutoscaler;
  if (vpa) {
    const p = path.child('verticalPodAutoscaler');
    for (const name of [
      'evictionTolerance',
      'recommendationMarginFraction',
      'targetCPUPercentile',
      'recommendationLowerBoundCPUPercentile',
      'recommendationUpperBoundCPUPercentile',
      'targetMemoryPercentile',
      'recommendationLowerBoundMemoryPercentile',
      'recommendationUpperBoundMemoryPercentile',
    ] as const) {
      const value = vpa[name];
      if (value !== undefined && (value < 0 || value > 1))
        errors.push(invalid(p.child(name), value, 'value must be in [0,1]'));
    }
    errors.push(...validateNonNegative(vpa.evictionRateBurst, p.child('evictionRateBurst')));
    for (const name of [
      'evictAfterOOMThreshold',
      'updaterInterval',
      'recommenderInterval',
      'cpuHistogramDecayHalfLife',
      'memoryHistogramDecayHalfLife',
      'memoryAggregationInterval',
    ] as const) {
      errors.push(...validateDuration(vpa[name], p.child(name)));
    }
  }
  for (const name of ['main', 'events'] as const) {
    errors.push(
      ...validateResourceList(
        kubernetes.etcd?.[name]?.autoscaling?.minAllowed,
        path.child('etcd', name, 'autoscaling', 'minAllowed'),
      ),
    );
  }
  return errors;
}
