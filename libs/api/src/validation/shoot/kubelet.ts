// Kubelet settings of a Shoot or one of its worker pools.
import type { KubeletConfig } from '../../core/v1beta1/shoot.js';
import { type FieldError, FieldPath, forbidden, invalid } from '../field.js';
import { validateDuration, validateNonNegative, validateQuantity, validateStringEnum } from '../common.js';

const second = 1000;
const hour = 3600 * second;

export function validateKubeletConfig(kubelet: KubeletConfig, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (kubelet.maxPods !== undefined && kubelet.maxPods <= 0)
    errors.push(invalid(path.child('maxPods'), kubelet.maxPods, 'must be greater than 0'));
  if (kubelet.podPidsLimit !== undefined && kubelet.podPidsLimit < 100) {
    errors.push(invalid(path.child('podPidsLimit'), kubelet.podPidsLimit, 'must be greater than or equal to 100'));
  }
  const high = kubelet.imageGCHighThresholdPercent;
  const low = kubelet.imageGCLowThresholdPercent;
  for (const [name, value] of [
    ['imageGCHighThresholdPercent', high],
    ['imageGCLowThresholdPercent', low],
  ] as const) {
    if (value !== undefined && (value < 0 || value > 100))
      errors.push(invalid(path.child(name), value, 'value must be in [0,100]'));
  }
  if (high !== undefined && low !== undefined && low >= high) {
    errors.push(
      invalid(
        path.child('imageGCLowThresholdPercent'),
        low,
        'imageGCLowThresholdPercent must be less than imageGCHighThresholdPercent',
      ),
    );
  }
  errors.push(...validateNonNegative(kubelet.registryPullQPS, path.child('registryPullQPS')));
  errors.push(...validateNonNegative(kubelet.registryBurst, path.child('registryBurst')));
  errors.push(...validateNonNegative(kubelet.evictionMaxPodGracePeriod, path.child('evictionMaxPodGracePeriod')));
  if (kubelet.containerLogMaxFiles !== undefined && kubelet.containerLogMaxFiles < 2) {
    errors.push(invalid(path.child('containerLogMaxFiles'), kubelet.containerLogMaxFiles, 'value must be >= 2.'));
  }
  errors.push(...validateQuantity(kubelet.containerLogMaxSize, path.child('containerLogMaxSize')));
  if (kubelet.maxParallelImagePulls !== undefined) {
    if (kubelet.maxParallelImagePulls < 1) {
      errors.push(invalid(path.child('maxParallelImagePulls'), kubelet.maxParallelImagePulls, 'value must be >= 1.'));
    }
    if ((kubelet.serializeImagePulls ?? true) && kubelet.maxParallelImagePulls > 1) {
      errors.push(
        forbidden(
          path.child('maxParallelImagePulls'),
          'maxParallelImagePulls must not be set to a value > 1 when serializeImagePulls is true',
        ),
      );
    }
  }
  errors.push(
    ...validateDuration(kubelet.streamingConnectionIdleTimeout, path.child('streamingConnectionIdleTimeout'), {
      min: 30 * second,
      minText: '30s',
      max: 4 * hour,
      maxText: '4h',
    }),
  );
  for (const name of ['evictionPressureTransitionPeriod', 'imageMinimumGCAge', 'imageMaximumGCAge'] as const) {
    errors.push(...validateDuration(kubelet[name], path.child(name)));
  }
  for (const reserved of ['kubeReserved', 'systemReserved'] as const) {
    for (const [name, value] of Object.entries(kubelet[reserved] ?? {})) {
      errors.push(...validateQuantity(value as string | number, path.child(reserved, name)));
    }
  }
  for (const [name, value] of Object.entries(kubelet.evictionMinimumReclaim ?? {})) {
    errors.push(...validateQuantity(value as string | number, path.child('evictionMinimumReclaim', name)));
  }
  for (const eviction of ['evictionHard', 'evictionSoft'] as const) {
    for (const [name, value] of Object.entries(kubelet[eviction] ?? {})) {
      if (!/^\d+(\.\d+)?%$/.test(value as string) && validateQuantity(value as string, path).length > 0) {
        errors.push(invalid(path.child(eviction, name), value, 'must be a quantity or a percentage'));
      }
    }
  }
  for (const [name, value] of Object.entries(kubelet.evictionSoftGracePeriod ?? {})) {
    errors.push(...validateDuration(value as string, path.child('evictionSoftGracePeriod', name)));
  }
  if (kubelet.memorySwap?.swapBehavior !== undefined) {
    errors.push(
      ...validateStringEnum(kubelet.memorySwap.swapBehavior, path.child('memorySwap', 'swapBehavior'), [
        'NoSwap',
        'LimitedSwap',
      ]),
    );
    if (kubelet.failSwapOn !== false) {
      errors.push(
        forbidden(
          path.child('memorySwap'),
          "configuring swap behaviour is not available when the kubelet is configured with 'FailSwapOn=true'",
        ),
      );
    }
  }
  if (kubelet.cpuManagerPolicy !== undefined) {
    errors.push(...validateStringEnum(kubelet.cpuManagerPolicy, path.child('cpuManagerPolicy'), ['none', 'static']));
  }
  return errors;
}
