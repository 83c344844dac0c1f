import { libBuild } from '../../tsup.shared.js';

// index: provider-local's controllers; ssh: the bastion's SSH server and program (the only part that loads ssh2).
export default libBuild({ index: 'src/index.ts', ssh: 'src/ssh/index.ts' });
