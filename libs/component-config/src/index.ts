export type { ComponentConfigSpec, Endpoint, FieldError, RuntimeSettings } from './spec.js';
export {
  ConfigError,
  loadComponentConfig,
  parseComponentConfig,
  unknownFields,
  formatPath,
  type LoadedConfig,
} from './load.js';
export { parseDuration, formatDuration } from './duration.js';
export * as common from './common.js';
export { schedulerConfigSpec, type SchedulerConfiguration } from './components/scheduler.js';
export { resourceManagerConfigSpec, type ResourceManagerConfiguration } from './components/resource-manager.js';
export { nodeAgentConfigSpec, type NodeAgentConfiguration } from './components/node-agent.js';
export { providerLocalConfigSpec, type ProviderLocalConfiguration } from './components/provider-local.js';
export { gardenletConfigSpec, type GardenletConfiguration } from './components/gardenlet.js';
export { operatorConfigSpec, type OperatorConfiguration } from './components/operator.js';
export { controllerManagerConfigSpec, type ControllerManagerConfiguration } from './components/controller-manager.js';
export { admissionControllerConfigSpec, type AdmissionControllerConfiguration } from './components/admission.js';
