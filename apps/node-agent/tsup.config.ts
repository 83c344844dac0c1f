import { appBuild } from '../../tsup.shared.js';

// main.js: gardener-node-agent; machine.js: the machine program of image gardener-ts/machine (provider-local's nodes).
export default appBuild('node-agent', { main: 'src/main.ts', machine: 'src/machine.ts' });
