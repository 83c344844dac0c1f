export {
  runComponent,
  type ComponentContext,
  type ComponentDefinition,
  type RunOptions,
} from './component/run-component.js';
export { Checks, type Check } from './component/health.js';
export { startServers, closeServers, type ServedEndpoints } from './component/http-servers.js';
export { VERSION } from './version.js';
export * from './client/index.js';
export * from './queue/index.js';
export * from './cache/index.js';
export * from './labels/index.js';
export * from './controller/index.js';
export * from './handler/index.js';
export * from './predicate/index.js';
export * from './manager/index.js';
export * from './leaderelection/index.js';
export * from './conditions/index.js';
export * from './events/index.js';
export * from './webhook/index.js';
export * from './toolkit/index.js';
