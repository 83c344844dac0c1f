import { appBuild } from '../../tsup.shared.js';

export default appBuild('gardener-local', { cli: 'src/cli.ts' }, '../../dist/tools/gardener-local', ['etcd3']);
