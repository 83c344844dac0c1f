import { libBuild } from '../../tsup.shared.js';

// `./etcdbr` on its own: the etcdbrctl sidecar loads only etcd-backup-restore, not the whole gardenlet.
export default libBuild({
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'etcdbr/index': 'src/etcdbr/index.ts',
});
