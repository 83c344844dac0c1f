export type { ComponentConfigSpec, Endpoint, FieldError, RuntimeSettings } from './spec.js';
export { ConfigError, loadComponentConfig, parseComponentConfig, unknownFields, formatPath, type LoadedConfig } from './load.js';
export { parseDuration, formatDuration } from './duration.js';
export * as common from './common.js';
export { schedulerConfigSpec, type SchedulerConfiguration } from './components/scheduler.js';
