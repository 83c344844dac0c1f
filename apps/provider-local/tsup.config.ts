import { appBuild } from '../../tsup.shared.js';

// main.js: gardener-extension-provider-local; bastion.js: the bastion program of image gardener-ts/bastion, which loads
// ssh2 (and its optional native bindings) from node_modules at run time.
export default appBuild('provider-local', { main: 'src/main.ts', bastion: 'src/bastion.ts' }, undefined, ['ssh2']);
