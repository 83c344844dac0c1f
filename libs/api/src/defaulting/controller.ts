// defaultControllerRegistration: primary resources, extension lifecycle, on-demand deployment.
import type { ControllerRegistration } from '../core/v1beta1/controller.js';
import { setDefault, setDefaults } from './util.js';

export function defaultControllerRegistration(input: ControllerRegistration): ControllerRegistration {
  const registration = structuredClone(input);
  const spec = setDefault(registration, 'spec', () => ({}));
  for (const resource of spec.resources ?? []) {
    setDefault(resource, 'primary', () => true);
    if (resource.kind !== 'Extension') continue;
    setDefault(resource, 'globallyEnabled', () => false);
    setDefault(resource, 'reconcileTimeout', () => '3m0s');
    setDefault(resource, 'clusterCompatibility', () => ['shoot' as const]);
    setDefaults(
      setDefault(resource, 'lifecycle', () => ({})),
      {
        reconcile: 'AfterKubeAPIServer',
        delete: 'BeforeKubeAPIServer',
        migrate: 'BeforeKubeAPIServer',
      },
    );
  }
  if (spec.deployment) setDefault(spec.deployment, 'policy', () => 'OnDemand' as const);
  return registration;
}
