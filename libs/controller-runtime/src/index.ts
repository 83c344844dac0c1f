export { runComponent, type ComponentContext, type ComponentDefinition, type RunOptions } from './component/run-component.js';
export { Checks, type Check } from './component/health.js';
export { startServers, closeServers, type ServedEndpoints } from './component/http-servers.js';
export { VERSION } from './version.js';
