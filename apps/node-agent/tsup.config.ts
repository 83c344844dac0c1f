import { appBuild } from '../../tsup.shared.js';

// main.js: gardener-node-agent; machine.js: the machine program of image gardener-ts/machine (provider-local's nodes),
// whose sshd loads ssh2 (and its optional native bindings) from node_modules at run time, as the bastion program does.
export default appBuild('node-agent', { main: 'src/main.ts', machine: 'src/machine.ts' }, undefined, ['ssh2']);
